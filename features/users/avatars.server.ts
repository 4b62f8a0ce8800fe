import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import {
  type ImageStorage,
  refusalOfUploadedImage,
} from '#features/images/uploaded-image.server.ts'

/**
 * Makes an uploaded image the user's avatar, after checking that it is a public object this
 * user uploaded, of an image type and size we accept. The replaced image is removed.
 * Answers the refusal in Japanese, or undefined when done.
 */
export async function setAvatar(
  db: Kysely<DB>,
  storage: ImageStorage,
  userSub: string,
  key: string,
): Promise<string | undefined> {
  const refusal = await refusalOfUploadedImage(
    storage,
    userSub,
    key,
    'プロフィール画像',
    // Avatars predate the per-identity folders: `public/avatars/{uuid}`.
    'anywhere-public',
  )
  if (refusal) return refusal
  const previous = await replaceAvatarKey(db, userSub, key)
  if (previous === undefined) return 'プロフィールが見つかりません。'
  if (previous && previous !== key) await storage.delete(previous)
  return undefined
}

/** Goes back to the initial-letter avatar; the image is removed. */
export async function removeAvatar(
  db: Kysely<DB>,
  storage: ImageStorage,
  userSub: string,
): Promise<void> {
  const previous = await replaceAvatarKey(db, userSub, null)
  if (previous) await storage.delete(previous)
}

/**
 * Sets the avatar key and answers the one it replaced (null for none, undefined: no profile).
 * Compare-and-swap, so that of two concurrent changes each learns the key it really replaced.
 */
async function replaceAvatarKey(
  db: Kysely<DB>,
  userSub: string,
  key: string | null,
): Promise<string | null | undefined> {
  for (;;) {
    const row = await db
      .selectFrom('users')
      .select('avatar_key')
      .where('id', '=', userSub)
      .executeTakeFirst()
    if (!row) return undefined
    const previous = row.avatar_key
    const result = await db
      .updateTable('users')
      .set({ avatar_key: key, updated_at: Date.now() })
      .where('id', '=', userSub)
      .where((eb) =>
        previous === null ? eb('avatar_key', 'is', null) : eb('avatar_key', '=', previous),
      )
      .executeTakeFirst()
    if (result.numUpdatedRows > 0n) return previous
  }
}
