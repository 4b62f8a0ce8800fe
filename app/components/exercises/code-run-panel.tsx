import { type ReactNode, useEffect, useState } from 'react'
import { CodeEditor } from '#app/components/code-editor.tsx'
import type { LoadProgress } from '#app/lib/code-runner/browser-runner.ts'
import { loadBrowserRunner, onRunnerProgress } from '#app/lib/code-runner/load.ts'
import {
  type CodeLanguage,
  type CodeRunResult,
  type CodeTest,
  runErrorMessage,
  runProblemMessage,
  runTests,
  type TestOutcome,
} from '#features/exercises/code-run.ts'

/** One visible test in the server's verdict, in full. */
export type SubmittedTest = {
  name: string
  passed: boolean
  outcome: 'completed' | 'error' | 'timeout' | 'output-limit' | 'skipped'
  stdout: string | null
  stderr: string | null
  error: { message: string; line?: number } | null
  /** A Japanese sentence for a timeout, an output limit or a test not run. */
  message: string | null
}

/** The hidden tests in the server's verdict: a count, never one by one (decision 046). */
export type SubmittedHiddenTests = {
  total: number
  /** Null when they were not all run; `message` then says why. */
  passed: number | null
  allPassed: boolean
  message: string | null
}

/** What 「提出」 shows: the server's verdict after running every test in its sandbox. */
export type CodeSubmitVerdict = {
  verdict: 'correct' | 'incorrect'
  /** The Japanese summary. */
  message: string
  tests: readonly SubmittedTest[]
  hiddenTests: SubmittedHiddenTests
}

export type CodeRunPanelProps = {
  language: CodeLanguage
  starterCode: string
  /** The visible example tests, which 「実行」 runs in the browser. */
  tests: readonly CodeTest[]
  timeLimitMs: number
  /**
   * 「提出」: the caller sends the program to the server, which runs every test (hidden ones
   * too) and answers the verdict shown here. Throwing shows nothing (the caller says why);
   * without it there is no 「提出」 button.
   */
  onSubmit?: (code: string) => Promise<CodeSubmitVerdict>
  /** The program to start from, when not the starter code (a learner's last attempt). */
  initialCode?: string
  onCodeChange?: (code: string) => void
  label?: string
}

const LANGUAGE_NAMES: Record<CodeLanguage, string> = {
  javascript: 'JavaScript',
  python: 'Python',
}

type Ran = { kind: 'tests'; outcomes: TestOutcome[] } | { kind: 'program'; result: CodeRunResult }

const buttonClass =
  'rounded-md px-4 py-2 text-sm font-semibold disabled:cursor-not-allowed disabled:opacity-60'
const preClass =
  'mt-1 max-h-64 overflow-auto whitespace-pre-wrap break-words rounded bg-slate-100 p-2 font-mono text-xs text-slate-900 dark:bg-slate-900 dark:text-slate-100'

/**
 * A code question for the learner: the program in a code editor, 「実行」 to
 * run the visible tests in this browser (app/lib/code-runner: Workers, no server round trip)
 * with each test's expected and actual output, 「提出」 for the server's verdict. Shows the time
 * limit, the Japanese timeout message, an error's line (highlighted in the editor) and
 * Pyodide's download on the first Python run.
 */
