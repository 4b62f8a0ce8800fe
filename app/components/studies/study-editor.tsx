import type { StudyDraft } from '../../../features/studies/study-view.server.ts'
import { Field, inputClass, tagsFromText } from '../courses/course-editor.tsx'
import { DraftEditorShell, TAGS_LABEL, TextField, useDraftEditor } from '../editor-parts.tsx'
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

/** The study editor: title, summary, tags and Markdown notes in the shared editor shell. */
export function StudyEditor(props: {
  initial: StudyDraft | null
  username: string
  api: StudyApi
}) {
  const { username } = props
  const editor = useDraftEditor({
    initial: props.initial,
    fields: fieldsOf(props.initial),
    api: props.api,
    payloadOf,
    creatable: (fields) => fields.title.trim() !== '',
    editPath: (id) => `/${username}/studies/${id}/edit`,
  })
  const { fields, update, errorOf } = editor

  return (
    <DraftEditorShell
      editor={editor}
      what="このスタディ"
      viewPath={(id) => `/${username}/studies/${id}`}
      viewLabel="スタディを見る"
    >
      <TextField
        label="タイトル"
        name="title"
        value={fields.title}
        maxLength={100}
        required
        placeholder="例：SQL の結合をまとめる"
        error={errorOf('title')}
        onChange={(title) => update({ title })}
      />
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
      <TextField
        label={TAGS_LABEL}
        name="tags"
        value={fields.tagsText}
        placeholder="例：sql, データベース"
        error={errorOf('tags')}
        onChange={(tagsText) => update({ tagsText })}
      />
      <MarkdownEditor
        label="ノート（Markdown）"
        name="notes"
        value={fields.notes}
        error={errorOf('notes')}
        onChange={(notes) => update({ notes })}
      />
    </DraftEditorShell>
  )
}
