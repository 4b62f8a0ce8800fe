import { GUEST_CACHE_SECONDS } from '#features/api/contract.ts'

/**
 * Headers for pages that look the same to every guest: a shared cache (a CDN, or the
 * server's own page cache) may keep them for a few seconds; browsers always revalidate.
 */
export const PUBLIC_PAGE_CACHE_CONTROL = `public, max-age=0, s-maxage=${GUEST_CACHE_SECONDS}`

export function publicPageHeaders(): HeadersInit {
  return { 'Cache-Control': PUBLIC_PAGE_CACHE_CONTROL }
}
