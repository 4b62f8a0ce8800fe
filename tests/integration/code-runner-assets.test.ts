import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { brotliDecompressSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  PYODIDE_FILES,
  PYODIDE_MANIFEST,
  PYODIDE_PATH,
  PYODIDE_VERSION,
  RUNNER_WORKER_PATH,
} from '#features/exercises/runner-assets.ts'
import { type RawAnswer, rawGet } from '#tests/support/http.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * What the browser's code runners load (docs/decisions/032): the runner Workers' scripts with a
 * policy of their own, and Pyodide's files from this server (no CDN), versioned, immutable and
 * precompressed. node:http, not fetch, to see the bytes and headers as sent.
 */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

function get(target: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawGet(`${server.url}${target}`, headers)
}

const builtWorkers = readdirSync(
  path.resolve(import.meta.dirname, `../../build/client${RUNNER_WORKER_PATH}`),
).filter((name) => name.endsWith('.js'))

describe('the runner workers', () => {
  it('are built, and each script carries the worker policy for the host asked', async () => {
    expect(builtWorkers.some((name) => name.startsWith('javascript.worker-'))).toBe(true)
    expect(builtWorkers.some((name) => name.startsWith('python.worker-'))).toBe(true)
    const host = new URL(server.url).host
    for (const name of builtWorkers) {
      for (const coding of ['identity', 'br']) {
        const answer = await get(`${RUNNER_WORKER_PATH}${name}`, { 'accept-encoding': coding })
        expect(answer.status).toBe(200)
        const policy = String(answer.headers['content-security-policy'])
        expect(policy).toContain("default-src 'none'")
        expect(policy).toContain(`connect-src http://${host}${PYODIDE_PATH}`)
        expect(policy).toContain("worker-src 'none'")
      }
    }
  })

  it('alone get it: pages keep theirs, without eval or WebAssembly', async () => {
    const page = await get('/')
    const policy = String(page.headers['content-security-policy'])
    expect(policy).toContain("script-src 'self' 'nonce-")
    expect(policy).not.toContain('unsafe-eval')
    expect(policy).not.toContain('wasm-unsafe-eval')
  })
})

describe('Pyodide', () => {
  it('is served by this site under its version, immutable, brotli where it helps', async () => {
    expect(PYODIDE_PATH).toBe(`/assets/pyodide-${PYODIDE_VERSION}/`)
    const manifest = JSON.parse((await get(`${PYODIDE_PATH}${PYODIDE_MANIFEST}`)).body.toString())
    expect(manifest.version).toBe(PYODIDE_VERSION)
    const packageDirectory = path.resolve(import.meta.dirname, '../../node_modules/pyodide')
    for (const name of PYODIDE_FILES) {
      const original = readFileSync(path.join(packageDirectory, name))
      expect(manifest.files[name]).toBe(original.byteLength)
      const answer = await get(`${PYODIDE_PATH}${name}`, { 'accept-encoding': 'br, gzip' })
      expect(answer.status).toBe(200)
      expect(answer.headers['cache-control']).toContain('immutable')
      if (name.endsWith('.zip')) {
        // Already compressed: sent as it is.
        expect(answer.headers['content-encoding']).toBeUndefined()
        expect(answer.body.equals(original)).toBe(true)
      } else {
        expect(answer.headers['content-encoding']).toBe('br')
        expect(brotliDecompressSync(answer.body).equals(original)).toBe(true)
      }
    }
    const wasm = await get(`${PYODIDE_PATH}pyodide.asm.wasm`, { 'accept-encoding': 'br' })
    expect(wasm.headers['content-type']).toBe('application/wasm')
    // A third of its size on the wire.
    expect(wasm.body.byteLength).toBeLessThan(manifest.files['pyodide.asm.wasm'] / 3)
  })
})
