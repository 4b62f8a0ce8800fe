import { Link } from 'react-router'
import { profilePath } from '#features/content-kinds.ts'
import { Section } from './section.tsx'

/** The account's fixed facts: username, email, and the profile's address. */
export function AccountSummary({ username, email }: { username: string; email: string | null }) {
  return (
    <Section title="アカウント">
      <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-600 dark:text-slate-400">ユーザー名</dt>
        <dd className="font-semibold break-all">{username}</dd>
        <dt className="text-slate-600 dark:text-slate-400">メールアドレス</dt>
        <dd className="break-all">{email ?? '未登録'}</dd>
        <dt className="text-slate-600 dark:text-slate-400">プロフィール</dt>
        <dd>
          <Link
            to={profilePath(username)}
            className="font-semibold text-brand-600 underline underline-offset-3 dark:text-sky-300"
          >
            /{username}
          </Link>
        </dd>
      </dl>
    </Section>
  )
}
