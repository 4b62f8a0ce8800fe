import { Link } from 'react-router'
import { formatDate } from '#app/lib/format.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import type { NotificationView } from '#features/social/notifications.server.ts'

const ACTIONS: Record<NotificationView['kind'], string> = {
  follow: 'あなたをフォローしました',
  like: 'にいいねしました',
  comment: 'にコメントしました',
  reply: 'についたあなたのコメントに返信しました',
}

/** One line of /notifications: who did what to which of the reader's things. */
export function NotificationItem({
  notification,
  unread,
}: {
  notification: NotificationView
  unread: boolean
}) {
  const { actor, subject, kind } = notification
  const target = subject
    ? `${subject.path}${notification.commentId ? `#comment-${notification.commentId}` : ''}`
    : `/${actor.username}`
  return (
    <Link
      to={target}
      className={`block rounded-lg border px-4 py-3 hover:bg-slate-50 dark:hover:bg-slate-900 ${
        unread
          ? 'border-brand-500 bg-brand-50 dark:border-brand-500 dark:bg-slate-900'
          : 'border-slate-200 dark:border-slate-800'
      }`}
    >
      <p>
        {unread && (
          <span className="mr-2 text-xs font-bold text-brand-700 dark:text-brand-100">未読</span>
        )}
        <span className="font-semibold">{actor.displayName}</span> さんが
        {subject ? (
          <>
            {kind === 'reply' ? '' : 'あなたの'}
            {CONTENT_KINDS[subject.kind].label}「{subject.title}」{ACTIONS[kind]}
          </>
        ) : (
          ACTIONS[kind]
        )}
      </p>
      <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
        <time dateTime={new Date(notification.createdAt).toISOString()}>
          {formatDate(notification.createdAt)}
        </time>
      </p>
    </Link>
  )
}
