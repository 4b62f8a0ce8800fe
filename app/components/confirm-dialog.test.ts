import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

function sources(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sources(path)
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : []
  })
}

describe('confirmations', () => {
  it('every page asks with the site’s own dialog (useConfirm), never the browser’s', () => {
    const native = sources('app').filter((path) =>
      /\b(?:window|globalThis|self)\.confirm\(|(?<![.\w])confirm\(\s*['"`]/.test(
        readFileSync(path, 'utf8'),
      ),
    )
    expect(native).toEqual([])
  })
})
