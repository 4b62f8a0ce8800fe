import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import zlib from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { isCompressible, negotiateCoding, precompressDirectory } from './compression.ts'

describe('negotiateCoding', () => {
  it('prefers brotli, then gzip', () => {
    expect(negotiateCoding('gzip, deflate, br, zstd')).toBe('br')
    expect(negotiateCoding('gzip, deflate')).toBe('gzip')
    expect(negotiateCoding('GZIP')).toBe('gzip')
  })

  it('follows the client’s weights and refusals', () => {
    expect(negotiateCoding('br;q=0.5, gzip')).toBe('gzip')
    expect(negotiateCoding('br;q=0, gzip;q=0.1')).toBe('gzip')
    expect(negotiateCoding('br;q=0, gzip;q=0')).toBeUndefined()
    expect(negotiateCoding('*')).toBe('br')
  })

  it('answers identity without a header, or for codings it does not speak', () => {
    expect(negotiateCoding(undefined)).toBeUndefined()
    expect(negotiateCoding('')).toBeUndefined()
    expect(negotiateCoding('identity')).toBeUndefined()
    expect(negotiateCoding('deflate, compress')).toBeUndefined()
    expect(negotiateCoding('br;q=abc')).toBeUndefined()
  })
})

describe('isCompressible', () => {
  it('takes text, JSON, JavaScript and SVG, not pictures or archives', () => {
    for (const type of [
      'text/html; charset=utf-8',
      'application/json',
      'application/javascript',
      'text/css',
      'image/svg+xml',
      'application/problem+json',
      'application/manifest+json',
    ]) {
      expect(isCompressible(type), type).toBe(true)
    }
    for (const type of ['image/png', 'application/zip', 'video/mp4', 'application/octet-stream']) {
      expect(isCompressible(type), type).toBe(false)
    }
    expect(isCompressible(undefined)).toBe(false)
  })
})

describe('precompressDirectory', () => {
  it('writes brotli and gzip copies of small chunks too, but not copies that save nothing', async () => {
    const directory = await mkdtemp(path.join(tmpdir(), 'techlab-precompress-'))
    try {
      // A chunk of a few hundred bytes, as a page loads dozens of.
      const chunk =
        'import{t as e}from"./react-DlmbjZJV.js";' +
        'export function a(t){return e.jsx(`div`,{className:`rounded-md border px-3 py-2`,children:t})}'.repeat(
          4,
        )
      await writeFile(path.join(directory, 'chunk.js'), chunk)
      await writeFile(path.join(directory, 'tiny.js'), 'a()')
      await precompressDirectory(directory)
      const brotli = await readFile(path.join(directory, 'chunk.js.br'))
      expect(brotli.byteLength).toBeLessThan(chunk.length / 2)
      expect(zlib.brotliDecompressSync(brotli).toString()).toBe(chunk)
      expect(zlib.gunzipSync(await readFile(path.join(directory, 'chunk.js.gz'))).toString()).toBe(
        chunk,
      )
      expect((await readdir(directory)).sort()).toEqual([
        'chunk.js',
        'chunk.js.br',
        'chunk.js.gz',
        'tiny.js',
      ])
    } finally {
      await rm(directory, { recursive: true, force: true })
    }
  })
})
