import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { ConflictBanner } from '#app/components/conflict-banner.tsx'
import { NOT_PUBLISHED_UNSAVED } from '#app/components/editor-parts.tsx'
import { LocalCopyNotice } from '#app/components/local-copy-notice.tsx'
import { ApiRequestError } from '#app/lib/api/client.ts'
import type { CourseApi } from '#app/lib/api/courses.ts'
import { moveToCreatedDraft } from '#app/lib/editor-address.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { forgetLocalCopy, useLocalCopy } from '#app/lib/local-copy.ts'
import { type Autosave, useAutosave } from '#app/lib/use-autosave.ts'
import { useLeaveGuard } from '#app/lib/use-leave-guard.ts'
import { contentPath, editPath } from '#features/content-kinds.ts'
import type { CourseDraft } from '#features/courses/course-editor.server.ts'
import { courseFields } from '#features/courses/course-input.ts'
import { CourseCoverField } from './course-cover-field.tsx'
import { CourseStructure } from './course-structure.tsx'
import { messageOf } from './lesson-editor.tsx'
import { SaveStatus } from './save-status.tsx'

type CourseFields = Pick<CourseDraft, 'title' | 'summary' | 'level' | 'access'> & {
  /** As typed: tags separated by commas. */
  tagsText: string
}

export const inputClass =
  'rounded-md border border-slate-300 bg-white px-3 py-2 text-base dark:border-slate-600 dark:bg-slate-950'

function fieldsOf(draft: CourseDraft | null): CourseFields {
  return {
    title: draft?.title ?? '',
    summary: draft?.summary ?? '',
    level: draft?.level ?? 'beginner',
    access: draft?.access ?? 'free',
    tagsText: draft?.tags.join(', ') ?? '',
  }
}

/** Tags as typed in an editor's one-line field: separated by Latin or Japanese commas. */
export function tagsFromText(text: string): string[] {
  return text
    .split(/[,、，]/u)
    .map((tag) => tag.trim())
    .filter(Boolean)
}

function payloadOf(fields: CourseFields) {
  const { tagsText, ...rest } = fields
  return { ...rest, tags: tagsFromText(tagsText) }
}

/**
 * The course editor: the course's fields autosave a moment after typing stops (the first
 * save creates the draft), sections and lessons are added, renamed, reordered with buttons
 * and removed, and every change names the revision it was based on, so a second tab's
 * change is refused with a clear message instead of being overwritten.
 */
