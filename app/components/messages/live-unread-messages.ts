import { useState } from 'react'
import { useRouteLoaderData } from 'react-router'
import { callApi } from '#app/lib/api/client.ts'
import { useCatchUp, useRealtimeEvent } from '#app/lib/realtime/index.ts'
import type { loader } from '#app/root.tsx'

/**
 * The header's count of unread direct messages, kept current while a page is open: a message
 * from someone else, or one's own read marker moving (in another tab too), has the API count
 * again; so does every catch-up (the socket (re)connected, or polling without one). A count the
 * page's data loaded again since replaces the live one.
 */
export function useLiveUnreadMessages(loaded: number): number {
  const root = useRouteLoaderData<typeof loader>('root')
  const apiGatewayUrl = root?.settings.apiGatewayUrl
  const me = root?.user?.username
  const [live, setLive] = useState<{ over: number; unread: number }>()
  const enabled = apiGatewayUrl !== undefined && me !== undefined
  const recount = () => {
    if (!apiGatewayUrl) return
    callApi(apiGatewayUrl, 'messages.unread').then(
      ({ unread }) => setLive({ over: loaded, unread }),
      // Offline or signed out meanwhile: the count shown stays until the next try.
      () => {},
    )
  }
  useRealtimeEvent('message.created', ({ message }) => message.sender !== me && recount(), enabled)
  useRealtimeEvent('message.deleted', ({ message }) => message.sender !== me && recount(), enabled)
  useRealtimeEvent('room.read', ({ username }) => username === me && recount(), enabled)
  useCatchUp(recount, enabled)
  return live && live.over === loaded ? live.unread : loaded
}
