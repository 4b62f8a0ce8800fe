import { useRouteLoaderData } from 'react-router'
import type { loader } from '#app/root.tsx'

/** The public settings the root loader shares with every page. */
export function useSettings() {
  const data = useRouteLoaderData<typeof loader>('root')
  if (!data) throw new Error('useSettings() needs the root loader data')
  return data.settings
}

/** The signed-in user as the server saw them for this page, or null for a guest. */
export type CurrentUser = NonNullable<RootData['user']>
type RootData = Awaited<ReturnType<typeof loader>>

export function useCurrentUser(): CurrentUser | null {
  return useRouteLoaderData<typeof loader>('root')?.user ?? null
}

/** Amplify's public settings and what the identity services can do. */
export function useIdentitySettings() {
  const data = useRouteLoaderData<typeof loader>('root')
  if (!data) throw new Error('useIdentitySettings() needs the root loader data')
  return data.identity
}

/** Where the browser uploads files, and how public objects are addressed. */
export function useStorageSettings() {
  const data = useRouteLoaderData<typeof loader>('root')
  if (!data) throw new Error('useStorageSettings() needs the root loader data')
  return data.storage
}
