import { data, Link, redirect, useRevalidator } from 'react-router'
import { Avatar } from '#app/components/avatar.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useCatchUp, useRealtimeEvent } from '#app/lib/realtime/index.ts'
import { useStorageSettings } from '#app/lib/root-data.ts'
import { publicObjectUrl } from '#app/lib/storage/storage-settings.ts'
import { actorOf } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { listRooms, openRoom } from '#features/messages/rooms.server.ts'
import type { Route } from './+types/list'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'メッセージ',
    description: 'ほかの学習者とのダイレクトメッセージです。',
  })

/** The newest rooms; more than this many conversations is rare, and older ones page in later. */
const ROOM_PAGE_SIZE = 50

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.requireUser(request)
  const rooms = await contentForPage(
    listRooms(context.db, actorOf(user), { limit: ROOM_PAGE_SIZE }),
    '/dms',
  )
  return data({ rooms }, { headers: { 'Cache-Control': 'private, no-store' } })
}

/**
 * 「メッセージ」 on a profile posts here: the room with that user (the existing one, or a new
 * one) opens. A plain form, so it works before the page's scripts have loaded.
 */
export async function action({ context, request }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const form = await request.formData()
  const username = String(form.get('username') ?? '')
  try {
    const room = await openRoom(context.db, actorOf(user), { username }, context.contact.now())
    return redirect(`/dms/${room.id}`)
  } catch (error) {
    if (error instanceof ContentError && error.code !== 'SIGN_IN_REQUIRED') {
      throw data(error.message, { status: error.httpStatus, statusText: error.message })
    }
    throw error
  }
}

export default function DirectMessages({ loaderData }: Route.ComponentProps) {
  const storage = useStorageSettings()
  const revalidator = useRevalidator()
  // New messages move rooms up and change their counts and previews: read the list again, as
  // each arrives and whenever some may have been missed. Never skipped while a reload is under
  // way: that one may have read the list before this message was stored, and with the socket up
  // nothing else would read it again (React Router drops the older load for the newer).
  const reload = () => void revalidator.revalidate()
  useRealtimeEvent('message.created', reload)
  useRealtimeEvent('message.updated', reload)
  useRealtimeEvent('message.deleted', reload)
  useRealtimeEvent('room.read', reload)
  useCatchUp(reload)
  const { items } = loaderData.rooms
  return (
    <div className="max-w-3xl">
      <h1 className="text-2xl font-bold">メッセージ</h1>
      {items.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="メッセージはまだありません">
            ほかの学習者のプロフィールにある「メッセージ」から、やりとりを始められます。
          </EmptyState>
        </div>
      ) : (
        <ul aria-label="メッセージルーム" className="mt-6 flex flex-col gap-2" data-rooms>
          {items.map((room) => {
            const preview = room.lastMessage
              ? room.lastMessage.deleted
                ? 'メッセージは削除されました'
                : room.lastMessage.body
              : 'まだメッセージはありません'
            return (
              <li key={room.id} data-room={room.other.username}>
                <Link
                  to={`/dms/${room.id}`}
                  className="flex items-center gap-3 rounded-xl border border-slate-200 p-3 hover:bg-slate-50 dark:border-slate-800 dark:hover:bg-slate-900"
                >
                  <Avatar
                    name={room.other.displayName}
                    url={
                      room.other.avatarKey ? publicObjectUrl(storage, room.other.avatarKey) : null
                    }
                    size="small"
                  />
                  <span className="min-w-0 flex-1">
                    <span className="flex items-baseline justify-between gap-2">
                      <span className="truncate font-semibold">{room.other.displayName}</span>
                      {room.lastMessage && (
                        <time
                          dateTime={new Date(room.lastMessage.createdAt).toISOString()}
                          className="shrink-0 text-xs text-slate-600 dark:text-slate-400"
                        >
                          {formatDateTime(room.lastMessage.createdAt)}
                        </time>
                      )}
                    </span>
                    <span className="block truncate text-sm text-slate-600 dark:text-slate-400">
                      {preview}
                    </span>
                  </span>
                  {room.muted && (
                    <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                      通知オフ
                    </span>
                  )}
                  {room.unread > 0 && (
                    <span
                      data-unread={room.unread}
                      className="min-w-6 shrink-0 rounded-full bg-red-700 px-2 text-center text-xs font-bold leading-6 text-white"
                    >
                      <span className="sr-only">未読 </span>
                      {room.unread}
                      <span className="sr-only"> 件</span>
                    </span>
                  )}
                </Link>
              </li>
            )
          })}
        </ul>
      )}
    </div>
  )
}
