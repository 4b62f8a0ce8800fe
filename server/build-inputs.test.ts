import { mkdirSync, mkdtempSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { BUILD_INPUTS_FILE, hashFile, staleBuildReason } from './build-inputs.ts'
import { hostInUrl } from './start.ts'

const roots: string[] = []
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true })
})

/** A project with two source files and a build made from them. */
function builtProject(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'techlab-build-inputs-'))
  roots.push(root)
  mkdirSync(path.join(root, 'app'))
  mkdirSync(path.join(root, 'build'))
  writeFileSync(path.join(root, 'app/a.tsx'), 'export const a = 1\n')
  writeFileSync(path.join(root, 'package-lock.json'), '{}\n')
  const files = Object.fromEntries(
    ['app/a.tsx', 'package-lock.json'].map((file) => [file, hashFile(path.join(root, file))]),
  )
  writeFileSync(path.join(root, BUILD_INPUTS_FILE), JSON.stringify({ files }))
  return root
}

describe('staleBuildReason', () => {
  it('is undefined while every input has the content it was built from', () => {
    const root = builtProject()
    expect(staleBuildReason(root)).toBeUndefined()
    // Rewriting the same bytes (a checkout, a touch) is no change.
    writeFileSync(path.join(root, 'app/a.tsx'), 'export const a = 1\n')
    expect(staleBuildReason(root)).toBeUndefined()
  })

  it('names the changed or removed input, or the missing build', () => {
    const changed = builtProject()
    writeFileSync(path.join(changed, 'app/a.tsx'), 'export const a = 2\n')
    expect(staleBuildReason(changed)).toBe('app/a.tsx changed')
    const removed = builtProject()
    unlinkSync(path.join(removed, 'package-lock.json'))
    expect(staleBuildReason(removed)).toBe('package-lock.json was removed')
    const unbuilt = builtProject()
    unlinkSync(path.join(unbuilt, BUILD_INPUTS_FILE))
    expect(staleBuildReason(unbuilt)).toBe('there is no build yet')
  })
})

describe('hostInUrl', () => {
  it('names the bound host, localhost for the wildcard addresses, IPv6 in brackets', () => {
    expect(hostInUrl('127.0.0.1')).toBe('127.0.0.1')
    expect(hostInUrl('localhost')).toBe('localhost')
    expect(hostInUrl('0.0.0.0')).toBe('localhost')
    expect(hostInUrl('::')).toBe('localhost')
    expect(hostInUrl('::1')).toBe('[::1]')
  })
})
