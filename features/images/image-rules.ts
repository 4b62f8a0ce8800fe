/** What may be shown as an uploaded picture: checked in the browser before upload and by the server after. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** Photos straight from a phone run to 10–15 MB; more than this is not a picture for a page. */
export const IMAGE_MAX_BYTES = 20 * 1024 * 1024

/** How many leading bytes `sniffImageType` needs: WebP's signature ends at byte 12. */
export const IMAGE_SIGNATURE_BYTES = 12

const startsWith = (bytes: Uint8Array, signature: number[], at = 0) =>
  signature.every((byte, index) => bytes[at + index] === byte)
const ascii = (text: string) => [...text].map((character) => character.charCodeAt(0))

/**
 * The accepted image type the bytes themselves are (their signature), or undefined: what the
 * server believes instead of the Content-Type the uploader declared.
 */
export function sniffImageType(bytes: Uint8Array): (typeof IMAGE_TYPES)[number] | undefined {
  if (startsWith(bytes, [0x89, ...ascii('PNG\r\n'), 0x1a, 0x0a])) return 'image/png'
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'image/jpeg'
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'image/gif'
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'image/webp'
  return undefined
}

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
