import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { IMAGE_MAX_BYTES, IMAGE_TYPES, imageObjectName } from '#features/images/image-rules.ts'
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
  return (
    <FileUpload
      settings={storage}
      level="public"
      label={props.label}
      accept={IMAGE_TYPES}
      maxBytes={IMAGE_MAX_BYTES}
      maxFiles={props.maxFiles}
      nameFor={(file, identityId) => imageObjectName(`${identityId}/${props.folder}`, file)}
      onUploaded={({ key }) => props.onUploaded({ key, url: publicObjectUrl(storage, key) })}
    />
  )
}
