/**
 * Amplify's auth functions, configured for this site. Downloaded on first use (a sign-in
 * screen, the settings page, a session to refresh), never by pages that only read.
 */
export type AuthModule = typeof import('./amplify.client.ts')

let loading: Promise<AuthModule> | undefined

export function loadAuth(): Promise<AuthModule> {
  if (typeof window === 'undefined') {
    return Promise.reject(new Error('Amplify runs in the browser only'))
  }
  loading ??= import('./amplify.client.ts').catch((error: unknown) => {
    loading = undefined
    throw error
  })
  return loading
}
