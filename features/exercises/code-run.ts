// One code run, as both runners see it: the learner's browser (app/lib/code-runner/, a Worker per
// language) and the server's verifier (server/code-sandbox/, QuickJS and Pyodide off the main
// thread). Both take a CodeRunRequest and answer a CodeRunResult; how a question's tests judge
// those results (runTests, outputMatches) lives here once, so the browser's 「提出」 and the
// server's re-check cannot disagree. Browser-safe: plain data and functions only.

export const CODE_LANGUAGES = ['javascript', 'python'] as const
export type CodeLanguage = (typeof CODE_LANGUAGES)[number]

/** A learner's program (and an author's starter code and reference solution) at most this long. */
export const MAX_CODE_BYTES = 64 * 1024
/** stdout and stderr of one run together; a run that writes more ends as 'output-limit'. */
export const MAX_OUTPUT_BYTES = 64 * 1024
/**
 * A program's heap for one run, in either runner: past it, Python raises MemoryError (both
 * runners cap Pyodide's WebAssembly memory) and QuickJS "out of memory".
 */
export const MEMORY_LIMIT_BYTES = 128 * 1024 * 1024
/** A test's stdin and expected output each at most this long. */
export const MAX_TEST_TEXT_BYTES = 16 * 1024

export const MIN_TIME_LIMIT_MS = 500
export const MAX_TIME_LIMIT_MS = 10_000
export const DEFAULT_TIME_LIMIT_MS = 2_000

/**
 * One program run. `stdin` is what the program reads: Python's `input()` and `sys.stdin` as
 * usual; in JavaScript a global `input()` returns the next line (without its newline) and
 * `null` at the end, like Python's input() without the EOFError. Output is what
 * `console.log` / `print` write (stdout) and `console.error` / `sys.stderr` (stderr).
 */
export type CodeRunRequest = {
  language: CodeLanguage
  code: string
  stdin: string
  timeLimitMs: number
}

type RunOutput = { stdout: string; stderr: string; durationMs: number }

/**
 * How a run ended. 'error': an uncaught exception or syntax error, with the runtime's message
 * and, when known, the line of the learner's code it points at (1-based). 'timeout': still
 * running at the time limit, stopped. 'output-limit': wrote more than MAX_OUTPUT_BYTES, stopped.
 * 'unavailable': the runner itself could not run (failed to load, overloaded); never the
 * learner's fault, so never a failed test. With `retryAfterMs`, the server's runner refused
 * this learner alone, past their share of it, until then.
 */
export type CodeRunResult =
  | (RunOutput & { outcome: 'completed' })
  | (RunOutput & { outcome: 'error'; error: { message: string; line?: number } })
  | (RunOutput & { outcome: 'timeout' })
  | (RunOutput & { outcome: 'output-limit' })
  | (RunOutput & { outcome: 'unavailable'; reason: string; retryAfterMs?: number })

export type CodeRunner = (request: CodeRunRequest) => Promise<CodeRunResult>

/** A test of a code question: the program gets `stdin` and must print `expectedOutput`. */
export type CodeTest = { name: string; stdin: string; expectedOutput: string }

/**
 * Output comparison: line endings normalised to \n, trailing spaces and tabs of each line
 * ignored, trailing blank lines ignored. Anything else (case, inner spaces) must match, as a
 * beginner's `print` is expected to.
 */
export function normaliseOutput(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/[ \t]+$/, ''))
    .join('\n')
    .replace(/\n+$/, '')
}

export function outputMatches(expected: string, actual: string): boolean {
  return normaliseOutput(expected) === normaliseOutput(actual)
}

export type TestOutcome = { name: string; passed: boolean; run: CodeRunResult }

/**
 * Runs `code` once per test, in order, with that test's stdin, and judges each run. Stops
 * early when the runner is unavailable (the rest would be too); the caller reports that
 * rather than a verdict. With `stopAfterTimeout`, also after the first run that hit the time
 * limit: the server's verifier bounds a looping submission to one time limit, not one per test
 * (the outcomes are then fewer than the tests, so `allPassed` is false).
 */
export async function runTests(
  run: CodeRunner,
  request: { language: CodeLanguage; code: string; timeLimitMs: number },
  tests: readonly CodeTest[],
  options: { stopAfterTimeout?: boolean } = {},
): Promise<TestOutcome[]> {
  const outcomes: TestOutcome[] = []
  for (const test of tests) {
    const result = await run({ ...request, stdin: test.stdin })
    outcomes.push({
      name: test.name,
      passed: result.outcome === 'completed' && outputMatches(test.expectedOutput, result.stdout),
      run: result,
    })
    if (result.outcome === 'unavailable') break
    if (options.stopAfterTimeout && result.outcome === 'timeout') break
  }
  return outcomes
}

/** Every test ran and passed. */
export function allPassed(outcomes: readonly TestOutcome[], tests: readonly CodeTest[]): boolean {
  return outcomes.length === tests.length && outcomes.every((outcome) => outcome.passed)
}

/** The Japanese message for a run that hit its time limit, shown by both runners' callers. */
export function timeoutMessage(timeLimitMs: number): string {
  return `制限時間（${secondsOf(timeLimitMs)} 秒）内に終わりませんでした。無限ループになっていないか確かめてください。`
}

/** The same for a question's hidden tests, which are never named one by one (decision 046). */
export function hiddenTimeoutMessage(timeLimitMs: number): string {
  return `非公開テストの一部が${timeoutMessage(timeLimitMs)}`
}

function secondsOf(timeLimitMs: number): number {
  return Number((timeLimitMs / 1000).toFixed(1))
}

export const OUTPUT_LIMIT_MESSAGE = `出力が多すぎるため停止しました（上限 ${MAX_OUTPUT_BYTES / 1024} KB）。`

/**
 * Why a run did not complete, in Japanese, as both runners' callers show it (null when it
 * completed): the time limit, the output cap, an error with the learner's line, or a runner
 * that could not run.
 */
export function runProblemMessage(run: CodeRunResult, timeLimitMs: number): string | null {
  switch (run.outcome) {
    case 'completed':
      return null
    case 'timeout':
      return timeoutMessage(timeLimitMs)
    case 'output-limit':
      return OUTPUT_LIMIT_MESSAGE
    case 'error':
      return runErrorMessage(run.error)
    case 'unavailable':
      return `実行できませんでした（${run.reason}）。ページを再読み込みして、もう一度お試しください。`
  }
}

/** An error of a run, with the learner's line when known: 「3 行目でエラー: NameError: …」. */
export function runErrorMessage(error: { message: string; line?: number }): string {
  return error.line === undefined
    ? `エラー: ${error.message}`
    : `${error.line} 行目でエラー: ${error.message}`
}
