import { Link } from 'react-router'
import { StatusFilterNav } from '#app/components/admin-parts.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { ADMIN_HEADERS, requireAdmin } from '#app/lib/admin.server.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { ContactStatus } from '#db/schema.ts'
import { listContactMessages } from '#features/contact/contact.server.ts'
import { CONTACT_STATUSES } from '#features/contact/contact-input.ts'
import type { Route } from './+types/contact-list'

export function headers() {
  return ADMIN_HEADERS
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'お問い合わせ管理', description: 'お問い合わせの一覧です。' })

const isStatus = (value: string | null): value is ContactStatus =>
  CONTACT_STATUSES.some((status) => status.value === value)

export async function loader({ context, request }: Route.LoaderArgs) {
  await requireAdmin(context, request)
  const requested = new URL(request.url).searchParams.get('status')
  const status = isStatus(requested) ? requested : undefined
  return { status: status ?? null, messages: await listContactMessages(context.db, { status }) }
}

export default function ContactList({ loaderData }: Route.ComponentProps) {
  const { status, messages } = loaderData
  const filters = [{ value: null, label: 'すべて' }, ...CONTACT_STATUSES]
  return (
    <div>
      <h1 className="text-2xl font-bold">お問い合わせ</h1>
      <StatusFilterNav
        filters={filters}
        current={status}
        path="/admin/contact"
        defaultValue={null}
      />
      {messages.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="お問い合わせはありません" />
        </div>
      ) : (
        <ul
          className="mt-6 divide-y divide-slate-200 dark:divide-slate-700"
          data-testid="contact-messages"
        >
          {messages.map((message) => (
            <li key={message.id} className="py-3">
              <Link
                to={`/admin/contact/${message.id}`}
                className="font-semibold text-brand-700 hover:underline dark:text-sky-300"
              >
                {message.name} 様（{message.categoryLabel}）
              </Link>
              <span className="ml-2 rounded bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
                {message.statusLabel}
              </span>
              <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">{message.excerpt}</p>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {message.email}・
                <time dateTime={new Date(message.createdAt).toISOString()}>
                  {formatDateTime(message.createdAt)}
                </time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
