import { createHash } from 'node:crypto'
import { copyFile, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'
import {
  PYODIDE_FILES,
  PYODIDE_MANIFEST,
  PYODIDE_PATH,
  PYODIDE_VERSION,
  type PyodideManifest,
} from '#features/exercises/runner-assets.ts'
import { COMPRESSION_THRESHOLD_BYTES, CONTENT_CODINGS, compressForReuse } from './compression.ts'

const require = createRequire(import.meta.url)
const packageDirectory = () => path.dirname(require.resolve('pyodide/package.json'))

/** Files that are compressed already (a zip): a coding would gain a percent or two. */
const STORED = /\.zip$/

/**
 * Copies Pyodide's runtime files from the npm package into the client build (PYODIDE_PATH, a
 * versioned directory of /assets/, so served immutable) with a manifest of their sizes, and
 * their brotli and gzip copies for @fastify/static's preCompressed (decision 032). Brotli at
 * its best quality takes most of a minute on the 9.6 MB WebAssembly binary, so the copies are
 * kept in `cacheDirectory`, by version and content hash, and made once per Pyodide version.
 */
export async function copyPyodide(
  clientDirectory: string,
  cacheDirectory: string,
): Promise<{ files: number; bytes: number }> {
  const source = packageDirectory()
  const target = path.join(clientDirectory, PYODIDE_PATH)
  await mkdir(target, { recursive: true })
  const manifest: PyodideManifest = { version: PYODIDE_VERSION, files: {} }
  let bytes = 0
  await Promise.all(
    PYODIDE_FILES.map(async (name) => {
      const file = path.join(source, name)
      await copyFile(file, path.join(target, name))
      const { size } = await stat(file)
      manifest.files[name] = size
      bytes += size
      if (STORED.test(name) || size < COMPRESSION_THRESHOLD_BYTES) return
      const content = await readFile(file)
      const hash = createHash('sha256').update(content).digest('hex').slice(0, 16)
      for (const coding of CONTENT_CODINGS) {
        const extension = coding === 'br' ? 'br' : 'gz'
        const cached = path.join(cacheDirectory, `${name}.${hash}.${extension}`)
        const encoded = await readFile(cached).catch(async () => {
          const made = await compressForReuse(content, coding, 'max')
          await mkdir(cacheDirectory, { recursive: true })
          // Written whole or not at all: a build stopped midway leaves no truncated copy.
          await writeFile(`${cached}.partial`, made)
          await rename(`${cached}.partial`, cached)
          return made
        })
        if (encoded.byteLength < size)
          await writeFile(path.join(target, `${name}.${extension}`), encoded)
      }
    }),
  )
  await writeFile(path.join(target, PYODIDE_MANIFEST), `${JSON.stringify(manifest)}\n`)
  return { files: PYODIDE_FILES.length, bytes }
}

/**
 * Development (`npm run dev`): Pyodide's files straight from the npm package at the same path,
 * with the manifest made on the fly; the build's copies are not there.
 */
export async function developmentPyodideFile(
  urlPath: string,
): Promise<{ body: Buffer | string; type: string } | undefined> {
  if (!urlPath.startsWith(PYODIDE_PATH)) return undefined
  const name = urlPath.slice(PYODIDE_PATH.length)
  const source = packageDirectory()
  if (name === PYODIDE_MANIFEST) {
    const manifest: PyodideManifest = { version: PYODIDE_VERSION, files: {} }
    for (const file of PYODIDE_FILES)
      manifest.files[file] = (await stat(path.join(source, file))).size
    return { body: JSON.stringify(manifest), type: 'application/json' }
  }
  if (!(PYODIDE_FILES as readonly string[]).includes(name)) return undefined
  const types: Record<string, string> = {
    '.mjs': 'text/javascript',
    '.wasm': 'application/wasm',
    '.zip': 'application/zip',
    '.json': 'application/json',
  }
  return {
    body: await readFile(path.join(source, name)),
    type: types[path.extname(name)] ?? 'application/octet-stream',
  }
}
