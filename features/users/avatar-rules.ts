/** What may be a profile picture: checked in the browser before upload and by the server after. */
export const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
/** Photos straight from a phone run to 10–15 MB; more than this is not a profile picture. */
export const AVATAR_MAX_BYTES = 20 * 1024 * 1024
