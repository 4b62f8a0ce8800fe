import { ContentError, type FieldErrors } from '#features/content-error.ts'
import {
  IMAGE_MAX_BYTES,
  IMAGE_SIGNATURE_BYTES,
  IMAGE_TYPES,
  sniffImageType,
} from './image-rules.ts'

/** An object the browser uploaded, as object storage describes it to the product. */
export type UploadedObject = {
  /** The `sub` of the account whose credentials wrote it; undefined for guests or the root key. */
  uploaderSub: string | undefined
  /**
   * Whether the key lies in the uploader's own folder, `public/{identityId}/…`: there the key
   * alone proves who may have written it, also on Amazon S3 where an IAM policy keeps each
   * identity to its folder and the server cannot ask who uploaded an object (decision 014).
   */
  inUploaderFolder: boolean
  size: number
  contentType: string | undefined
}

/** What features that show uploaded images need from object storage (wired to the site's bucket). */
export type ImageStorage = {
  /** A public object of the site's bucket, or undefined when there is none at the key. */
  describePublic(key: string): Promise<UploadedObject | undefined>
  /** Up to `length` first bytes of a public object (fewer when it is shorter). */
  readStart(key: string, length: number): Promise<Uint8Array>
  delete(key: string): Promise<void>
  /** The key of the site's object an image address loads, or undefined for any other address. */
  publicKeyOf(address: string): string | undefined
  /**
   * The image addresses of a Markdown body, read by the Markdown renderer off the request
   * thread within its deadline (MarkdownRenderer.imageSources); rejects when it gave up.
   */
  markdownImageSources(body: string): Promise<string[]>
}

/**
 * Why an uploaded object may not be shown as `what` (e.g. プロフィール画像), in Japanese, or
 * undefined when it may: it must be a public object this very user uploaded (into their own
 * folder, unless `place` says otherwise), of an image type and size the site accepts. The browser
 * checks type and size before uploading; this is the server's word, since a client can name any
 * key and declare any type: the object's first bytes must be a PNG, JPEG, WebP or GIF signature,
 * and its declared type one of those too, since browsers are served that type (decision 019).
 */
export async function refusalOfUploadedImage(
  storage: ImageStorage,
  uploaderSub: string,
  key: string,
  what: string,
  place: 'uploader-folder' | 'anywhere-public' = 'uploader-folder',
): Promise<string | undefined> {
  const object = await storage.describePublic(key)
  const placed = place === 'anywhere-public' || object?.inUploaderFolder === true
  if (!object || object.uploaderSub !== uploaderSub || !placed) {
    return 'アップロードした画像が見つかりません。もう一度アップロードしてください。'
  }
  if (object.size > IMAGE_MAX_BYTES) return '画像が大きすぎます。20 MB 以下にしてください。'
  const declared = IMAGE_TYPES.some((type) => type === object.contentType)
  if (!declared || !sniffImageType(await storage.readStart(key, IMAGE_SIGNATURE_BYTES))) {
    return `${what}には PNG・JPEG・WebP・GIF を選んでください。`
  }
  return undefined
}

/**
 * Refuses image keys of an item (screenshots, covers, images of a story) that are not images
 * `ownerId` uploaded: each refusal goes to the form field `fields` maps its key to. Keys already
 * saved on the item (`known`) were checked when they were added.
 */
export async function checkUploadedImages(
  images: ImageStorage,
  ownerId: string,
  fields: ReadonlyMap<string, string>,
  known: ReadonlySet<string> = new Set(),
): Promise<void> {
  const errors: FieldErrors = {}
  for (const [key, field] of fields) {
    if (known.has(key)) continue
    const refusal = await refusalOfUploadedImage(images, ownerId, key, '画像')
    if (refusal) errors[field] = [refusal]
  }
  if (Object.keys(errors).length > 0) {
    throw new ContentError('VALIDATION_FAILED', '入力内容に誤りがあります', errors)
  }
}

/** New images of the site's storage one save of a Markdown body may add (each costs reads). */
export const MARKDOWN_NEW_IMAGES_MAX = 20

/** Why a body whose images could not be read in time is not saved, for its form field. */
export const MARKDOWN_IMAGES_UNREADABLE_MESSAGE =
  '本文の書き方が複雑すぎて、画像を確かめきれませんでした。記号の続く部分を減らすか、段落を分けてからもう一度保存してください。'

async function storedImageKeys(images: ImageStorage, body: string): Promise<Set<string>> {
  const keys = new Set<string>()
  for (const address of await images.markdownImageSources(body)) {
    const key = images.publicKeyOf(address)
    if (key !== undefined) keys.add(key)
  }
  return keys
}

/**
 * Refuses a Markdown body (of form field `field`) showing an image of the site's storage that
 * `ownerId` did not upload, or that is not an image by its bytes: the editor uploads a picture
 * and inserts its public address, but a client can write any address into the text. Images
 * already in the saved body were checked when added; external https images are left alone
 * (they load as images and cannot run as the site).
 */
export async function checkMarkdownImages(
  images: ImageStorage,
  ownerId: string,
  field: string,
  body: string,
  savedBody = '',
): Promise<void> {
  if (body === savedBody) return
  const refuse = (message: string): never => {
    throw new ContentError('VALIDATION_FAILED', '入力内容に誤りがあります', { [field]: [message] })
  }
  // A saved body that cannot be read (stored before the bounds) vouches for none of its images.
  const saved = await storedImageKeys(images, savedBody).catch(() => new Set<string>())
  // A new body whose images cannot be read is refused whole: nothing of it is written.
  const current = await storedImageKeys(images, body).catch(() =>
    refuse(MARKDOWN_IMAGES_UNREADABLE_MESSAGE),
  )
  const added = [...current].filter((key) => !saved.has(key))
  if (added.length > MARKDOWN_NEW_IMAGES_MAX) {
    refuse(`新しい画像は1回の保存につき${MARKDOWN_NEW_IMAGES_MAX}枚までにしてください。`)
  }
  for (const key of added) {
    const refusal = await refusalOfUploadedImage(images, ownerId, key, '本文の画像')
    if (refusal) refuse(refusal)
  }
}
