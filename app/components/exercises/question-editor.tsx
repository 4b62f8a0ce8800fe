import { useCallback, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { ConflictBanner } from '#app/components/conflict-banner.tsx'
import { messageOf } from '#app/components/courses/lesson-editor.tsx'
import { SaveStatus } from '#app/components/courses/save-status.tsx'
import { LocalCopyNotice } from '#app/components/local-copy-notice.tsx'
import { ApiRequestError } from '#app/lib/api/client.ts'
import type { ExerciseApi } from '#app/lib/api/exercises.ts'
import { moveToCreatedDraft } from '#app/lib/editor-address.ts'
import { useLocalCopy } from '#app/lib/local-copy.ts'
import { useAutosave } from '#app/lib/use-autosave.ts'
import { useLeaveGuard } from '#app/lib/use-leave-guard.ts'
import { questionFields } from '#features/exercises/question-input.ts'
import type { AuthorQuestion } from './learner-types.ts'
import { QuestionFieldsEditor } from './question-fields-editor.tsx'
import { formStateOf, payloadOf, type QuestionFormState } from './question-form-state.ts'

/**
 * One question's editor: autosaved a moment after typing stops, like the other editors. On
 * `…/exercises/create` the first save (once the prompt has text) creates the question and the
 * editor moves to its own address; each later save names the revision it was based on, so a
 * save from another tab is refused and shown, not overwritten.
 */
export function QuestionEditor(props: {
  studyId: string
  /** `/{user}/studies/{id}/exercises`: the list is at `…/edit`, a question at `…/{qid}/edit`. */
  exercisesPath: string
  question: AuthorQuestion | null
  api: ExerciseApi
}) {
  const { api, studyId } = props
  const navigate = useNavigate()
  const [state, setState] = useState(() => formStateOf(props.question))
  const latest = useRef(state)
  const questionId = useRef(props.question?.id)
  const revision = useRef(props.question?.revision ?? 0)
  const [created, setCreated] = useState(props.question !== null)
  const [confirm, confirmDialog] = useConfirm()
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [conflict, setConflict] = useState(false)

  const report = useCallback((error: unknown) => {
    if (error instanceof ApiRequestError && error.code === 'STALE_REVISION') setConflict(true)
    setFieldErrors(error instanceof ApiRequestError ? (error.fields ?? {}) : {})
    setProblem(messageOf(error))
  }, [])

  const autosave = useAutosave<QuestionFormState>(async (value) => {
    try {
      if (!questionId.current) {
        const made = await api.create(studyId, payloadOf(value))
        questionId.current = made.id
        localCopy.created(made.id)
        revision.current = made.revision
        setCreated(true)
        moveToCreatedDraft(navigate, `${props.exercisesPath}/${made.id}/edit`)
      } else {
        const saved = await api.update(questionId.current, {
          ...payloadOf(value),
          revision: revision.current,
        })
        revision.current = saved.revision
      }
      localCopy.saved(value)
      setFieldErrors({})
      setProblem(undefined)
    } catch (error) {
      report(error)
      throw error
    }
  })
  const leaveDialog = useLeaveGuard({ unsaved: autosave.unsaved, flush: autosave.flush })

  const localCopy = useLocalCopy<QuestionFormState>({
    kind: 'question',
    id: props.question?.id,
    scope: studyId,
    server: formStateOf(props.question),
    revision: props.question?.revision,
    restore: (value) => update(value),
  })

  function update(change: Partial<QuestionFormState>) {
    const next = { ...latest.current, ...change }
    latest.current = next
    setState(next)
    localCopy.remember(next, revision.current)
    // A new question is created once it is complete (the server refuses a half-written one, and
    // an error per keystroke helps nobody); after that every change saves, and the server's
    // field errors show what is missing.
    if (questionId.current || questionFields.safeParse(payloadOf(next)).success) {
      autosave.change(next)
    }
  }

  async function remove() {
    const id = questionId.current
    if (!id) return
    const ok = await confirm({
      title: 'この問題を削除しますか？',
      body: '削除すると元に戻せません。',
      confirmLabel: '削除する',
    })
    if (!ok) return
    try {
      await autosave.flush()
      await api.remove(id)
      navigate(`${props.exercisesPath}/edit`, { replace: true })
    } catch (error) {
      report(error)
    }
  }

  /** The messages of a field and of its items (`options`, `options.0.text`…). */
  const errorOf = (field: string) =>
    Object.entries(fieldErrors)
      .filter(([name]) => name === field || name.startsWith(`${field}.`))
      .flatMap(([, messages]) => messages)
      .join(' ') || undefined

  return (
    <div className="flex flex-col gap-6">
      <LocalCopyNotice copy={localCopy} />
      {confirmDialog}
      {leaveDialog}
      {conflict && (
        <ConflictBanner
          what="この問題"
          typed={[
            { label: '問題文', text: state.prompt },
            { label: '解説', text: state.explanation },
            { label: '模範解答', text: state.kind === 'code' ? state.referenceSolution : '' },
          ]}
        />
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <Link
          to={`${props.exercisesPath}/edit`}
          className="text-sm text-brand-700 underline dark:text-brand-100"
        >
          問題の一覧へ戻る
        </Link>
        <SaveStatus state={autosave.state} problem={problem} unsaved={!created} />
      </div>
      <QuestionFieldsEditor state={state} errorOf={errorOf} onChange={update} />
      {!created ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          問題文と答え（選択肢と正解、正解の文字列、コードの模範解答とテスト）がそろうと自動で保存されます。
        </p>
      ) : (
        <div className="flex flex-wrap gap-3 border-t border-slate-200 pt-6 dark:border-slate-800">
          <Link
            to={`${props.exercisesPath}/create`}
            className="rounded-md bg-slate-800 px-4 py-2 text-sm font-semibold text-white hover:bg-slate-700 dark:bg-slate-200 dark:text-slate-900"
          >
            次の問題を追加
          </Link>
          <button
            type="button"
            onClick={() => void remove()}
            className="rounded-md border border-red-300 px-4 py-2 text-sm text-red-700 hover:bg-red-50 dark:border-red-700 dark:text-red-400 dark:hover:bg-red-950"
          >
            この問題を削除する
          </button>
        </div>
      )}
    </div>
  )
}
