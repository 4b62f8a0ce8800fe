import { ContentError, type FieldErrors } from '../content-error.ts'
import { CONTENT_IMAGE_MAX_BYTES, CONTENT_IMAGE_TYPES } from './image-rules.ts'

/** A public object as object storage describes it to the content features. */
export type OwnedImage = {
  /**
   * The user-pool `sub` of the uploader, when the object lies in the uploader's own folder
   * (`public/{identityId}/…`, decision 014); undefined otherwise.
   */
  ownerSub: string | undefined
  size: number
  contentType: string | undefined
}

/** What content features ask object storage (the server wires it to the site's bucket). */
export type ContentImages = {
  /** The public object at `key`, or undefined when there is none. */
  describeOwned(key: string): Promise<OwnedImage | undefined>
}

const MISSING = 'アップロードした画像が見つかりません。もう一度アップロードしてください。'

/**
 * Refuses image keys (screenshots, covers) that are not images `ownerId` uploaded to their own
 * public folder: someone else's picture, a missing object, another type or too large. Keys
 * already saved on the item (`known`) were checked when they were added. `fields` maps each
 * key to check to the form field its message belongs to.
 */
export async function checkOwnedImages(
  images: ContentImages,
  ownerId: string,
  fields: ReadonlyMap<string, string>,
  known: ReadonlySet<string> = new Set(),
): Promise<void> {
  const errors: FieldErrors = {}
  for (const [key, field] of fields) {
    if (known.has(key)) continue
    const image = await images.describeOwned(key)
    let problem: string | undefined
    if (!image || image.ownerSub !== ownerId) problem = MISSING
    else if (!CONTENT_IMAGE_TYPES.some((type) => type === image.contentType)) {
      problem = '画像には PNG・JPEG・WebP・GIF を選んでください。'
    } else if (image.size > CONTENT_IMAGE_MAX_BYTES) {
      problem = '画像が大きすぎます。10 MB 以下にしてください。'
    }
    if (problem) errors[field] = [problem]
  }
  if (Object.keys(errors).length > 0) {
    throw new ContentError('VALIDATION_FAILED', '入力内容に誤りがあります', errors)
  }
}
