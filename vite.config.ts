import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { reactRouter } from '@react-router/dev/vite'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig, type Plugin } from 'vite'
import { RUNNER_WORKER_PATH } from './features/exercises/runner-assets.ts'
import {
  BUILD_CONFIG_FILES,
  BUILD_INPUTS_FILE,
  type BuildInputs,
  hashFile,
} from './server/build-inputs.ts'
import { precompressDirectory } from './server/compression.ts'
import { copyPyodide, developmentPyodideFile } from './server/pyodide-files.ts'

/**
 * Records every project file a build reads, with its hash, in build/inputs.json (the client
 * and the server build add to one list), so `npm start` and the test suites can tell whether
 * the build is current (server/build-inputs.ts).
 */
function buildInputs(): Plugin {
  const root = import.meta.dirname
  const files = new Set<string>()
  return {
    name: 'techlab-build-inputs',
    apply: 'build',
    transform(_code, id) {
      const file = id.split('?')[0] ?? ''
      if (file.startsWith(`${root}/`) && !file.includes('/node_modules/')) files.add(file)
    },
    closeBundle() {
      const output = path.join(root, BUILD_INPUTS_FILE)
      let inputs: BuildInputs = { files: {} }
      try {
        // The client build runs first and writes afresh; the server build adds its files.
        if (this.environment.name !== 'client') {
          inputs = JSON.parse(readFileSync(output, 'utf8')) as BuildInputs
        }
      } catch {}
      for (const file of [...files, ...BUILD_CONFIG_FILES.map((name) => path.join(root, name))]) {
        inputs.files[path.relative(root, file)] = hashFile(file)
      }
      mkdirSync(path.dirname(output), { recursive: true })
      writeFileSync(output, `${JSON.stringify(inputs, null, 1)}\n`)
    },
  }
}

/** Brotli and gzip copies of the browser assets, made once here instead of per request. */
function precompressAssets(): Plugin {
  return {
    name: 'techlab-precompress',
    apply: 'build',
    async closeBundle() {
      if (this.environment.name !== 'client') return
      await precompressDirectory(path.resolve(this.environment.config.build.outDir))
    },
  }
}

/**
 * The code runners (docs/decisions/032): Pyodide's runtime copied from the npm package into the
 * client build (with its compressed copies, before precompressAssets runs), and the browser
 * runner and the run panel's standalone mount built as chunks of their own even before a page
 * imports them, at names the e2e tests and the bench can find (assets/code-runner-*.js,
 * assets/code-run-panel-mount-*.js; the panel's own lazy chunk is code-run-panel-*).
 */
function codeRunners(): Plugin {
  const root = import.meta.dirname
  return {
    name: 'techlab-code-runners',
    apply: 'build',
    buildStart() {
      if (this.environment.name !== 'client') return
      for (const [name, file] of [
        ['code-runner', 'browser-runner.ts'],
        ['code-run-panel-mount', 'mount-panel.client.tsx'],
      ]) {
        this.emitFile({
          type: 'chunk',
          id: path.join(root, 'app/lib/code-runner', file as string),
          name,
          preserveSignature: 'strict',
        })
      }
    },
    async writeBundle() {
      if (this.environment.name !== 'client') return
      await copyPyodide(
        path.resolve(this.environment.config.build.outDir),
        path.join(root, 'node_modules/.cache/techlab-pyodide'),
      )
    },
  }
}

/** `npm run dev`: Pyodide's files from the npm package, where the build would put them. */
function developmentPyodide(): Plugin {
  return {
    name: 'techlab-development-pyodide',
    apply: 'serve',
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        developmentPyodideFile(request.url?.split('?')[0] ?? '').then((file) => {
          if (!file) return next()
          response.setHeader('content-type', file.type)
          response.end(file.body)
        }, next)
      })
    },
  }
}

const runnerFiles = `${RUNNER_WORKER_PATH.slice(1)}[name]-[hash].js`

export default defineConfig({
  plugins: [
    tailwindcss(),
    reactRouter(),
    buildInputs(),
    codeRunners(),
    developmentPyodide(),
    precompressAssets(),
  ],
  // The runners' Workers and their chunks go where the server sends the workers' own policy.
  worker: {
    format: 'es',
    rolldownOptions: { output: { entryFileNames: runnerFiles, chunkFileNames: runnerFiles } },
  },
})
