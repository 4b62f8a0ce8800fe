import { useEffect, useState } from 'react'
import type { LoadProgress } from '#app/lib/code-runner/browser-runner.ts'
import { loadCodeRunner, onRunnerProgress } from '#app/lib/exercises/code-runner-loader.ts'
import { runTests, type TestOutcome } from '#features/exercises/code-run.ts'
import { CodeField } from './code-field.tsx'
import { LANGUAGE_LABELS } from './labels.ts'
import type { LearnerContent, TestReport } from './learner-types.ts'
import type { SubmitAnswer } from './question-answer.tsx'
import { RunOutcomeDetails } from './run-outcome.tsx'

type CodeContent = Extract<LearnerContent, { kind: 'code' }>

/**
 * A code question: the learner's program; 「実行」 runs the visible examples in this browser
 * (a Worker, stopped at the time limit), and 「提出」 sends the code to the server, which runs
 * every test (hidden ones too) in its sandbox: the verdict shown is the server's.
 */
export function CodeAnswer(props: { content: CodeContent; submit: SubmitAnswer }) {
  const { content } = props
  const [code, setCode] = useState(content.starterCode)
  const [reports, setReports] = useState<TestReport[] | undefined>()
  const [sending, setSending] = useState(false)
  const [runs, setRuns] = useState<TestOutcome[] | undefined>()
  const [running, setRunning] = useState(false)
  const [loading, setLoading] = useState<LoadProgress | undefined>()
  const [runProblem, setRunProblem] = useState<string | undefined>()

  useEffect(
    () =>
      onRunnerProgress((progress) => {
        if (progress.language === content.language) setLoading(progress)
      }),
    [content.language],
  )

  async function run() {
    setRunning(true)
    setRunProblem(undefined)
    try {
      const runner = await loadCodeRunner()
      setRuns(
        await runTests(
          runner,
          { language: content.language, code, timeLimitMs: content.timeLimitMs },
          content.visibleTests,
        ),
      )
    } catch {
      setRunProblem('実行環境を読み込めませんでした。通信環境を確認してください。')
    } finally {
      setRunning(false)
    }
  }

  async function submit() {
    setSending(true)
    try {
      const result = await props.submit({ kind: 'code', code })
      setReports(result.feedback.kind === 'code' ? result.feedback.tests : undefined)
    } catch {
      // The question shows why.
    } finally {
      setSending(false)
    }
  }

  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600 dark:text-slate-400">
        {LANGUAGE_LABELS[content.language]} ・ 制限時間 {content.timeLimitMs / 1000} 秒 ・ 例{' '}
        {content.visibleTests.length} 件
        {content.hiddenTestCount > 0 && `、提出時のみの非公開テスト ${content.hiddenTestCount} 件`}
      </p>
      <CodeField
        label="あなたのコード"
        language={content.language}
        value={code}
        rows={10}
        onChange={setCode}
      />
      <div className="flex flex-wrap gap-3">
        <button
          type="button"
          onClick={() => void run()}
          disabled={running}
          className="rounded-md border border-slate-400 px-4 py-2 font-semibold hover:bg-slate-100 disabled:opacity-50 dark:border-slate-500 dark:hover:bg-slate-800"
        >
          {running ? '実行中…' : '実行'}
        </button>
        <button
          type="button"
          onClick={() => void submit()}
          disabled={sending}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
        >
          {sending ? '採点中…' : '提出'}
        </button>
      </div>
      <div aria-live="polite" className="flex flex-col gap-2 text-sm">
        {running && loading && loading.phase !== 'ready' && <LoadingLine progress={loading} />}
        {runProblem && <p className="text-red-700 dark:text-red-400">{runProblem}</p>}
        {runs && !running && (
          <section aria-label="実行結果（例のテスト）" data-run-results>
            <h3 className="text-sm font-semibold">実行結果（例のテスト）</h3>
            <RunOutcomeDetails outcomes={runs} timeLimitMs={content.timeLimitMs} />
          </section>
        )}
        {reports && (
          <section aria-label="提出の結果" data-submit-results>
            <h3 className="text-sm font-semibold">提出の結果（サーバーで採点）</h3>
            <TestReports reports={reports} />
          </section>
        )}
      </div>
    </div>
  )
}

/** The server's report of each test: visible ones with their output, hidden ones by verdict only. */
export function TestReports({ reports }: { reports: readonly TestReport[] }) {
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {reports.map((report) => (
        <li
          key={report.name}
          data-test-passed={report.passed}
          className="rounded-md border border-slate-200 p-2 dark:border-slate-700"
        >
          <p className="font-semibold">
            {report.passed ? '✓ 合格' : report.outcome === 'skipped' ? '− 未実行' : '✗ 不合格'}:{' '}
            {report.hidden ? `非公開テスト（${report.name}）` : report.name}
          </p>
          {report.message && <p className="text-red-700 dark:text-red-400">{report.message}</p>}
          {report.error && (
            <p className="text-red-700 dark:text-red-400">
              {report.error.line === undefined
                ? `エラー: ${report.error.message}`
                : `${report.error.line} 行目でエラー: ${report.error.message}`}
            </p>
          )}
          {report.stdout && (
            <pre className="mt-1 overflow-x-auto rounded bg-slate-100 p-2 text-xs dark:bg-slate-900">
              {report.stdout}
            </pre>
          )}
          {report.stderr && (
            <pre className="mt-1 overflow-x-auto rounded bg-red-50 p-2 text-xs text-red-900 dark:bg-red-950 dark:text-red-100">
              {report.stderr}
            </pre>
          )}
        </li>
      ))}
    </ul>
  )
}

/** Pyodide's download, which takes a moment the first time. */
function LoadingLine({ progress }: { progress: LoadProgress }) {
  const megabytes = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
  if (progress.phase === 'failed') {
    return <p className="text-red-700 dark:text-red-400">実行環境を読み込めませんでした。</p>
  }
  return (
    <p className="flex items-center gap-2">
      {progress.total ? (
        <progress
          value={progress.loaded ?? 0}
          max={progress.total}
          aria-label="実行環境の読み込み"
        />
      ) : null}
      {progress.language === 'python' ? 'Python' : 'JavaScript'} の実行環境を準備しています…
      {progress.total
        ? `（${megabytes(progress.loaded ?? 0)} / ${megabytes(progress.total)} MB）`
        : ''}
    </p>
  )
}
