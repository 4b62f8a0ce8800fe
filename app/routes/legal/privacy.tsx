import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/privacy'
import { LegalDocument, type LegalSection } from './legal-document.tsx'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'プライバシーポリシー',
    description: '個人情報の取り扱いについて定めています。',
  })

const SECTIONS: LegalSection[] = [
  {
    heading: '取得する情報',
    paragraphs: [
      '当サイトは、アカウント登録の際にユーザー名、メールアドレス、パスワードの検証情報を取得します。パスワードそのものは保存しません。',
      'サービスの利用に伴い、学習の記録、投稿した内容、アップロードしたファイル、アクセス日時や端末の情報を取得します。',
    ],
  },
  {
    heading: '利用の目的',
    paragraphs: [
      '取得した情報は、本人確認、学習サービスの提供、学習状況の表示、お問い合わせへの回答、不正利用の防止、サービスの改善のために利用します。',
    ],
  },
  {
    heading: '第三者への提供',
    paragraphs: [
      '法令に基づく場合を除き、本人の同意なく個人情報を第三者に提供しません。決済は決済代行会社を通じて行い、カード番号を当サイトが保存することはありません。',
    ],
  },
  {
    heading: '安全管理',
    paragraphs: [
      '個人情報への不正なアクセス、紛失、改ざん、漏えいを防ぐため、通信の暗号化やアクセス権限の管理などの措置を講じます。',
    ],
  },
  {
    heading: '開示・訂正・削除',
    paragraphs: [
      'ご本人から個人情報の開示、訂正、利用停止、削除の求めがあった場合は、本人確認のうえ遅滞なく対応します。アカウントは設定画面からいつでも削除できます。',
    ],
  },
  {
    heading: 'お問い合わせ窓口',
    paragraphs: [
      '個人情報の取り扱いに関するお問い合わせは、お問い合わせページからご連絡ください。',
    ],
  },
]

export default function PrivacyPage() {
  return (
    <LegalDocument
      title="プライバシーポリシー"
      lead="当サイトは、利用者の個人情報を次のとおり取り扱います。"
      sections={SECTIONS}
      effective="2026年11月22日"
    />
  )
}
