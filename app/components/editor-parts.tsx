import { type ReactNode, useCallback, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import { ApiRequestError } from '#app/lib/api/client.ts'
import type { DraftApi, EditedItem } from '#app/lib/api/drafts.ts'
import { moveToCreatedDraft } from '#app/lib/editor-address.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { type LocalCopyKind, useLocalCopy } from '#app/lib/local-copy.ts'
import { useAutosave } from '#app/lib/use-autosave.ts'
import { useLeaveGuard } from '#app/lib/use-leave-guard.ts'
import { contentPath, kindOfPath } from '#features/content-kinds.ts'
import { courseFields } from '#features/courses/course-input.ts'
import { ConflictBanner, type TypedField } from './conflict-banner.tsx'
import { Field, inputClass, tagsFromText } from './courses/course-editor.tsx'
import { messageOf } from './courses/lesson-editor.tsx'
import { SaveStatus } from './courses/save-status.tsx'
import { LocalCopyNotice } from './local-copy-notice.tsx'

/**
 * The shell every single-page editor (studies, labs, lab stories) shares: the fields autosave
 * a moment after typing stops (the first save creates the draft and moves to its edit
 * address) and before leaving; each save names the revision it was based on, so another tab's
 * save is refused with a clear message instead of overwritten; publish, unpublish and delete.
 */
export function useDraftEditor<
  D extends EditedItem,
  F extends TitleAndTags,
  P extends object,
>(options: {
  initial: D | null
  fields: F
  api: DraftApi<D, P>
  /** What the server receives for the fields besides the title and tags. */
  payloadOf(fields: F): P
  /** The form's fields of an item as the server gives it to the editor. */
  fieldsOf(draft: NoInfer<D>): F
  /** The author, and the kind's path segment (`studies`): the item is `/{username}/{collection}/{id}`. */
  username: string
  collection: string
  /**
   * The labels of the kind's own text fields (besides title and tags), in the form's order: what
   * the conflict banner shows and copies when another tab has saved first.
   */
  labels: { [K in keyof F]?: string }
}) {
  const { api, username, collection } = options
  const itemPath = (id: string) => contentPath(kindOfPath(collection), username, id)
  const payloadOf = (value: F) => ({
    ...options.payloadOf(value),
    title: value.title,
    tags: tagsFromText(value.tagsText),
  })
  const navigate = useNavigate()
  const [draft, setDraft] = useState(options.initial)
  const [fields, setFields] = useState(options.fields)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [conflict, setConflict] = useState(false)
  // Why publishing did not go ahead, shown in the publish panel.
  const [publishProblem, setPublishProblem] = useState<string | undefined>()
  // A published item's saves wait as its pending revision until 「更新する」.
  const [pending, setPending] = useState(options.initial?.pendingSince != null)
  const published = useRef(options.initial?.status === 'published')
  const revision = useRef(options.initial?.revision ?? 0)
  // Set the moment the first save has created the draft: a save queued behind that one must
  // update it, not create another, even before React has re-rendered with the draft.
  const draftId = useRef(options.initial?.id)

  const report = useCallback((error: unknown) => {
    if (error instanceof ApiRequestError && error.code === 'STALE_REVISION') setConflict(true)
    setFieldErrors(error instanceof ApiRequestError ? (error.fields ?? {}) : {})
    setProblem(messageOf(error))
  }, [])

  const autosave = useAutosave<F>(async (value) => {
    try {
      if (!draftId.current) {
        const created = await api.create(payloadOf(value))
        draftId.current = created.id
        localCopy.created(created.id)
        revision.current = created.revision
        setDraft(await api.draft(created.id))
        // The draft exists now: continue editing it at its own address.
        moveToCreatedDraft(navigate, `${itemPath(created.id)}/edit`)
      } else {
        const saved = await api.update(draftId.current, {
          ...payloadOf(value),
          revision: revision.current,
        })
        revision.current = saved.revision
        if (published.current) setPending(true)
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

  // The newest fields, for changes that arrive after a render (an upload finishing).
  const latest = useRef(fields)
  const localCopy = useLocalCopy<F>({
    kind: kindOfPath(collection) as LocalCopyKind,
    id: options.initial?.id,
    server: options.fields,
    revision: options.initial?.revision,
    restore: (value) => update(value),
  })

  /** Changes some fields; a function gets the newest fields (for callbacks that outlive a render). */
  function update(changed: Partial<F> | ((current: F) => Partial<F>)) {
    const next = {
      ...latest.current,
      ...(typeof changed === 'function' ? changed(latest.current) : changed),
    }
    latest.current = next
    setFields(next)
    localCopy.remember(next, revision.current)
    if (draft || next.title.trim() !== '') autosave.change(next)
  }

  /**
   * Publish or unpublish once what is on screen is saved; a save the server refused stops it,
   * since publishing then would publish an older version. Then show the item as it is now.
   */
  async function setPublished(publish: boolean) {
    if (!draft) return
    setPublishProblem(undefined)
    if (!(await autosave.settle())) {
      setPublishProblem(NOT_PUBLISHED_UNSAVED)
      return
    }
    try {
      await (publish ? api.publish : api.unpublish)(draft.id, revision.current)
      showFresh(await api.draft(draft.id))
      setProblem(undefined)
    } catch (error) {
      report(error)
    }
  }

  function showFresh(fresh: D) {
    revision.current = fresh.revision
    published.current = fresh.status === 'published'
    setPending(fresh.pendingSince !== null)
    setDraft(fresh)
  }

  /** 「更新する」: once what is on screen is saved, it becomes the published version. */
  async function publishRevision() {
    if (!draft) return
    setPublishProblem(undefined)
    if (!(await autosave.settle())) {
      setPublishProblem(NOT_UPDATED_UNSAVED)
      return
    }
    try {
      await api.publishRevision(draft.id, revision.current)
      showFresh(await api.draft(draft.id))
      setProblem(undefined)
    } catch (error) {
      report(error)
    }
  }

  /** 「変更を破棄」: the form goes back to the published version. */
  async function discardRevision() {
    if (!draft) return
    setPublishProblem(undefined)
    // A save still on its way would bring the edit back after the discard.
    await autosave.settle()
    try {
      await api.discardRevision(draft.id, revision.current)
      const fresh = await api.draft(draft.id)
      showFresh(fresh)
      const shown = options.fieldsOf(fresh)
      latest.current = shown
      setFields(shown)
      localCopy.clear()
      setFieldErrors({})
      setProblem(undefined)
    } catch (error) {
      report(error)
    }
  }

  /** Deletes the draft; the shell has asked first. */
  async function remove() {
    if (!draft) return
    try {
      await api.remove(draft.id)
      navigate('/drafts', { replace: true })
    } catch (error) {
      report(error)
    }
  }

  /** The messages of a field, or of a list field and its items (`tags`, `tags.0`…). */
  const errorOf = (field: string) =>
    Object.entries(fieldErrors)
      .filter(([name]) => name === field || name.startsWith(`${field}.`))
      .flatMap(([, messages]) => messages)
      .join(' ') || undefined

  /** Everything typed in this tab, as the conflict banner offers it for copying. */
  const typed: TypedField[] = [
    { label: 'タイトル', text: fields.title },
    { label: 'タグ', text: fields.tagsText },
    ...Object.entries(options.labels).map(([field, label]) => ({
      label: String(label),
      text: String(fields[field as keyof F] ?? ''),
    })),
  ]

  return {
    draft,
    localCopy,
    publishProblem,
    pending,
    publishRevision,
    discardRevision,
    itemPath,
    fields,
    typed,
    update,
    errorOf,
    autosave,
    problem,
    conflict,
    setPublished,
    remove,
    leaveDialog,
  }
}

/** Why publishing stopped when the form could not be saved as it is on screen. */
export const NOT_PUBLISHED_UNSAVED =
  '保存できていない変更があるため、公開していません。赤字で示した項目を直すと、画面のとおりに公開できます。'

/** Why 「更新する」 stopped when the form could not be saved as it is on screen. */
const NOT_UPDATED_UNSAVED =
  '保存できていない変更があるため、更新していません。赤字で示した項目を直すと、画面のとおりに更新できます。'

/** Every editor's title and tags (as typed: separated by commas). */
export type TitleAndTags = { title: string; tagsText: string }

export type DraftEditor<D extends EditedItem, F extends TitleAndTags> = ReturnType<
  typeof useDraftEditor<D, F, object>
>

/**
 * An editor's form: the conflict banner, the save status, the title and tags, the kind's own
 * fields, then the publish panel.
 */
export function DraftEditorShell<D extends EditedItem, F extends TitleAndTags>(props: {
  editor: DraftEditor<D, F>
  /** The item in messages: 「このスタディ」. */
  what: string
  viewLabel: string
  placeholders: { title: string; tags: string }
  children: ReactNode
}) {
  const { editor, what } = props
  const { draft, fields, update, errorOf } = editor
  const [confirm, confirmDialog] = useConfirm()
  return (
    <div className="flex flex-col gap-6">
      {confirmDialog}
      {editor.leaveDialog}
      {editor.conflict && <ConflictBanner what={what} typed={editor.typed} />}
      <LocalCopyNotice copy={editor.localCopy} />
      <div className="flex justify-end">
        <SaveStatus
          state={editor.autosave.state}
          problem={editor.problem}
          unsaved={draft === null}
        />
      </div>
      <TextField
        label="タイトル"
        name="title"
        value={fields.title}
        maxLength={fieldLimits(courseFields.shape.title).maxLength}
        required
        placeholder={props.placeholders.title}
        error={errorOf('title')}
        onChange={(title) => update({ title } as Partial<F>)}
      />
      <TextField
        label="タグ（カンマ区切り、10 個まで）"
        name="tags"
        value={fields.tagsText}
        placeholder={props.placeholders.tags}
        error={errorOf('tags')}
        onChange={(tagsText) => update({ tagsText } as Partial<F>)}
      />
      {props.children}
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
          <p className="text-sm" data-publication-status={draft.status}>
            {draft.status === 'draft'
              ? `${what}は下書きです。あなただけが見られます。`
              : editor.pending
                ? `${what}は公開中です。まだ公開していない変更があります。読者には「更新する」を押すまで、公開中の内容が表示されます。`
                : `${what}は公開中です。編集した内容は「更新する」を押すまで公開されません。`}
          </p>
          {editor.publishProblem && (
            <p role="alert" data-publish-problem className="text-sm text-red-700 dark:text-red-400">
              {editor.publishProblem} {editor.problem}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            {draft.status === 'draft' ? (
              <button
                type="button"
                onClick={() => void editor.setPublished(true)}
                className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
              >
                公開する
              </button>
            ) : (
              <>
                {editor.pending && (
                  <>
                    <button
                      type="button"
                      onClick={() => void editor.publishRevision()}
                      className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
                    >
                      更新する
                    </button>
                    <button
                      type="button"
                      onClick={() => void editor.discardRevision()}
                      className={secondaryButtonClass}
                    >
                      変更を破棄
                    </button>
                  </>
                )}
                <button
                  type="button"
                  onClick={() => void editor.setPublished(false)}
                  className={secondaryButtonClass}
                >
                  非公開（下書き）に戻す
                </button>
              </>
            )}
            <Link to={editor.itemPath(draft.id)} className={secondaryButtonClass}>
              {props.viewLabel}
            </Link>
            <button
              type="button"
              onClick={async () => {
                const ok = await confirm({
                  title: `${what}を削除しますか？`,
                  body: '削除すると元に戻せません。',
                  confirmLabel: '削除する',
                })
                if (ok) void editor.remove()
              }}
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

const secondaryButtonClass =
  'rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800'

/** A one-line text field of an editor. */
export function TextField(props: {
  label: string
  name: string
  value: string
  error: string | undefined
  maxLength?: number
  placeholder?: string
  type?: 'text' | 'url'
  required?: boolean
  onChange(value: string): void
}) {
  return (
    <Field label={props.label} error={props.error}>
      {(control) => (
        <input
          name={props.name}
          type={props.type ?? 'text'}
          value={props.value}
          maxLength={props.maxLength}
          required={props.required}
          placeholder={props.placeholder}
          {...control}
          onChange={(event) => props.onChange(event.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  )
}
