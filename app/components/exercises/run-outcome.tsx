import {
  type CodeRunResult,
  OUTPUT_LIMIT_MESSAGE,
  type TestOutcome,
  timeoutMessage,
} from '#features/exercises/code-run.ts'

/** Why a run did not complete, in Japanese (null when it completed). */
export function runProblem(run: CodeRunResult, timeLimitMs: number): string | null {
  switch (run.outcome) {
    case 'completed':
      return null
    case 'timeout':
      return timeoutMessage(timeLimitMs)
    case 'output-limit':
      return OUTPUT_LIMIT_MESSAGE
    case 'error':
      return run.error.line === undefined
        ? `エラー: ${run.error.message}`
        : `${run.error.line} 行目でエラー: ${run.error.message}`
    case 'unavailable':
      return `実行できませんでした: ${run.reason}`
  }
}

/** Each test's verdict, with the run's output and why it failed. */
export function RunOutcomeDetails(props: {
  outcomes: readonly TestOutcome[]
  timeLimitMs: number
}) {
  return (
    <ul className="flex flex-col gap-2">
      {props.outcomes.map(numbered).map(({ outcome, number }) => {
        const problem = runProblem(outcome.run, props.timeLimitMs)
        return (
          <li
            key={number}
            data-test-passed={outcome.passed}
            className="rounded-md border border-slate-200 p-2 dark:border-slate-700"
          >
            <p className="font-semibold">
              {outcome.passed ? '✓ 合格' : '✗ 不合格'}: {outcome.name}
            </p>
            {problem && <p className="text-red-700 dark:text-red-400">{problem}</p>}
            {outcome.run.stdout !== '' && (
              <pre className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-900">
                {outcome.run.stdout}
              </pre>
            )}
            {outcome.run.stderr !== '' && (
              <pre className="mt-1 overflow-x-auto rounded bg-red-50 p-2 text-xs text-red-900 dark:bg-red-950 dark:text-red-100">
                {outcome.run.stderr}
              </pre>
            )}
          </li>
        )
      })}
    </ul>
  )
}

/** Outcomes come one per test in the tests' order, which never changes under a list: its number is its key. */
function numbered(outcome: TestOutcome, index: number) {
  return { outcome, number: index + 1 }
}
