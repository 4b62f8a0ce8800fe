import { randomBytes } from 'node:crypto'
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSecretBox, loadOrCreateKeyFile } from './secret-box.ts'

const dirs: string[] = []
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true })
})

describe('createSecretBox', () => {
  it('opens what it sealed, and each seal differs', () => {
    const box = createSecretBox(randomBytes(32))
    const a = box.seal('秘密の鍵/abc+=')
    expect(box.open(a)).toBe('秘密の鍵/abc+=')
    expect(box.seal('秘密の鍵/abc+=')).not.toBe(a)
    expect(a).not.toContain('abc')
  })

  it('refuses tampered text and another key', () => {
    const box = createSecretBox(randomBytes(32))
    const sealed = box.seal('secret')
    const parts = sealed.split('.')
    const tampered = [...parts.slice(0, 3), Buffer.from('other').toString('base64url')].join('.')
    expect(() => box.open(tampered)).toThrow()
    expect(() => createSecretBox(randomBytes(32)).open(sealed)).toThrow()
    expect(() => box.open('garbage')).toThrow('Not a sealed secret')
  })

  it('needs a 32-byte key', () => {
    expect(() => createSecretBox(randomBytes(16))).toThrow()
  })
})

describe('loadOrCreateKeyFile', () => {
  it('creates a private key file once and reads the same key afterwards', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'secret-box-'))
    dirs.push(dir)
    const file = path.join(dir, 'identity', 'credentials.key')
    const first = await loadOrCreateKeyFile(file)
    const second = await loadOrCreateKeyFile(file)
    expect(first.equals(second)).toBe(true)
    expect((await stat(file)).mode & 0o777).toBe(0o600)
    expect(Buffer.from((await readFile(file, 'utf8')).trim(), 'base64')).toHaveLength(32)
  })
})
