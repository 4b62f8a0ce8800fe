import { IMAGE_MAX_BYTES, IMAGE_TYPES } from './image-rules.ts'

/** An object the browser uploaded, as object storage describes it to the product. */
export type UploadedObject = {
  /** The `sub` of the account whose credentials wrote it; undefined for guests or the root key. */
  uploaderSub: string | undefined
  size: number
  contentType: string | undefined
}

/** What features that show uploaded images need from object storage (wired to the site's bucket). */
export type ImageStorage = {
  /** A public object of the site's bucket, or undefined when there is none at the key. */
  describePublic(key: string): Promise<UploadedObject | undefined>
  delete(key: string): Promise<void>
}

/**
 * Why an uploaded object may not be shown as `what` (e.g. プロフィール画像), in Japanese, or
 * undefined when it may: it must be a public object this very user uploaded, of an image type
 * and size the site accepts. The browser checks type and size before uploading; this is the
 * server's word, since a client can name any key.
 */
export async function refusalOfUploadedImage(
  storage: ImageStorage,
  uploaderSub: string,
  key: string,
  what: string,
): Promise<string | undefined> {
  const object = await storage.describePublic(key)
  if (!object || object.uploaderSub !== uploaderSub) {
    return 'アップロードした画像が見つかりません。もう一度アップロードしてください。'
  }
  if (!IMAGE_TYPES.some((type) => type === object.contentType)) {
    return `${what}には PNG・JPEG・WebP・GIF の画像を選んでください。`
  }
  if (object.size > IMAGE_MAX_BYTES) return '画像が大きすぎます。20 MB 以下にしてください。'
  return undefined
}