export function CodeRunPanel(props: CodeRunPanelProps) {
  const { language, starterCode, tests, timeLimitMs, onSubmit } = props
  const [code, setCode] = useState(props.initialCode ?? starterCode)
  const [busy, setBusy] = useState<'run' | 'submit'>()
  const [ran, setRan] = useState<Ran>()
  const [verdict, setVerdict] = useState<CodeSubmitVerdict>()
  const [loading, setLoading] = useState<LoadProgress>()

  useEffect(
    () =>
      onRunnerProgress((progress) => {
        if (progress.language === language) setLoading(progress)
      }),
    [language],
  )

  const change = (next: string) => {
    setCode(next)
    props.onCodeChange?.(next)
  }

  async function run() {
    if (busy) return
    setBusy('run')
    setVerdict(undefined)
    try {
      const runner = await loadBrowserRunner()
      const request = { language, code, timeLimitMs }
      if (tests.length === 0) {
        setRan({ kind: 'program', result: await runner.run({ ...request, stdin: '' }) })
      } else {
        setRan({ kind: 'tests', outcomes: await runTests(runner.run, request, tests) })
      }
    } catch {
      setRan({
        kind: 'program',
        result: {
          outcome: 'unavailable',
          reason: '実行の準備に失敗しました',
          stdout: '',
          stderr: '',
          durationMs: 0,
        },
      })
    } finally {
      setBusy(undefined)
    }
  }

  async function submit() {
    if (busy || !onSubmit) return
    setBusy('submit')
    try {
      setVerdict(await onSubmit(code))
    } catch {
      setVerdict(undefined)
    } finally {
      setBusy(undefined)
    }
  }

  const runs =
    ran?.kind === 'tests' ? ran.outcomes.map((outcome) => outcome.run) : ran ? [ran.result] : []
  const errorLine = runs.find((result) => result.outcome === 'error')
  const summary = statusText(busy, loading, ran, verdict)

  return (
    // Not a landmark: a set has several code questions whose panels read alike (language,
    // time limit, examples), and each already sits in its question's own region.
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-700 dark:text-slate-300">
        <span className="font-semibold">{LANGUAGE_NAMES[language]}</span>
        {' ・ '}制限時間 {formatSeconds(timeLimitMs)} 秒{' ・ '}例 {tests.length} 件
      </p>
      <CodeEditor
        label={props.label ?? 'あなたのコード'}
        language={language}
        value={code}
        onChange={change}
        errorLine={errorLine?.outcome === 'error' ? errorLine.error.line : undefined}
        onRunShortcut={() => void run()}
      />
      <div className="flex flex-wrap gap-2">
        <button
          type="button"
          onClick={() => void run()}
          disabled={busy !== undefined}
          className={`${buttonClass} border border-brand-600 text-brand-700 hover:bg-brand-50 dark:text-brand-100 dark:hover:bg-slate-800`}
        >
          {busy === 'run' ? '実行中…' : '実行'}
        </button>
        {onSubmit && (
          <button
            type="button"
            onClick={() => void submit()}
            disabled={busy !== undefined}
            className={`${buttonClass} bg-brand-600 text-white hover:bg-brand-700`}
          >
            {busy === 'submit' ? '採点中…' : '提出'}
          </button>
        )}
        <button
          type="button"
          onClick={() => change(starterCode)}
          disabled={busy !== undefined || code === starterCode}
          className={`${buttonClass} text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800`}
        >
          最初のコードに戻す
        </button>
      </div>
      <div role="status" aria-live="polite" className="flex flex-col gap-1 text-sm">
        {summary && <p>{summary}</p>}
        {busy === 'run' && loading?.phase === 'loading' && loading.total ? (
          <progress
            max={loading.total}
            value={loading.loaded ?? 0}
            aria-label={`${LANGUAGE_NAMES[language]} の準備`}
            className="h-2 w-full max-w-sm"
          />
        ) : null}
      </div>
      {ran && !busy && <RunResults ran={ran} tests={tests} timeLimitMs={timeLimitMs} />}
      {verdict && !busy && <Verdict verdict={verdict} />}
    </div>
  )
}

function formatSeconds(ms: number): string {
  return String(Number((ms / 1000).toFixed(1)))
}

function statusText(
  busy: 'run' | 'submit' | undefined,
  loading: LoadProgress | undefined,
  ran: Ran | undefined,
  verdict: CodeSubmitVerdict | undefined,
): string | undefined {
  if (busy === 'submit') return 'サーバーで全てのテストを実行しています…'
  if (busy === 'run') {
    if (loading?.phase === 'loading') {
      const percent =
        loading.total && loading.loaded !== undefined
          ? `（${Math.floor((loading.loaded / loading.total) * 100)}%）`
          : ''
      return `Python を読み込んでいます${percent}… 初回のみ数秒かかります。`
    }
    if (loading?.phase === 'starting') return 'Python を起動しています…'
    return '実行しています…'
  }
  if (verdict) return verdict.message
  if (ran?.kind === 'tests') {
    const passed = ran.outcomes.filter((outcome) => outcome.passed).length
    return `例 ${ran.outcomes.length} 件中 ${passed} 件が合格しました。`
  }
  if (ran)
    return ran.result.outcome === 'completed' ? '実行が終わりました。' : '実行が止まりました。'
  return undefined
}

