import { useRef, useState } from 'react'
import { useRouteLoaderData } from 'react-router'
import { callApi } from '#app/lib/api/client.ts'
import { useCatchUp, useRealtimeEvent } from '#app/lib/realtime/index.ts'
import type { loader } from '#app/root.tsx'

/**
 * The bell's count, kept current while the page is open: `notifications.count` events as they
 * come, and the API's count whenever some may have been missed (the socket (re)connected, or
 * polling without one). A count the page's data loaded again since replaces the live one.
 */
export function useLiveUnreadCount(loaded: number): number {
  const apiGatewayUrl = useRouteLoaderData<typeof loader>('root')?.settings.apiGatewayUrl
  const [live, setLive] = useState<{ over: number; unread: number }>()
  // Every update gets a number: an API answer asked for before a newer update is stale (it was
  // read before the change the event announced) and is dropped.
  const updates = useRef(0)
  const enabled = apiGatewayUrl !== undefined
  useRealtimeEvent(
    'notifications.count',
    ({ unread }) => {
      updates.current += 1
      setLive({ over: loaded, unread })
    },
    enabled,
  )
  useCatchUp(() => {
    if (!apiGatewayUrl) return
    updates.current += 1
    const asked = updates.current
    callApi(apiGatewayUrl, 'social.unreadCount').then(
      ({ unread }) => {
        if (updates.current === asked) setLive({ over: loaded, unread })
      },
      // Offline or signed out meanwhile: the count shown stays until the next try.
      () => {},
    )
  }, enabled)
  return live && live.over === loaded ? live.unread : loaded
}
