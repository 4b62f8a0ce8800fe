/** What content images may be: checked in the browser before upload and by the server after. */
export const CONTENT_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif'] as const
export const CONTENT_IMAGE_MAX_BYTES = 10 * 1024 * 1024
