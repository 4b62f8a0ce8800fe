import { useCallback, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import type { StudyDraft } from '../../../features/studies/study-view.server.ts'
import { ApiRequestError } from '../../lib/api-client.ts'
import { moveToCreatedDraft } from '../../lib/editor-address.ts'
import { useAutosave } from '../../lib/use-autosave.ts'
import { useLeaveGuard } from '../../lib/use-leave-guard.ts'
import { ConflictBanner } from '../conflict-banner.tsx'
import { Field, inputClass, tagsFromText } from '../courses/course-editor.tsx'
import { messageOf } from '../courses/lesson-editor.tsx'
import { SaveStatus } from '../courses/save-status.tsx'
import { MarkdownEditor } from '../markdown-editor.tsx'
import type { StudyApi } from './study-api.ts'

type StudyFields = Pick<StudyDraft, 'title' | 'summary' | 'notes'> & {
  /** As typed: tags separated by commas. */
  tagsText: string
}

function fieldsOf(draft: StudyDraft | null): StudyFields {
  return {
    title: draft?.title ?? '',
    summary: draft?.summary ?? '',
    notes: draft?.notes ?? '',
    tagsText: draft?.tags.join(', ') ?? '',
  }
}

function payloadOf({ tagsText, ...rest }: StudyFields) {
  return { ...rest, tags: tagsFromText(tagsText) }
}

/**
 * The study editor: title, summary, tags and Markdown notes autosave a moment after typing
 * stops (the first save creates the draft) and before leaving; each save names the revision it
 * was based on, so another tab's save is refused with a clear message instead of overwritten.
 */
export function StudyEditor(props: {
  initial: StudyDraft | null
  username: string
  api: StudyApi
}) {
  const { api, username } = props
  const navigate = useNavigate()
  const [draft, setDraft] = useState(props.initial)
  const [fields, setFields] = useState(() => fieldsOf(props.initial))
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [conflict, setConflict] = useState(false)
  const revision = useRef(props.initial?.revision ?? 0)
  // Set the moment the first save has created the draft: a save queued behind that one must
  // update it, not create another, even before React has re-rendered with the draft.
  const draftId = useRef(props.initial?.id)

  const report = useCallback((error: unknown) => {
    if (error instanceof ApiRequestError && error.code === 'STALE_REVISION') setConflict(true)
    setFieldErrors(error instanceof ApiRequestError ? (error.fields ?? {}) : {})
    setProblem(messageOf(error))
  }, [])

  const autosave = useAutosave<StudyFields>(async (value) => {
    try {
      if (!draftId.current) {
        const created = await api.create(payloadOf(value))
        draftId.current = created.id
        revision.current = created.revision
        setDraft(await api.draft(created.id))
        // The draft exists now: continue editing it at its own address.
        moveToCreatedDraft(navigate, `/${username}/studies/${created.id}/edit`)
      } else {
        const saved = await api.update(draftId.current, {
          ...payloadOf(value),
          revision: revision.current,
        })
        revision.current = saved.revision
      }
      setFieldErrors({})
      setProblem(undefined)
    } catch (error) {
      report(error)
      throw error
    }
  })
  useLeaveGuard({ unsaved: autosave.unsaved, flush: autosave.flush })

  function update(changed: Partial<StudyFields>) {
    const next = { ...fields, ...changed }
    setFields(next)
    if (next.title.trim() !== '' || draft) autosave.change(next)
  }

  /** Publish or unpublish, after the last change is saved; then show the study as it is now. */
  async function setPublished(publish: boolean) {
    if (!draft) return
    await autosave.flush()
    try {
      await (publish ? api.publish : api.unpublish)(draft.id, revision.current)
      const fresh = await api.draft(draft.id)
      revision.current = fresh.revision
      setDraft(fresh)
      setProblem(undefined)
    } catch (error) {
      report(error)
    }
  }

  async function remove() {
    if (!draft || !window.confirm('このスタディを削除しますか？元に戻せません。')) return
    try {
      await api.remove(draft.id)
      navigate('/drafts', { replace: true })
    } catch (error) {
      report(error)
    }
  }

  const errorOf = (field: string) => fieldErrors[field]?.join(' ')

  return (
    <div className="flex flex-col gap-6">
      {conflict && <ConflictBanner what="このスタディ" />}
      <div className="flex justify-end">
        <SaveStatus state={autosave.state} problem={problem} />
      </div>
      <Field label="タイトル" error={errorOf('title')}>
        {(control) => (
          <input
            name="title"
            value={fields.title}
            maxLength={100}
            required
            {...control}
            placeholder="例：SQL の結合をまとめる"
            onChange={(event) => update({ title: event.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field label="概要" error={errorOf('summary')}>
        {(control) => (
          <textarea
            name="summary"
            value={fields.summary}
            maxLength={500}
            rows={2}
            {...control}
            onChange={(event) => update({ summary: event.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <Field
        label="タグ（カンマ区切り、10 個まで）"
        error={Object.entries(fieldErrors)
          .filter(([field]) => field.startsWith('tags'))
          .flatMap(([, messages]) => messages)
          .join(' ')}
      >
        {(control) => (
          <input
            name="tags"
            value={fields.tagsText}
            {...control}
            placeholder="例：sql, データベース"
            onChange={(event) => update({ tagsText: event.target.value })}
            className={inputClass}
          />
        )}
      </Field>
      <MarkdownEditor
        label="ノート（Markdown）"
        name="notes"
        value={fields.notes}
        error={errorOf('notes')}
        onChange={(notes) => update({ notes })}
      />
      {!draft && (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          タイトルを入力すると下書きとして自動保存されます。
        </p>
      )}
      {draft && (
        <section
          aria-labelledby="publish-heading"
          className="flex flex-col gap-3 border-t border-slate-200 pt-6 dark:border-slate-800"
        >
          <h2 id="publish-heading" className="text-lg font-bold">
            公開
          </h2>
          <p className="text-sm" data-study-status={draft.status}>
            {draft.status === 'published'
              ? 'このスタディは公開中です。'
              : 'このスタディは下書きです。あなただけが見られます。'}
          </p>
          <div className="flex flex-wrap gap-3">
            {draft.status === 'draft' ? (
              <button
                type="button"
                onClick={() => void setPublished(true)}
                className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
              >
                公開する
              </button>
            ) : (
              <button
                type="button"
                onClick={() => void setPublished(false)}
                className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
              >
                非公開（下書き）に戻す
              </button>
            )}
            <Link
              to={`/${username}/studies/${draft.id}`}
              className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
            >
              スタディを見る
            </Link>
            <button
              type="button"
              onClick={() => void remove()}
              className="rounded-md border border-red-300 px-4 py-2 text-red-700 hover:bg-red-50 dark:border-red-700 dark:text-red-400 dark:hover:bg-red-950"
            >
              削除する
            </button>
          </div>
        </section>
      )}
    </div>
  )
}
