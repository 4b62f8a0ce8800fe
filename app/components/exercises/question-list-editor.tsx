import { useState } from 'react'
import { Link, useRevalidator } from 'react-router'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { messageOf } from '#app/components/courses/lesson-editor.tsx'
import type { DraftApi } from '#app/lib/api/drafts.ts'
import type { ExerciseApi } from '#app/lib/api/exercises.ts'
import { plainExcerpt } from '#features/markdown/excerpt.ts'
import { smallButton } from './editor-buttons.tsx'
import type { AuthorQuestion } from './learner-types.ts'
import { KIND_LABELS, LANGUAGE_LABELS, moved } from './question-form-state.ts'

type StudyState = { id: string; title: string; status: 'draft' | 'published'; revision: number }

/** The prompt's first line, without Markdown's marks, for the list. */

/**
 * A study's questions in order: open one to edit, move it up or down (labelled buttons), delete
 * it, add another; and the study's publication, which the server refuses while a code
 * question's reference solution fails its tests (the message names the question).
 */
export function QuestionListEditor(props: {
  study: StudyState
  exercisesPath: string
  questions: AuthorQuestion[]
  api: ExerciseApi
  studies: Pick<DraftApi<never, never>, 'publish' | 'unpublish'>
}) {
  const { study, questions, api, exercisesPath } = props
  const revalidator = useRevalidator()
  const [problem, setProblem] = useState<string | undefined>()
  const [busy, setBusy] = useState(false)
  const [confirm, confirmDialog] = useConfirm()

  async function change(write: () => Promise<unknown>) {
    setBusy(true)
    setProblem(undefined)
    try {
      await write()
      await revalidator.revalidate()
    } catch (error) {
      setProblem(messageOf(error))
    } finally {
      setBusy(false)
    }
  }

  const reorder = (index: number, by: -1 | 1) =>
    change(() =>
      api.reorder(
        study.id,
        moved(questions, index, by).map((question) => question.id),
      ),
    )

  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {questions.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
          まだ問題がありません。「問題を追加」から最初の問題を作りましょう。
        </p>
      ) : (
        <ol className="flex flex-col gap-3" aria-label="問題の一覧">
          {questions.map((question, index) => {
            const name = `問題 ${index + 1}`
            const { content } = question
            return (
              <li
                key={question.id}
                data-question-id={question.id}
                className="flex flex-wrap items-center gap-2 rounded-lg border border-slate-200 p-3 dark:border-slate-800"
              >
                <div className="min-w-0 flex-1">
                  <p className="text-sm text-slate-600 dark:text-slate-400">
                    {name} ・ {KIND_LABELS[content.kind]}
                    {content.kind === 'code' && `（${LANGUAGE_LABELS[content.language]}）`}
                    {question.access === 'premium' && ' ・ プレミアム'}
                  </p>
                  <p className="truncate font-semibold">{plainExcerpt(question.prompt, 60)}</p>
                </div>
                <Link
                  to={`${exercisesPath}/${question.id}/edit`}
                  className={smallButton}
                  aria-label={`${name}を編集`}
                >
                  編集
                </Link>
                <button
                  type="button"
                  className={smallButton}
                  disabled={busy || index === 0}
                  aria-label={`${name}を上へ`}
                  onClick={() => void reorder(index, -1)}
                >
                  <span aria-hidden="true">↑</span>
                </button>
                <button
                  type="button"
                  className={smallButton}
                  disabled={busy || index === questions.length - 1}
                  aria-label={`${name}を下へ`}
                  onClick={() => void reorder(index, 1)}
                >
                  <span aria-hidden="true">↓</span>
                </button>
                <button
                  type="button"
                  className={smallButton}
                  disabled={busy}
                  aria-label={`${name}を削除`}
                  onClick={async () => {
                    const ok = await confirm({
                      title: `${name}を削除しますか？`,
                      body: '削除すると元に戻せません。',
                      confirmLabel: '削除する',
                    })
                    if (ok) void change(() => api.remove(question.id))
                  }}
                >
                  削除
                </button>
              </li>
            )
          })}
        </ol>
      )}
      <div>
        <Link
          to={`${exercisesPath}/create`}
          className="inline-block rounded-md bg-slate-800 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 dark:bg-slate-200 dark:text-slate-900"
        >
          問題を追加
        </Link>
      </div>
      <section
        aria-labelledby="publish-heading"
        className="flex flex-col gap-3 border-t border-slate-200 pt-6 dark:border-slate-800"
      >
        <h2 id="publish-heading" className="text-lg font-bold">
          公開
        </h2>
        <p className="text-sm" data-publication-status={study.status}>
          {study.status === 'published'
            ? 'このスタディと演習は公開中です。問題の変更は、スタディの編集画面で「更新する」を押すまで公開されません。'
            : 'このスタディと演習は下書きです。公開すると、コードの問題は模範解答がすべてのテストに合格するかをサーバーで確かめます。'}
        </p>
        {study.status === 'published' && (
          <Link
            to={exercisesPath.replace(/\/exercises$/, '/edit')}
            className="self-start text-sm text-brand-700 underline dark:text-brand-100"
          >
            スタディの編集画面で変更を更新する
          </Link>
        )}
        <div className="flex flex-wrap gap-3">
          {study.status === 'draft' ? (
            <button
              type="button"
              disabled={busy}
              onClick={() => void change(() => props.studies.publish(study.id, study.revision))}
              className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700 disabled:opacity-50"
            >
              {busy ? '確認しています…' : '公開する'}
            </button>
          ) : (
            <button
              type="button"
              disabled={busy}
              onClick={() => void change(() => props.studies.unpublish(study.id, study.revision))}
              className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              非公開（下書き）に戻す
            </button>
          )}
          <Link
            to={exercisesPath}
            className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            演習を見る
          </Link>
        </div>
      </section>
      <div aria-live="polite">
        {problem && (
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {problem}
          </p>
        )}
      </div>
    </div>
  )
}
