import { CONTENT_IMAGE_MAX_BYTES, CONTENT_IMAGE_TYPES } from '../../features/uploads/image-rules.ts'
import { useStorageSettings } from '../lib/root-data.ts'
import { publicObjectUrl } from '../lib/storage/storage-settings.ts'
import { FileUpload } from './file-upload.tsx'

/**
 * Uploads an image for content (screenshots, covers, images in Markdown) into the uploader's
 * own public folder, `public/{identityId}/{folder}/…`: the server accepts only such keys of the
 * author (features/uploads/owned-images.server.ts), and pages show them without signing.
 */
export function ContentImageUpload(props: {
  label: string
  folder: string
  onUploaded(image: { key: string; url: string; name: string }): void
}) {
  const storage = useStorageSettings()
  return (
    <FileUpload
      settings={storage}
      level="public"
      label={props.label}
      accept={CONTENT_IMAGE_TYPES}
      maxBytes={CONTENT_IMAGE_MAX_BYTES}
      nameFor={(file, identityId) =>
        `${identityId}/${props.folder}/${crypto.randomUUID()}.${extensionOf(file.type)}`
      }
      onUploaded={({ key, file }) =>
        props.onUploaded({
          key,
          url: publicObjectUrl(storage, key),
          name: file.name.replace(/\.[^.]*$/, ''),
        })
      }
    />
  )
}

function extensionOf(type: string): string {
  const subtype = type.split('/')[1] ?? 'img'
  return subtype === 'jpeg' ? 'jpg' : subtype
}