function RunResults(props: { ran: Ran; tests: readonly CodeTest[]; timeLimitMs: number }) {
  const { ran, tests, timeLimitMs } = props
  if (ran.kind === 'program') {
    return (
      <div className="rounded-md border border-slate-200 p-3 text-sm dark:border-slate-700">
        <RunOutput result={ran.result} timeLimitMs={timeLimitMs} />
      </div>
    )
  }
  return (
    <ol aria-label="例の実行結果" className="flex flex-col gap-2 text-sm">
      {ran.outcomes.map(withPosition).map(({ outcome, position }) => {
        const test = tests[position - 1]
        return (
          <li
            key={position}
            data-test-passed={outcome.passed}
            className="rounded-md border border-slate-200 p-3 dark:border-slate-700"
          >
            <p className="font-semibold">
              <span
                className={
                  outcome.passed
                    ? 'text-green-800 dark:text-green-300'
                    : 'text-red-700 dark:text-red-300'
                }
              >
                {outcome.passed ? '✓ 合格' : '✗ 不合格'}
              </span>
              ：{outcome.name}
            </p>
            {test && test.stdin !== '' && (
              <Labelled label="入力">
                <pre className={preClass}>{test.stdin}</pre>
              </Labelled>
            )}
            {test && !outcome.passed && (
              <Labelled label="期待される出力">
                <pre className={preClass}>{test.expectedOutput}</pre>
              </Labelled>
            )}
            <RunOutput result={outcome.run} timeLimitMs={timeLimitMs} />
          </li>
        )
      })}
    </ol>
  )
}

/** Outcomes come one per test, in the tests' order: the position is the identity. */
function withPosition(outcome: TestOutcome, index: number) {
  return { outcome, position: index + 1 }
}

function RunOutput({ result, timeLimitMs }: { result: CodeRunResult; timeLimitMs: number }) {
  const problem = runProblemMessage(result, timeLimitMs)
  return (
    <>
      <Labelled label="あなたの出力">
        <pre className={preClass}>{result.stdout === '' ? '（出力なし）' : result.stdout}</pre>
      </Labelled>
      {result.stderr !== '' && (
        <Labelled label="エラー出力">
          <pre className={`${preClass} text-red-900 dark:text-red-200`}>{result.stderr}</pre>
        </Labelled>
      )}
      {problem && (
        <p className="mt-1 whitespace-pre-wrap text-red-700 dark:text-red-300">{problem}</p>
      )}
    </>
  )
}

function Labelled({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="mt-1">
      <p className="text-xs font-semibold text-slate-600 dark:text-slate-400">{label}</p>
      {children}
    </div>
  )
}

function Verdict({ verdict }: { verdict: CodeSubmitVerdict }) {
  return (
    <div
      data-verdict={verdict.verdict}
      className={`rounded-md border p-3 text-sm ${
        verdict.verdict === 'correct'
          ? 'border-green-600 bg-green-50 dark:bg-green-950'
          : 'border-red-600 bg-red-50 dark:bg-red-950'
      }`}
    >
      <p className="font-semibold">
        {verdict.verdict === 'correct' ? '正解です！' : '不正解です'}：{verdict.message}
      </p>
      <ul aria-label="提出の採点結果" className="mt-2 flex flex-col gap-2">
        {verdict.tests.map((test) => (
          <li key={test.name} data-test-passed={test.passed}>
            <p>
              {test.passed ? '✓ 合格' : test.outcome === 'skipped' ? '− 未実行' : '✗ 不合格'}：
              {test.name}
            </p>
            {test.message && <p className="text-red-700 dark:text-red-300">{test.message}</p>}
            {test.error && (
              <p className="whitespace-pre-wrap text-red-700 dark:text-red-300">
                {runErrorMessage(test.error)}
              </p>
            )}
            {test.stdout ? <pre className={preClass}>{test.stdout}</pre> : null}
          </li>
        ))}
        {verdict.hiddenTests.total > 0 && <HiddenTests hidden={verdict.hiddenTests} />}
      </ul>
    </div>
  )
}

/** The hidden tests as one line: how many passed, or why that is not known. */
function HiddenTests({ hidden }: { hidden: SubmittedHiddenTests }) {
  return (
    <li data-hidden-tests-passed={hidden.allPassed}>
      <p>
        {hidden.allPassed ? '✓ 合格' : '✗ 不合格'}：非公開テスト{' '}
        {hidden.passed === null
          ? `${hidden.total} 件`
          : hidden.allPassed
            ? `${hidden.total} 件すべてに合格しました`
            : `${hidden.total} 件中 ${hidden.passed} 件に合格しました`}
      </p>
      {hidden.message && <p className="text-red-700 dark:text-red-300">{hidden.message}</p>}
    </li>
  )
}
