// Where Pyodide lives on our own server (docs/decisions/032): the build copies the npm
// package's runtime files into build/client under a versioned directory of /assets/, so they
// are cached immutable and precompressed like every other asset; no CDN.
import pyodidePackage from 'pyodide/package.json' with { type: 'json' }

export const PYODIDE_VERSION: string = pyodidePackage.version

/** The URL path of Pyodide's files, ending with a slash (its `indexURL`). */
export const PYODIDE_PATH = `/assets/pyodide-${PYODIDE_VERSION}/`

/** The runtime files a Python run needs (no packages: the npm package has none). */
export const PYODIDE_FILES = [
  'pyodide.mjs',
  'pyodide.asm.mjs',
  'pyodide.asm.wasm',
  'python_stdlib.zip',
  'pyodide-lock.json',
] as const

/**
 * Written by the build beside them: each file's size, so the worker can show how much of the
 * download is done (a compressed response's Content-Length is not the decoded size).
 */
export const PYODIDE_MANIFEST = 'manifest.json'
export type PyodideManifest = { version: string; files: Record<string, number> }

/** Where the build puts the runner Workers' scripts; their responses carry the worker policy. */
export const RUNNER_WORKER_PATH = '/assets/code-runner/'
