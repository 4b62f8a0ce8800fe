import { useFetcher } from 'react-router'
import { Avatar } from '#app/components/avatar.tsx'
import { FileUpload } from '#app/components/file-upload.tsx'
import { FormMessage } from '#app/components/forms.tsx'
import type { ClientStorageSettings } from '#app/lib/storage/storage-settings.ts'
import { IMAGE_MAX_BYTES, IMAGE_TYPES, imageObjectName } from '#features/images/image-rules.ts'

/**
 * The profile picture: upload an image to the public level of object storage, then ask the
 * server to make it the avatar (it checks who uploaded it), or go back to the initial.
 */
export function AvatarSettings(props: {
  name: string
  avatarUrl: string | null
  storage: ClientStorageSettings
}) {
  const fetcher = useFetcher<{ intent?: string; error?: string; notice?: string }>()
  const submit = (fields: Record<string, string>) =>
    fetcher.submit(fields, { method: 'post', action: '/settings' })
  const result =
    fetcher.data?.intent === 'setAvatar' || fetcher.data?.intent === 'removeAvatar'
      ? fetcher.data
      : undefined
  return (
    <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
      <Avatar name={props.name} url={props.avatarUrl} size="large" />
      <div className="min-w-0 flex-1 space-y-3">
        <FileUpload
          settings={props.storage}
          level="public"
          label="新しいプロフィール画像"
          accept={IMAGE_TYPES}
          maxBytes={IMAGE_MAX_BYTES}
          nameFor={(file) => imageObjectName('avatars', file)}
          onUploaded={({ key }) => submit({ intent: 'setAvatar', key })}
        />
        {props.avatarUrl ? (
          <button
            type="button"
            onClick={() => submit({ intent: 'removeAvatar' })}
            disabled={fetcher.state !== 'idle'}
            className="text-sm text-slate-700 underline underline-offset-3 dark:text-slate-300"
          >
            画像を削除して頭文字に戻す
          </button>
        ) : null}
        {result?.error ? <FormMessage tone="error">{result.error}</FormMessage> : null}
        {result?.notice ? <FormMessage tone="success">{result.notice}</FormMessage> : null}
      </div>
    </div>
  )
}
