import { useState } from 'react'
import { useConfirm } from '#app/components/confirm-dialog.tsx'
import type { CourseApi } from '#app/lib/api/courses.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import type { Autosave } from '#app/lib/use-autosave.ts'
import type { CourseDraft } from '#features/courses/course-editor.server.ts'
import { sectionFields } from '#features/courses/course-input.ts'
import { LessonEditor } from './lesson-editor.tsx'

/** A write of the course's structure, based on the course's current revision. */
type Change = (write: (courseId: string, revision: number) => Promise<unknown>) => Promise<void>

const smallButton =
  'rounded-md border border-slate-300 px-2 py-1 text-sm hover:bg-slate-100 disabled:opacity-40 dark:border-slate-600 dark:hover:bg-slate-800'

/**
 * Sections and lessons: add, rename, move up and down with buttons (keyboard accessible,
 * each labelled with what it moves) and remove; a lesson opens its own autosaving editor.
 */
export function CourseStructure(props: {
  draft: CourseDraft
  api: CourseApi
  onChange: Change
  onLessonAutosave(lessonId: string, autosave: Autosave<never> | undefined): void
  onLessonSaved?(): void
}) {
  const { draft, api, onChange } = props
  const [open, setOpen] = useState<string | null>(null)
  const [confirm, confirmDialog] = useConfirm()
  const lessonCount = draft.sections.reduce((count, section) => count + section.lessons.length, 0)
  return (
    <section aria-labelledby="structure-heading" className="flex flex-col gap-4">
      {confirmDialog}
      <h2 id="structure-heading" className="text-lg font-bold">
        セクションとレッスン
      </h2>
      <ol className="flex flex-col gap-4">
        {draft.sections.map((section, sectionIndex) => (
          <li
            key={section.id}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
            data-section={section.title}
          >
            <div className="flex flex-wrap items-end gap-2">
              <RenameField
                label={`セクション ${sectionIndex + 1} の名前`}
                value={section.title}
                onSave={(title) =>
                  onChange((id, revision) => api.renameSection(id, section.id, { title, revision }))
                }
              />
              <button
                type="button"
                className={smallButton}
                disabled={sectionIndex === 0}
                aria-label={`セクション「${section.title}」を上へ`}
                onClick={() =>
                  onChange((id, revision) =>
                    api.moveSection(id, section.id, { direction: 'up', revision }),
                  )
                }
              >
                ↑
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={sectionIndex === draft.sections.length - 1}
                aria-label={`セクション「${section.title}」を下へ`}
                onClick={() =>
                  onChange((id, revision) =>
                    api.moveSection(id, section.id, { direction: 'down', revision }),
                  )
                }
              >
                ↓
              </button>
              <button
                type="button"
                className={smallButton}
                onClick={async () => {
                  const ok = await confirm({
                    title: `セクション「${section.title}」を削除しますか？`,
                    body: 'セクションのレッスンも一緒に削除されます。',
                    confirmLabel: '削除する',
                  })
                  if (ok) {
                    void onChange((id, revision) => api.deleteSection(id, section.id, revision))
                  }
                }}
              >
                削除
              </button>
            </div>
            <ol className="mt-3 flex flex-col gap-2">
              {section.lessons.map((lesson, lessonIndex) => {
                const first = sectionIndex === 0 && lessonIndex === 0
                const last =
                  sectionIndex === draft.sections.length - 1 &&
                  lessonIndex === section.lessons.length - 1
                const editing = open === lesson.id
                return (
                  <li
                    key={lesson.id}
                    className="rounded-lg border border-slate-200 p-2 dark:border-slate-800"
                  >
                    <div className="flex flex-wrap items-center gap-2">
                      <span className="min-w-0 flex-1 truncate">
                        {lessonIndex + 1}. {lesson.title}
                        {lesson.access === 'premium' && (
                          <span className="ml-2 text-xs text-amber-700">プレミアム</span>
                        )}
                      </span>
                      <button
                        type="button"
                        className={smallButton}
                        aria-expanded={editing}
                        aria-label={`レッスン「${lesson.title}」を${editing ? '閉じる' : '編集'}`}
                        onClick={() => setOpen(editing ? null : lesson.id)}
                      >
                        {editing ? '閉じる' : '編集'}
                      </button>
                      <button
                        type="button"
                        className={smallButton}
                        disabled={first}
                        aria-label={`レッスン「${lesson.title}」を上へ`}
                        onClick={() =>
                          onChange((id, revision) =>
                            api.moveLesson(id, lesson.id, { direction: 'up', revision }),
                          )
                        }
                      >
                        ↑
                      </button>
                      <button
                        type="button"
                        className={smallButton}
                        disabled={last}
                        aria-label={`レッスン「${lesson.title}」を下へ`}
                        onClick={() =>
                          onChange((id, revision) =>
                            api.moveLesson(id, lesson.id, { direction: 'down', revision }),
                          )
                        }
                      >
                        ↓
                      </button>
                      <button
                        type="button"
                        className={smallButton}
                        aria-label={`レッスン「${lesson.title}」を削除`}
                        onClick={async () => {
                          const ok = await confirm({
                            title: `レッスン「${lesson.title}」を削除しますか？`,
                            confirmLabel: '削除する',
                          })
                          if (ok) {
                            void onChange((id, revision) =>
                              api.deleteLesson(id, lesson.id, revision),
                            )
                          }
                        }}
                      >
                        削除
                      </button>
                    </div>
                    {editing && (
                      <LessonEditor
                        courseId={draft.id}
                        lesson={lesson}
                        api={props.api}
                        onAutosave={props.onLessonAutosave}
                        onSaved={props.onLessonSaved}
                      />
                    )}
                  </li>
                )
              })}
            </ol>
            <AddField
              label={`「${section.title}」にレッスンを追加`}
              placeholder="レッスン名"
              onAdd={(title) =>
                onChange((id, revision) =>
                  api.addLesson(id, { sectionId: section.id, title, revision }),
                )
              }
            />
          </li>
        ))}
      </ol>
      <AddField
        label="セクションを追加"
        placeholder="セクション名（例：はじめに）"
        onAdd={(title) => onChange((id, revision) => api.addSection(id, { title, revision }))}
      />
      {lessonCount === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          公開するにはレッスンを 1 つ以上追加してください。
        </p>
      )}
    </section>
  )
}

