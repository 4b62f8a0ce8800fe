import { X509Certificate } from 'node:crypto'
import { mkdtemp, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { loadCertificate } from './tls.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'techlab-tls-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

const files = () => ({
  port: 0,
  certFile: path.join(dir, 'tls', 'localhost.crt'),
  keyFile: path.join(dir, 'tls', 'localhost.key'),
  selfSigned: true,
})

describe('the TLS listener’s certificate', () => {
  it('is made once for localhost, kept private, and reused until it expires', async () => {
    const first = await loadCertificate(files())
    const certificate = new X509Certificate(first.cert)
    expect(certificate.checkHost('localhost')).toBe('localhost')
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1')
    expect((await stat(files().keyFile)).mode & 0o777).toBe(0o600)
    expect(await loadCertificate(files())).toEqual(first)

    const afterExpiry = Date.parse(certificate.validTo) + 1000
    const renewed = await loadCertificate(files(), afterExpiry)
    expect(renewed.cert).not.toBe(first.cert)
  })

  it('uses given files as they are, and says when they are missing', async () => {
    await expect(loadCertificate({ ...files(), selfSigned: false })).rejects.toThrow(
      /cannot be read/,
    )
  })
})