export function CourseEditor(props: {
  initial: CourseDraft | null
  username: string
  api: CourseApi
}) {
  const { api, username } = props
  const navigate = useNavigate()
  const [draft, setDraft] = useState(props.initial)
  const [fields, setFields] = useState(() => fieldsOf(props.initial))
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({})
  const [problem, setProblem] = useState<string | undefined>()
  const [conflict, setConflict] = useState(false)
  const [publishProblem, setPublishProblem] = useState<string | undefined>()
  // A published course's saves (and its lessons') wait as pending revisions until 「更新する」.
  const [pending, setPending] = useState(props.initial?.pendingSince != null)
  const published = useRef(props.initial?.status === 'published')
  published.current = draft?.status === 'published'
  useEffect(() => setPending(draft?.pendingSince != null), [draft])
  // Remounts the lessons' editors when their pending text was discarded.
  const [generation, setGeneration] = useState(0)
  const revision = useRef(props.initial?.revision ?? 0)
  // Set the moment the first save has created the draft: a save queued behind that one must
  // update it, not create another, even before React has re-rendered with the draft.
  const draftId = useRef(props.initial?.id)
  const chain = useRef<Promise<unknown>>(Promise.resolve())
  const lessonAutosaves = useRef(new Map<string, Autosave<unknown>>())

  /** Course writes run one at a time, each based on the revision the previous one produced. */
  const serial = useCallback(<T,>(work: () => Promise<T>): Promise<T> => {
    const next = chain.current.then(work, work)
    chain.current = next.catch(() => undefined)
    return next
  }, [])

  const report = useCallback((error: unknown) => {
    if (error instanceof ApiRequestError && error.code === 'STALE_REVISION') setConflict(true)
    setFieldErrors(error instanceof ApiRequestError ? (error.fields ?? {}) : {})
    setProblem(messageOf(error))
  }, [])

  const autosave = useAutosave<CourseFields>((value) =>
    serial(async () => {
      try {
        if (!draftId.current) {
          const created = await api.create(payloadOf(value))
          draftId.current = created.id
          localCopy.created(created.id)
          revision.current = created.revision
          setDraft(await api.draft(created.id))
          // The draft exists now: continue editing it at its own address.
          moveToCreatedDraft(navigate, editPath('course', username, created.id))
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
    }),
  )

  const flushAll = useCallback(async () => {
    await Promise.all([
      autosave.flush(),
      ...[...lessonAutosaves.current.values()].map((lesson) => lesson.flush()),
    ])
  }, [autosave])
  const unsaved = useCallback(
    () =>
      autosave.unsaved() ||
      [...lessonAutosaves.current.values()].some((lesson) => lesson.unsaved()),
    [autosave],
  )
  const leaveDialog = useLeaveGuard({ unsaved, flush: flushAll })

  /** A change of the course as a whole or of its structure; then the editor shows the result. */
  const change = useCallback(
    async (
      write: (courseId: string, revision: number) => Promise<unknown>,
    ): Promise<CourseDraft | undefined> => {
      if (!draft) return
      await flushAll()
      return serial(async () => {
        try {
          await write(draft.id, revision.current)
          const fresh = await api.draft(draft.id)
          revision.current = fresh.revision
          setDraft(fresh)
          setFieldErrors({})
          setProblem(undefined)
          return fresh
        } catch (error) {
          report(error)
          return undefined
        }
      })
    },
    [api, draft, flushAll, report, serial],
  )

  const registerLesson = useCallback((lessonId: string, lesson: Autosave<never> | undefined) => {
    if (lesson) lessonAutosaves.current.set(lessonId, lesson as Autosave<unknown>)
    else lessonAutosaves.current.delete(lessonId)
  }, [])

  const localCopy = useLocalCopy<CourseFields>({
    kind: 'course',
    id: props.initial?.id,
    server: fieldsOf(props.initial),
    revision: props.initial?.revision,
    restore: (value) => update(value),
  })

  function update(changed: Partial<CourseFields>) {
    const next = { ...fields, ...changed }
    setFields(next)
    localCopy.remember(next, revision.current)
    if (next.title.trim() !== '' || draft) autosave.change(next)
  }

  /**
   * Publishes (or, for a published course, 「更新する」) only once the course and every lesson
   * are saved as they are on screen.
   */
  async function publish(write: (courseId: string, revision: number) => Promise<unknown>) {
    setPublishProblem(undefined)
    const settled = await Promise.all([
      autosave.settle(),
      ...[...lessonAutosaves.current.values()].map((lesson) => lesson.settle()),
    ])
    if (settled.includes(false)) {
      setPublishProblem(NOT_PUBLISHED_UNSAVED)
      return
    }
    await change(write)
  }

  /** 「変更を破棄」: the course and its lessons go back to what learners read. */
  async function discardRevision() {
    setPublishProblem(undefined)
    const fresh = await change((id, revision) => api.discardRevision(id, { revision }))
    if (!fresh) return
    const shown = fieldsOf(fresh)
    setFields(shown)
    localCopy.clear()
    for (const section of fresh.sections) {
      for (const lesson of section.lessons) forgetLocalCopy('lesson', lesson.id)
    }
    setGeneration((current) => current + 1)
  }

  const errorOf = (field: string) => fieldErrors[field]?.join(' ')
  // Why the course cannot be published: no lesson, or lessons without a title or body.
  const publishErrors = Object.entries(fieldErrors)
    .filter(([field]) => field === 'sections' || field.startsWith('lessons.'))
    .flatMap(([, messages]) => messages)

  return (
    <div className="flex flex-col gap-8">
      <LocalCopyNotice copy={localCopy} />
      {leaveDialog}
      {conflict && (
        <ConflictBanner
          what="このコース"
          typed={[
            { label: 'タイトル', text: fields.title },
            { label: '概要', text: fields.summary },
            { label: 'タグ', text: fields.tagsText },
          ]}
        />
      )}
      <section aria-labelledby="course-fields-heading" className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="course-fields-heading" className="text-lg font-bold">
            基本情報
          </h2>
          <SaveStatus state={autosave.state} problem={problem} unsaved={draft === null} />
        </div>
        <Field label="タイトル" error={errorOf('title')}>
          {(control) => (
            <input
              name="title"
              value={fields.title}
              maxLength={fieldLimits(courseFields.shape.title).maxLength}
              required
              {...control}
              placeholder="例：はじめての Python"
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
              maxLength={fieldLimits(courseFields.shape.summary).maxLength}
              rows={3}
              {...control}
              onChange={(event) => update({ summary: event.target.value })}
              className={inputClass}
            />
          )}
        </Field>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="レベル" error={errorOf('level')}>
            {(control) => (
              <select
                name="level"
                value={fields.level}
                {...control}
                onChange={(event) => update({ level: event.target.value as CourseFields['level'] })}
                className={inputClass}
              >
                <option value="beginner">入門</option>
                <option value="intermediate">中級</option>
                <option value="advanced">上級</option>
              </select>
            )}
          </Field>
          <Field label="公開範囲" error={errorOf('access')}>
            {(control) => (
              <select
                name="access"
                value={fields.access}
                {...control}
                onChange={(event) =>
                  update({ access: event.target.value as CourseFields['access'] })
                }
                className={inputClass}
              >
                <option value="free">無料</option>
                <option value="premium">プレミアム</option>
              </select>
            )}
          </Field>
        </div>
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
              placeholder="例：python, 入門"
              onChange={(event) => update({ tagsText: event.target.value })}
              className={inputClass}
            />
          )}
        </Field>
        {!draft && (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            タイトルを入力すると下書きとして自動保存され、セクションとレッスンを追加できます。
          </p>
        )}
      </section>
      {draft && (
        <>
          <CourseCoverField
            coverKey={draft.coverKey}
            error={errorOf('key')}
            onChange={async (key) => {
              await change((id, revision) => api.setCover(id, { key, revision }))
            }}
          />
          <CourseStructure
            key={generation}
            onLessonSaved={() => {
              if (published.current) setPending(true)
            }}
            draft={draft}
            api={api}
            onChange={async (write) => {
              await change(write)
            }}
            onLessonAutosave={registerLesson}
          />
          <section
            aria-labelledby="publish-heading"
            className="flex flex-col gap-3 border-t border-slate-200 pt-6 dark:border-slate-800"
          >
            <h2 id="publish-heading" className="text-lg font-bold">
              公開
            </h2>
            <p className="text-sm" data-course-status={draft.status}>
              {draft.status === 'draft'
                ? 'このコースは下書きです。あなただけが見られます。'
                : pending
                  ? 'このコースは公開中です。まだ公開していない変更があります。受講者には「更新する」を押すまで、公開中の内容が表示されます。'
                  : 'このコースは公開中です。編集した内容は「更新する」を押すまで公開されません。'}
            </p>
            {publishProblem && (
              <p
                role="alert"
                data-publish-problem
                className="text-sm text-red-700 dark:text-red-400"
              >
                {publishProblem} {problem}
              </p>
            )}
            {publishErrors.length > 0 && (
              <ul
                role="alert"
                data-publish-errors
                className="list-disc rounded-md border border-red-300 bg-red-50 py-2 pr-3 pl-8 text-sm text-red-800 dark:border-red-700 dark:bg-red-950 dark:text-red-200"
              >
                {publishErrors.map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            )}
            <div className="flex flex-wrap gap-3">
              {draft.status === 'draft' ? (
                <button
                  type="button"
                  onClick={() => void publish((id, revision) => api.publish(id, { revision }))}
                  className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
                >
                  公開する
                </button>
              ) : (
                <>
                  {pending && (
                    <>
                      <button
                        type="button"
                        onClick={() =>
                          void publish((id, revision) => api.publishRevision(id, { revision }))
                        }
                        className="rounded-md bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
                      >
                        更新する
                      </button>
                      <button
                        type="button"
                        onClick={() => void discardRevision()}
                        className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                      >
                        変更を破棄
                      </button>
                    </>
                  )}
                  <button
                    type="button"
                    onClick={() => void change((id, revision) => api.unpublish(id, { revision }))}
                    className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
                  >
                    非公開（下書き）に戻す
                  </button>
                </>
              )}
              <Link
                to={contentPath('course', username, draft.id)}
                className="rounded-md border border-slate-300 px-4 py-2 hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
              >
                コースページを見る
              </Link>
            </div>
          </section>
        </>
      )}
    </div>
  )
}

export function Field(props: {
  label: string
  error?: string
  children: (control: { id: string; 'aria-describedby'?: string }) => ReactNode
}) {
  const id = useId()
  const errorId = `${id}-error`
  return (
    <div className="flex flex-col gap-1 text-sm">
      <label htmlFor={id} className="font-semibold">
        {props.label}
      </label>
      {props.children({ id, 'aria-describedby': props.error ? errorId : undefined })}
      <span id={errorId} className="min-h-5 text-red-700 dark:text-red-400">
        {props.error}
      </span>
    </div>
  )
}
