import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * How modules reach each other, checked so it stays one way: across top-level folders through the
 * `#app/*`, `#features/*`, `#db/*`, `#server/*`, `#tests/*`, `#bench/*` aliases of package.json, never `../`;
 * the protocol services (identity, storage, realtime) never import product features; and the server never
 * imports the app (it loads the app's build by path, at run time, in server/react-router.ts).
 */
const sources = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean)

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => match[2] ?? '')
}

/**
 * The one thing the server may take from `app/`: the type of the load context, the contract of
 * what the server hands every loader and action. A type import is erased at compile time, so no
 * app code runs in the server by it; everything else the app needs from the server (the session,
 * cookie names) goes the other way, through that context.
 */
const LOAD_CONTEXT_TYPE = /^import type \{[^}]*\} from '#app\/load-context\.ts'$/m

describe('import rules', () => {
  it('imports across folders use the package aliases, not ../', () => {
    const offenders = sources.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('../'))
        .map((specifier) => `${file}: ${specifier}`),
    )
    expect(offenders).toEqual([])
  })

  it('identity, storage and realtime never import product features', () => {
    const offenders = sources
      .filter((file) => /^server\/(identity|storage|realtime)\//.test(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('#features/'))
          .map((specifier) => `${file}: ${specifier}`),
      )
    expect(offenders).toEqual([])
  })

  it('the server never imports the app, except the load context type', () => {
    const offenders = sources
      .filter((file) => file.startsWith('server/'))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8')
        const allowed = (text.match(new RegExp(LOAD_CONTEXT_TYPE, 'gm')) ?? []).length
        const all = importsOf(file).filter((specifier) => specifier.startsWith('#app/'))
        return all.length > allowed ? [`${file}: ${all.join(', ')}`] : []
      })
    expect(offenders).toEqual([])
  })
})
