import { useState } from 'react'
import { CodeField } from './code-field.tsx'
import { LANGUAGE_LABELS } from './labels.ts'
import type { LearnerContent, TestReport } from './learner-types.ts'
import type { SubmitAnswer } from './question-answer.tsx'

type CodeContent = Extract<LearnerContent, { kind: 'code' }>

/**
 * A code question: the learner's program, the visible examples, and 「提出」, which the server
 * runs against every test (hidden ones too) in its sandbox; the verdict shown is the server's.
 */
export function CodeAnswer(props: { content: CodeContent; submit: SubmitAnswer }) {
  const { content } = props
  const [code, setCode] = useState(content.starterCode)
  const [reports, setReports] = useState<TestReport[] | undefined>()
  const [sending, setSending] = useState(false)

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
      <div>
        <button
          type="button"
          onClick={() => void submit()}
          disabled={sending}
          className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
        >
          {sending ? '採点中…' : '提出'}
        </button>
      </div>
      {reports && <TestReports reports={reports} />}
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
