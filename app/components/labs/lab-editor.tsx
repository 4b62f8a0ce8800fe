import { ContentImageUpload } from '#app/components/content-image-upload.tsx'
import { DraftEditorShell, TextField, useDraftEditor } from '#app/components/editor-parts.tsx'
import { FieldError } from '#app/components/forms.tsx'
import { MarkdownEditor } from '#app/components/markdown-editor.tsx'
import type { DraftApi } from '#app/lib/api/drafts.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { SCREENSHOTS_PER_LAB } from '#features/labs/lab-input.ts'
import type { LabDraft } from '#features/labs/lab-view.server.ts'

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

function payloadOf({ description, repositoryUrl, demoUrl, screenshotKeys }: LabFields) {
  return { description, repositoryUrl, demoUrl, screenshotKeys }
}

/** The lab editor: title, Markdown description, tags, links and screenshots, autosaved. */
export function LabEditor(props: {
  initial: LabDraft | null
  username: string
  api: DraftApi<LabDraft, ReturnType<typeof payloadOf>>
}) {
  const storage = useStorageSettings()
  const editor = useDraftEditor({
    initial: props.initial,
    fields: fieldsOf(props.initial),
    api: props.api,
    payloadOf,
    fieldsOf,
    username: props.username,
    collection: 'labs',
    labels: { repositoryUrl: 'リポジトリの URL', demoUrl: 'デモの URL', description: '説明' },
  })
  const { fields, update, errorOf } = editor
  const screenshots = fields.screenshotKeys

  return (
    <DraftEditorShell
      editor={editor}
      what="このラボ"
      viewLabel="ラボを見る"
      placeholders={{ title: '例：家計簿アプリ', tags: '例：react, typescript' }}
    >
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
                  alt={`${fields.title.trim() || 'このラボ'} のスクリーンショット ${index + 1}`}
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
        {/* Kept when full: it reports the last pick, and takes files again after a removal. */}
        <ContentImageUpload
          label="スクリーンショットを追加（複数まとめて選べます）"
          folder="labs"
          maxFiles={SCREENSHOTS_PER_LAB - screenshots.length}
          onUploaded={({ key }) =>
            update((current) => ({ screenshotKeys: [...current.screenshotKeys, key] }))
          }
        />
        <FieldError id="screenshots-error" error={errorOf('screenshotKeys')} />
      </section>
      <MarkdownEditor
        label="説明（Markdown）"
        name="description"
        value={fields.description}
        error={errorOf('description')}
        onChange={(description) => update({ description })}
        imageFolder="labs"
        imageSubject={fields.title}
      />
    </DraftEditorShell>
  )
}
