import { useEffect, useRef, useState } from 'react'
import { ConflictBanner } from '#app/components/conflict-banner.tsx'
import { LocalCopyNotice } from '#app/components/local-copy-notice.tsx'
import { MarkdownEditor } from '#app/components/markdown-editor.tsx'
import { ApiRequestError } from '#app/lib/api/client.ts'
import type { CourseApi } from '#app/lib/api/courses.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { useLocalCopy } from '#app/lib/local-copy.ts'
import { type Autosave, useAutosave } from '#app/lib/use-autosave.ts'
import type { EditorLesson } from '#features/courses/course-editor.server.ts'
import { lessonUpdate } from '#features/courses/course-input.ts'
import { SaveStatus } from './save-status.tsx'

type LessonFields = Pick<EditorLesson, 'title' | 'body' | 'access'>

/**
 * One lesson's title, access and Markdown body, autosaved against the lesson's own revision.
 * `onAutosave` hands the editor this lesson's autosave, so leaving or restructuring flushes it.
 */
export function LessonEditor(props: {
  courseId: string
  lesson: EditorLesson
  api: CourseApi
  onAutosave(lessonId: string, autosave: Autosave<LessonFields> | undefined): void
  /** A save reached the server (in a published course, it waits for 「更新する」). */
  onSaved?(): void
}) {
  const { courseId, lesson, api, onAutosave } = props
  const [fields, setFields] = useState<LessonFields>({
    title: lesson.title,
    body: lesson.body,
    access: lesson.access,
  })
  const revision = useRef(lesson.revision)
  const [problem, setProblem] = useState<string | undefined>()
  const [conflict, setConflict] = useState(false)
  const autosave = useAutosave<LessonFields>(async (value) => {
    try {
      const saved = await api.updateLesson(courseId, lesson.id, {
        ...value,
        revision: revision.current,
      })
      revision.current = saved.revision
      localCopy.saved(value)
      props.onSaved?.()
      setProblem(undefined)
    } catch (error) {
      if (error instanceof ApiRequestError && error.code === 'STALE_REVISION') setConflict(true)
      setProblem(messageOf(error))
      throw error
    }
  })

  useEffect(() => {
    onAutosave(lesson.id, autosave)
    return () => onAutosave(lesson.id, undefined)
  }, [autosave, lesson.id, onAutosave])

  const localCopy = useLocalCopy<LessonFields>({
    kind: 'lesson',
    id: lesson.id,
    server: { title: lesson.title, body: lesson.body, access: lesson.access },
    revision: lesson.revision,
    restore: (value) => update(value),
  })

  function update(change: Partial<LessonFields>) {
    const next = { ...fields, ...change }
    setFields(next)
    localCopy.remember(next, revision.current)
    autosave.change(next)
  }

  return (
    <div className="mt-3 flex flex-col gap-3 rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
      <LocalCopyNotice copy={localCopy} />
      {conflict && (
        <ConflictBanner
          what="このレッスン"
          typed={[
            { label: 'レッスン名', text: fields.title },
            { label: '本文', text: fields.body },
          ]}
        />
      )}
      <div className="grid gap-3 sm:grid-cols-[1fr_10rem]">
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">レッスン名</span>
          <input
            value={fields.title}
            maxLength={fieldLimits(lessonUpdate.shape.title).maxLength}
            onChange={(event) => update({ title: event.target.value })}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
          />
        </label>
        <label className="flex flex-col gap-1 text-sm">
          <span className="font-semibold">公開範囲</span>
          <select
            value={fields.access}
            onChange={(event) => update({ access: event.target.value as LessonFields['access'] })}
            className="rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
          >
            <option value="free">無料</option>
            <option value="premium">プレミアム</option>
          </select>
        </label>
      </div>
      <MarkdownEditor
        label="本文（Markdown）"
        name="body"
        value={fields.body}
        onChange={(body) => update({ body })}
        imageFolder="lessons"
        imageSubject={fields.title}
      />
      <SaveStatus state={autosave.state} problem={problem} />
    </div>
  )
}

/** The Japanese message of an API error (field errors first), for a status line. */
export function messageOf(error: unknown): string {
  if (error instanceof ApiRequestError) {
    const fields = error.fields ? Object.values(error.fields).flat() : []
    return fields.length > 0 ? fields.join(' ') : error.message
  }
  return '保存できませんでした。通信環境を確認してください'
}
