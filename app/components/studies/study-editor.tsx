import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import { DraftEditorShell, useDraftEditor } from '#app/components/editor-parts.tsx'
import { MarkdownEditor } from '#app/components/markdown-editor.tsx'
import type { DraftApi } from '#app/lib/api/drafts.ts'
import { fieldLimits } from '#app/lib/field-limits.ts'
import { studyFields } from '#features/studies/study-input.ts'
import type { StudyDraft } from '#features/studies/study-view.server.ts'

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

function payloadOf({ summary, notes }: StudyFields) {
  return { summary, notes }
}

/** The study editor: title, summary, tags and Markdown notes in the shared editor shell. */
export function StudyEditor(props: {
  initial: StudyDraft | null
  username: string
  api: DraftApi<StudyDraft, ReturnType<typeof payloadOf>>
}) {
  const editor = useDraftEditor({
    initial: props.initial,
    fields: fieldsOf(props.initial),
    api: props.api,
    payloadOf,
    fieldsOf,
    username: props.username,
    collection: 'studies',
    labels: { summary: '概要', notes: 'ノート' },
  })
  const { fields, update, errorOf } = editor

  return (
    <DraftEditorShell
      editor={editor}
      what="このスタディ"
      viewLabel="スタディを見る"
      placeholders={{ title: '例：SQL の結合をまとめる', tags: '例：sql, データベース' }}
    >
      <Field label="概要" error={errorOf('summary')}>
        {(control) => (
          <textarea
            name="summary"
            value={fields.summary}
            maxLength={fieldLimits(studyFields.shape.summary).maxLength}
            rows={2}
            {...control}
            onChange={(event) => update({ summary: event.target.value })}
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
        imageFolder="studies"
        imageSubject={fields.title}
      />
    </DraftEditorShell>
  )
}
