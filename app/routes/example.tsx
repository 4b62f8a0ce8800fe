import { Link } from 'react-router'
import { QuestionList } from '#app/components/exercises/question-list.tsx'
import { MarkdownView } from '#app/components/markdown-view.tsx'
import { exampleApi } from '#app/lib/api/example.ts'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { SAMPLE_LESSON } from '#features/example/sample-lesson.ts'
import { sampleExerciseSet } from '#features/exercises/sample-answers.server.ts'
import { renderMarkdown } from '#features/markdown/render.ts'
import type { Route } from './+types/example'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: `お試しレッスン: ${SAMPLE_LESSON.title}`,
    description: 'アカウントなしで読めるお試しレッスンです。JavaScript の変数を学びましょう。',
  })

// A fixed, trusted text: rendered once per process, on first view (decision 022).
let sampleHtml: string | undefined

export function loader() {
  sampleHtml ??= renderMarkdown(SAMPLE_LESSON.body)
  return { html: sampleHtml, questions: sampleExerciseSet() }
}

export default function Example({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const api = exampleApi(apiGatewayUrl)
  return (
    <article className="mx-auto max-w-3xl">
      <p className="text-sm font-semibold text-brand-600 dark:text-brand-100">
        お試しレッスン ・ {SAMPLE_LESSON.course}
      </p>
      <p className="mt-1 text-sm text-slate-500 dark:text-slate-400">{SAMPLE_LESSON.section}</p>
      <h1 className="mt-1 text-3xl font-bold leading-tight">{SAMPLE_LESSON.title}</h1>
      <MarkdownView html={loaderData.html} className="mt-8" />
      <section aria-labelledby="example-exercises-heading" className="mt-12">
        <h2 id="example-exercises-heading" className="text-2xl font-bold">
          お試し演習
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          アカウントがなくても答えられます。コードの問題は、このブラウザーの中で JavaScript と
          Python を実行して試せます。答えはサーバーが採点し、記録はされません。
        </p>
        <QuestionList questions={loaderData.questions} answer={api.answer} className="mt-6" />
      </section>
      <aside
        aria-labelledby="example-signup-heading"
        className="mt-12 rounded-2xl bg-brand-50 p-6 sm:p-8 dark:bg-slate-900"
      >
        <h2 id="example-signup-heading" className="text-xl font-bold">
          続きは無料プランで
        </h2>
        <p className="mt-2 text-slate-700 dark:text-slate-300">
          アカウントを作ると、解いた問題や学習の進み具合が記録され、続きのレッスンや演習に進めます。登録は無料です。
        </p>
        <div className="mt-5 flex flex-wrap gap-3">
          <Link
            to="/auth/signup"
            className="rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
          >
            無料で始める
          </Link>
          <Link
            to="/courses"
            className="rounded-md border border-slate-300 px-5 py-3 font-semibold hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800"
          >
            コース一覧を見る
          </Link>
        </div>
      </aside>
    </article>
  )
}
