import { useEffect, useRef, useState } from 'react'
import { data, useRevalidator } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import { NotificationItem } from '#app/components/social/notification-item.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { contentForPage, viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useCurrentUser, useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import { listNotifications, type NotificationView } from '#features/social/notifications.server.ts'
import type { Route } from './+types/notifications'

const NOTIFICATION_PAGE_SIZE = 20

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '通知',
    description: 'あなたのコンテンツへの反応とフォローの通知です。',
  })

/** The signed-in user's notifications (guests are sent to sign in first). */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const firstPage = await contentForPage(
    listNotifications(context.db, actorOf(user), { limit: NOTIFICATION_PAGE_SIZE }),
    new URL(request.url).pathname,
  )
  return data({ firstPage }, { headers: viewerCacheControl(true) })
}

export default function Notifications({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const revalidator = useRevalidator()
  // What was unread when the page opened stays marked while it is read.
  const [unreadIds] = useState(
    () => new Set(loaderData.firstPage.items.filter((item) => !item.read).map((item) => item.id)),
  )

  // Viewing the list reads it: the server marks everything read, and the header's badge
  // (the root loader's count) is loaded again. Once per visit: revalidating must not post again.
  const unreadCount = useCurrentUser()?.unreadNotifications ?? 0
  const posted = useRef(false)
  useEffect(() => {
    if (posted.current || unreadCount === 0) return
    posted.current = true
    void callApi(apiGatewayUrl, 'social.markRead').then(() => revalidator.revalidate())
  }, [unreadCount, apiGatewayUrl, revalidator])

  return (
    <div>
      <h1 className="text-2xl font-bold">通知</h1>
      {loaderData.firstPage.items.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="通知はまだありません">
            あなたのコンテンツへのいいね・コメントや、フォローされたときにここでお知らせします。
          </EmptyState>
        </div>
      ) : (
        <InfiniteList<NotificationView>
          label="通知"
          firstPage={loaderData.firstPage}
          fetchPage={(cursor) =>
            callApi(apiGatewayUrl, 'social.notifications', {
              query: { limit: NOTIFICATION_PAGE_SIZE, cursor },
            })
          }
          getKey={(item) => item.id}
          renderItem={(item) => (
            <NotificationItem notification={item} unread={unreadIds.has(item.id)} />
          )}
          className="mt-6 flex flex-col gap-3"
        />
      )}
    </div>
  )
}
