import { ApiRequestError, callApi } from '#app/lib/api/client.ts'
import { useSettings, useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import {
  IMAGE_MAX_BYTES,
  IMAGE_SIGNATURE_BYTES,
  IMAGE_TYPES,
  imageObjectName,
  sniffImageType,
} from '#features/images/image-rules.ts'
import { FileUpload } from './file-upload.tsx'

/**
 * Uploads an image for content (screenshots, covers, images in Markdown) into the uploader's
 * own public folder, `public/{identityId}/{folder}/…`: the server accepts only images the author
 * uploaded (features/images/uploaded-image.server.ts), and pages show them without signing.
 */
export function ContentImageUpload(props: {
  label: string
  folder: string
  onUploaded(image: { key: string; url: string }): void
  /** Several at once, up to this many (see FileUpload). */
  maxFiles?: number
}) {
  const storage = useStorageSettings()
  const { apiGatewayUrl } = useSettings()
  return (
    <FileUpload
      settings={storage}
      level="public"
      label={props.label}
      accept={IMAGE_TYPES}
      maxBytes={IMAGE_MAX_BYTES}
      maxFiles={props.maxFiles}
      nameFor={(file, identityId) => imageObjectName(`${identityId}/${props.folder}`, file)}
      contentCheck={IMAGE_CONTENT_CHECK}
      verify={async (key) => {
        try {
          await callApi(apiGatewayUrl, 'uploads.checkImage', { body: { key } })
          return undefined
        } catch (error) {
          if (error instanceof ApiRequestError && error.status === 400) return error.message
          throw error
        }
      }}
      onUploaded={({ key }) => props.onUploaded({ key, url: publicObjectUrl(storage, key) })}
    />
  )
}

/** A file named `.png` may hold anything: its first bytes must be one of the accepted images. */
const IMAGE_CONTENT_CHECK = {
  bytes: IMAGE_SIGNATURE_BYTES,
  accepts: (start: Uint8Array) => sniffImageType(start) !== undefined,
  refusal:
    'このファイルは中身が PNG・JPEG・WebP・GIF の画像ではないため、追加できません。画像ファイルを選んでください。',
}
