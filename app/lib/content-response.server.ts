import { data, redirect } from 'react-router'
import { ContentError } from '#features/content-error.ts'
import { PUBLIC_PAGE_CACHE_CONTROL } from './cache-control.ts'
import { query } from './query-string.ts'

/**
 * A content feature's answer for a page loader: its errors become the error page with their
 * status (a guest is sent to sign in first, then back to `returnTo`).
 */
export async function contentForPage<T>(work: Promise<T>, returnTo: string): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    if (error.code === 'SIGN_IN_REQUIRED') {
      throw redirect(`/auth/signin${query({ redirectTo: returnTo })}`)
    }
    throw data(error.message, { status: error.httpStatus, statusText: error.message })
  }
}

/** Pages that differ per viewer are private; only what every guest sees may be shared. */
export function viewerCacheControl(signedIn: boolean): HeadersInit {
  return { 'Cache-Control': signedIn ? 'private, no-store' : PUBLIC_PAGE_CACHE_CONTROL }
}
