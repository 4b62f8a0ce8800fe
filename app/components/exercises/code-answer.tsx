import { lazy, Suspense } from 'react'
import type { CodeSubmitVerdict } from './code-run-panel.tsx'
import type { LearnerContent } from './learner-types.ts'
import type { SubmitAnswer } from './question-answer.tsx'

type CodeContent = Extract<LearnerContent, { kind: 'code' }>

// Its own chunk, not part of the page's first load (a guest page's budget, decision 029): the
// server renders it in place, and the browser fetches it while hydrating.
const CodeRunPanel = lazy(() =>
  import('./code-run-panel.tsx').then((module) => ({ default: module.CodeRunPanel })),
)

/**
 * A code question: i16-runners' panel (「実行」 runs the visible examples in this browser) with
 * 「提出」 posting the program, which the server runs against every test (hidden ones too) in its
 * sandbox: the verdict shown is the server's.
 */
export function CodeAnswer(props: { content: CodeContent; submit: SubmitAnswer }) {
  const { content } = props
  return (
    <div className="flex flex-col gap-2">
      {content.hiddenTestCount > 0 && (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          提出すると、例のほかに非公開のテスト {content.hiddenTestCount} 件でも採点されます。
        </p>
      )}
      <Suspense
        fallback={
          <pre className="overflow-x-auto rounded-md bg-slate-100 p-3 font-mono text-sm dark:bg-slate-900">
            {content.starterCode}
          </pre>
        }
      >
        <CodeRunPanel
          language={content.language}
          starterCode={content.starterCode}
          tests={content.visibleTests}
          timeLimitMs={content.timeLimitMs}
          onSubmit={async (code): Promise<CodeSubmitVerdict> => {
            const result = await props.submit({ kind: 'code', code })
            if (result.feedback.kind !== 'code') throw new Error('not a code verdict')
            return {
              verdict: result.verdict,
              message: result.message,
              tests: result.feedback.tests,
              hiddenTests: result.feedback.hiddenTests,
            }
          }}
        />
      </Suspense>
    </div>
  )
}