function AddField(props: {
  label: string
  placeholder: string
  onAdd(title: string): Promise<void>
}) {
  const [title, setTitle] = useState('')
  return (
    <form
      className="mt-3 flex flex-wrap items-end gap-2"
      onSubmit={(event) => {
        event.preventDefault()
        if (title.trim() === '') return
        void props.onAdd(title).then(() => setTitle(''))
      }}
    >
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
        <span className="font-semibold">{props.label}</span>
        <input
          value={title}
          maxLength={fieldLimits(sectionFields.shape.title).maxLength}
          placeholder={props.placeholder}
          onChange={(event) => setTitle(event.target.value)}
          className="rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
        />
      </label>
      <button
        type="submit"
        className="rounded-md bg-slate-800 px-3 py-2 text-sm font-semibold text-white hover:bg-slate-700 dark:bg-slate-200 dark:text-slate-900"
      >
        追加
      </button>
    </form>
  )
}

/** A title saved when the field is left (or Enter is pressed), if it changed. */
function RenameField(props: {
  label: string
  value: string
  onSave(title: string): Promise<void>
}) {
  const [title, setTitle] = useState(props.value)
  const save = () => {
    if (title.trim() !== '' && title !== props.value) void props.onSave(title)
  }
  return (
    <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm">
      <span className="font-semibold">{props.label}</span>
      <input
        value={title}
        maxLength={fieldLimits(sectionFields.shape.title).maxLength}
        onChange={(event) => setTitle(event.target.value)}
        onBlur={save}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && !event.nativeEvent.isComposing) {
            event.preventDefault()
            save()
          }
        }}
        className="rounded-md border border-slate-300 bg-white px-3 py-2 dark:border-slate-600 dark:bg-slate-950"
      />
    </label>
  )
}
