import { useRouteLoaderData } from 'react-router'
import type { loader } from '../root.tsx'

/** The public settings the root loader shares with every page. */
export function useSettings() {
  const data = useRouteLoaderData<typeof loader>('root')
  if (!data) throw new Error('useSettings() needs the root loader data')
  return data.settings
}
