/** What may be shown as an uploaded picture: checked in the browser before upload and by the server after. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** Photos straight from a phone run to 10–15 MB; more than this is not a picture for a page. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
}

/** A fresh object name for an uploaded picture, under `folder` (e.g. `avatars`). */
export function imageObjectName(folder: string, file: { type: string }): string {
  return `${folder}/${crypto.randomUUID()}.${EXTENSIONS[file.type] ?? 'img'}`
}
