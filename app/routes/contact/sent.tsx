import { Link } from 'react-router'
import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/sent'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'お問い合わせを受け付けました',
    description: 'お問い合わせの送信が完了しました。',
  })

/** Where the contact form goes once a message is accepted (a reload does not send it again). */
export default function ContactSent() {
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold">お問い合わせを受け付けました</h1>
      <div className="mt-4 flex flex-col gap-3 leading-relaxed">
        <p>
          お問い合わせありがとうございます。ご入力のメールアドレスに、受け付けの確認メールをお送りしました。
        </p>
        <p>
          内容を確認のうえ、担当者よりご連絡します。確認メールが届かない場合は、メールアドレスをご確認のうえ、もう一度お送りください。
        </p>
      </div>
      <ul className="mt-6 flex flex-wrap gap-3">
        <li>
          <Link
            to="/courses"
            className="inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            コースを見る
          </Link>
        </li>
        <li>
          <Link
            to="/"
            className="inline-block rounded-md border border-slate-300 px-4 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800"
          >
            トップページへ
          </Link>
        </li>
      </ul>
    </div>
  )
}
