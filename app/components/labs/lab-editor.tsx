import { SCREENSHOTS_PER_LAB } from '../../../features/labs/lab-input.ts'
import type { LabDraft } from '../../../features/labs/lab-view.server.ts'
import { useStorageSettings } from '../../lib/root-data.ts'
import { publicObjectUrl } from '../../lib/storage/storage-settings.ts'
import { ContentImageUpload } from '../content-image-upload.tsx'
import { tagsFromText } from '../courses/course-editor.tsx'
import type { DraftApi } from '../draft-api.ts'
import { DraftEditorShell, TAGS_LABEL, TextField, useDraftEditor } from '../editor-parts.tsx'
import { FieldError } from '../forms.tsx'
import { MarkdownEditor } from '../markdown-editor.tsx'

type LabFields = {
  title: string
  description: string
  tagsText: string
  repositoryUrl: string
  demoUrl: string
  screenshotKeys: string[]
}

function fieldsOf(draft: LabDraft | null): LabFields {
  return {
    title: draft?.title ?? '',
    description: draft?.description ?? '',
    tagsText: draft?.tags.join(', ') ?? '',
    repositoryUrl: draft?.repositoryUrl ?? '',
    demoUrl: draft?.demoUrl ?? '',
    screenshotKeys: draft?.screenshotKeys ?? [],
  }
}

function payloadOf({ tagsText, ...rest }: LabFields) {
  return { ...rest, tags: tagsFromText(tagsText) }
}

/** The lab editor: title, Markdown description, tags, links and screenshots, autosaved. */
export function LabEditor(props: {
  initial: LabDraft | null
  username: string
  api: DraftApi<LabDraft>
}) {
  const { username } = props
  const storage = useStorageSettings()
  const editor = useDraftEditor({
    initial: props.initial,
    fields: fieldsOf(props.initial),
    api: props.api,
    payloadOf,
    creatable: (fields) => fields.title.trim() !== '',
    editPath: (id) => `/${username}/labs/${id}/edit`,
  })
  const { fields, update, errorOf } = editor
  const screenshots = fields.screenshotKeys

  return (
    <DraftEditorShell
      editor={editor}
      what="このラボ"
      viewPath={(id) => `/${username}/labs/${id}`}
      viewLabel="ラボを見る"
    >
      <TextField
        label="タイトル"
        name="title"
        value={fields.title}
        maxLength={100}
        required
        placeholder="例：家計簿アプリ"
        error={errorOf('title')}
        onChange={(title) => update({ title })}
      />
      <TextField
        label={TAGS_LABEL}
        name="tags"
        value={fields.tagsText}
        placeholder="例：react, typescript"
        error={errorOf('tags')}
        onChange={(tagsText) => update({ tagsText })}
      />
      <TextField
        label="リポジトリの URL"
        name="repositoryUrl"
        type="url"
        value={fields.repositoryUrl}
        placeholder="https://github.com/…"
        error={errorOf('repositoryUrl')}
        onChange={(repositoryUrl) => update({ repositoryUrl })}
      />
      <TextField
        label="デモの URL"
        name="demoUrl"
        type="url"
        value={fields.demoUrl}
        placeholder="https://…"
        error={errorOf('demoUrl')}
        onChange={(demoUrl) => update({ demoUrl })}
      />
      <section aria-labelledby="screenshots-heading" className="flex flex-col gap-3">
        <h2 id="screenshots-heading" className="text-sm font-semibold">
          スクリーンショット（{SCREENSHOTS_PER_LAB} 枚まで）
        </h2>
        {screenshots.length > 0 && (
          <ul className="grid gap-3 sm:grid-cols-2">
            {screenshots.map((key, index) => (
              <li key={key} className="flex flex-col gap-2">
                <img
                  src={publicObjectUrl(storage, key)}
                  alt={`スクリーンショット ${index + 1}`}
                  className="aspect-video w-full rounded-md border border-slate-200 object-cover dark:border-slate-700"
                />
                <button
                  type="button"
                  onClick={() =>
                    update((current) => ({
                      screenshotKeys: current.screenshotKeys.filter((other) => other !== key),
                    }))
                  }
                  className="self-start text-sm text-red-700 underline underline-offset-3 dark:text-red-400"
                >
                  スクリーンショット {index + 1} を外す
                </button>
              </li>
            ))}
          </ul>
        )}
        {screenshots.length < SCREENSHOTS_PER_LAB && (
          <ContentImageUpload
            label="スクリーンショットを追加"
            folder="labs"
            onUploaded={({ key }) =>
              update((current) => ({ screenshotKeys: [...current.screenshotKeys, key] }))
            }
          />
        )}
        <FieldError id="screenshots-error" error={errorOf('screenshotKeys')} />
      </section>
      <MarkdownEditor
        label="説明（Markdown）"
        name="description"
        value={fields.description}
        error={errorOf('description')}
        onChange={(description) => update({ description })}
      />
    </DraftEditorShell>
  )
}
