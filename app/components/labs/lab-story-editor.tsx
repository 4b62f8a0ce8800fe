import { ContentImageUpload } from '#app/components/content-image-upload.tsx'
import { Field, inputClass } from '#app/components/courses/course-editor.tsx'
import { DraftEditorShell, useDraftEditor } from '#app/components/editor-parts.tsx'
import { MarkdownEditor } from '#app/components/markdown-editor.tsx'
import type { DraftApi } from '#app/lib/api/drafts.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import type { LabStoryDraft } from '#features/labs/lab-view.server.ts'

type StoryFields = {
  title: string
  body: string
  tagsText: string
  /** '' for none. */
  labId: string
  coverKey: string | null
}

function fieldsOf(draft: LabStoryDraft | null, labId: string | undefined): StoryFields {
  return {
    title: draft?.title ?? '',
    body: draft?.body ?? '',
    tagsText: draft?.tags.join(', ') ?? '',
    labId: draft ? (draft.labId ?? '') : (labId ?? ''),
    coverKey: draft?.coverKey ?? null,
  }
}

function payloadOf({ body, labId, coverKey }: StoryFields) {
  return { body, labId: labId || null, coverKey }
}

/**
 * The lab story editor: title, the lab it tells of, tags, a cover and the Markdown body, where
 * 「画像を追加」 uploads an image and inserts it at the cursor; autosaved like every editor.
 */
export function LabStoryEditor(props: {
  initial: LabStoryDraft | null
  username: string
  labs: { id: string; title: string }[]
  /** A new story's lab, when it was started from the lab's page. */
  labId?: string
  api: DraftApi<LabStoryDraft, ReturnType<typeof payloadOf>>
}) {
  const storage = useStorageSettings()
  const editor = useDraftEditor({
    initial: props.initial,
    fields: fieldsOf(props.initial, props.labId),
    api: props.api,
    payloadOf,
    fieldsOf: (draft) => fieldsOf(draft, undefined),
    username: props.username,
    collection: 'labs_stories',
    labels: { body: '本文' },
  })
  const { fields, update, errorOf } = editor

  return (
    <DraftEditorShell
      editor={editor}
      what="このストーリー"
      viewLabel="ストーリーを見る"
      placeholders={{ title: '例：家計簿アプリで学んだ状態管理', tags: '例：react, 状態管理' }}
    >
      <Field label="ラボ（任意）" error={errorOf('labId')}>
        {(control) => (
          <select
            name="labId"
            value={fields.labId}
            {...control}
            onChange={(event) => update({ labId: event.target.value })}
            className={inputClass}
          >
            <option value="">ラボに結び付けない</option>
            {props.labs.map((lab) => (
              <option key={lab.id} value={lab.id}>
                {lab.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <section aria-labelledby="cover-heading" className="flex flex-col gap-3">
        <h2 id="cover-heading" className="text-sm font-semibold">
          カバー画像（任意）
        </h2>
        {fields.coverKey && (
          <div className="flex flex-col gap-2">
            <img
              src={publicObjectUrl(storage, fields.coverKey)}
              alt="カバー画像"
              className="aspect-video w-full max-w-md rounded-md border border-slate-200 object-cover dark:border-slate-700"
            />
            <button
              type="button"
              onClick={() => update({ coverKey: null })}
              className="self-start text-sm text-red-700 underline underline-offset-3 dark:text-red-400"
            >
              カバー画像を外す
            </button>
          </div>
        )}
        <ContentImageUpload
          label={fields.coverKey ? 'カバー画像を変更' : 'カバー画像を選ぶ'}
          folder="stories"
          onUploaded={({ key }) => update({ coverKey: key })}
        />
        {errorOf('coverKey') && (
          <p className="text-sm text-red-700 dark:text-red-300">{errorOf('coverKey')}</p>
        )}
      </section>
      <MarkdownEditor
        label="本文（Markdown）"
        name="body"
        value={fields.body}
        error={errorOf('body')}
        onChange={(text) => update({ body: text })}
        imageFolder="stories"
        imageSubject={fields.title}
      />
    </DraftEditorShell>
  )
}
