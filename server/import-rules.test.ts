import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

/**
 * How modules reach each other, checked so it stays one way: across top-level folders through the
 * `#app/*`, `#features/*`, `#db/*`, `#server/*`, `#tests/*` aliases of package.json, never `../`; and
 * the protocol services (identity, storage) never import product features.
 */
const sources = execFileSync('git', ['ls-files', '*.ts', '*.tsx'], { encoding: 'utf8' })
  .split('\n')
  .filter(Boolean)

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"]+)\1/g

function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(SPECIFIER)].map((match) => match[2] ?? '')
}

describe('import rules', () => {
  it('imports across folders use the package aliases, not ../', () => {
    const offenders = sources.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => specifier.startsWith('../'))
        .map((specifier) => `${file}: ${specifier}`),
    )
    expect(offenders).toEqual([])
  })

  it('identity and storage never import product features', () => {
    const offenders = sources
      .filter((file) => /^server\/(identity|storage)\//.test(file))
      .flatMap((file) =>
        importsOf(file)
          .filter((specifier) => specifier.startsWith('#features/'))
          .map((specifier) => `${file}: ${specifier}`),
      )
    expect(offenders).toEqual([])
  })
})
