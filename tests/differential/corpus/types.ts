import type { CodeLanguage } from '#features/exercises/code-run.ts'

/**
 * How a submission must end on both runners. 'pass': every test passes. 'fail': some test's
 * output is wrong (or the program never prints). A limit or an error names how the first
 * failing run ended, which both runners must name the same way.
 */
export type Expected =
  | 'pass'
  | 'fail'
  | 'error'
  | 'timeout'
  | 'output-limit'
  | 'recursion'
  | 'memory'

export type CorpusTest = { stdin: string; expectedOutput: string }

/** One submission of the differential corpus: a program, a question's tests, its verdict. */
export type CorpusEntry = {
  /** Unique, says what the program does: `python/sum/off-by-one`. */
  id: string
  language: CodeLanguage
  code: string
  timeLimitMs: number
  tests: CorpusTest[]
  expected: Expected
}
