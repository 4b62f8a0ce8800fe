import { useState } from 'react'
import { ContentImageUpload } from '#app/components/content-image-upload.tsx'
import { FormMessage } from '#app/components/forms.tsx'
import { CoverImage } from './course-cover.tsx'

/**
 * The editor's cover field: upload an image to the public level of object storage, then the
 * server checks who uploaded it before the course shows it (`PUT /api/courses/{id}/cover`).
 */
export function CourseCoverField(props: {
  coverKey: string | null
  /** The server's refusal of the last cover, in Japanese. */
  error: string | undefined
  onChange(key: string | null): Promise<void>
}) {
  const [saving, setSaving] = useState(false)
  const change = (key: string | null) => {
    setSaving(true)
    void props.onChange(key).finally(() => setSaving(false))
  }
  return (
    <section aria-labelledby="course-cover-heading" className="space-y-3">
      <h2 id="course-cover-heading" className="text-lg font-semibold">
        カバー画像
      </h2>
      {props.coverKey ? (
        <CoverImage coverKey={props.coverKey} className="max-w-md" />
      ) : (
        <p className="text-sm text-slate-600 dark:text-slate-400">
          カバー画像はまだありません。コース一覧とコースのページに表示されます（横長 16:9
          がおすすめです）。
        </p>
      )}
      <ContentImageUpload
        label={props.coverKey ? 'カバー画像を変更' : 'カバー画像をアップロード'}
        folder="covers"
        onUploaded={({ key }) => change(key)}
      />
      {props.coverKey ? (
        <button
          type="button"
          onClick={() => change(null)}
          disabled={saving}
          className="text-sm text-slate-700 underline underline-offset-3 dark:text-slate-300"
        >
          カバー画像を外す
        </button>
      ) : null}
      {props.error ? <FormMessage tone="error">{props.error}</FormMessage> : null}
    </section>
  )
}
