import { limitEntries } from './limits.ts'
import { problemEntries } from './problems.ts'
import type { CorpusEntry } from './types.ts'
import { unicodeEntries } from './unicode.ts'

export type { CorpusEntry, Expected } from './types.ts'

/** Every submission of the differential corpus (tests/e2e/differential.test.ts runs them). */
export function differentialCorpus(): CorpusEntry[] {
  return [...problemEntries(), ...limitEntries(), ...unicodeEntries()]
}
