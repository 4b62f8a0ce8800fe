import { publicPageHeaders } from '#app/lib/cache-control.ts'
import { pageMeta } from '#app/lib/meta.ts'
import type { Route } from './+types/terms'
import { LegalDocument, type LegalSection } from './legal-document.tsx'

export const headers = publicPageHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '利用規約',
    description: 'サービスを利用する際の約束ごとを定めています。',
  })

const SECTIONS: LegalSection[] = [
  {
    heading: '適用',
    paragraphs: [
      'この規約は、当サイトが提供するオンライン学習サービスの利用に関する条件を定めるものです。利用者は、この規約に同意したうえでサービスを利用するものとします。',
    ],
  },
  {
    heading: 'アカウント',
    paragraphs: [
      '利用者は、正確な情報でアカウントを登録し、自己の責任でパスワードを管理するものとします。',
      'アカウントを第三者に貸与、譲渡することはできません。',
    ],
  },
  {
    heading: '料金と支払い',
    paragraphs: [
      '無料プランは無料で利用できます。有料プランの料金と支払い方法は、料金プランのページに定めるとおりとします。',
      '有料プランはいつでも解約でき、解約後も支払い済みの期間の終わりまでは利用できます。',
    ],
  },
  {
    heading: '投稿された内容',
    paragraphs: [
      '利用者が投稿したコース、ラボ、ストーリー、スタディ、コメントなどの著作権は、投稿した利用者に帰属します。',
      '利用者は、当サイトがサービスの提供と紹介のために投稿内容を表示することを許諾するものとします。',
    ],
  },
  {
    heading: '禁止事項',
    paragraphs: [
      '法令に違反する行為、他人の権利を侵害する行為、他の利用者への嫌がらせ、サービスの運営を妨げる行為、不正なアクセスを禁止します。',
    ],
  },
  {
    heading: 'サービスの変更・停止',
    paragraphs: [
      '当サイトは、保守や障害対応のため、事前の通知のうえ（緊急の場合は事後に）サービスの全部または一部を変更、停止することがあります。',
    ],
  },
  {
    heading: '規約の変更',
    paragraphs: [
      'この規約を変更する場合は、変更の内容と効力が生じる日をサイト上でお知らせします。',
    ],
  },
]

export default function TermsPage() {
  return (
    <LegalDocument
      title="利用規約"
      lead="この利用規約（以下「本規約」）は、当サイトのサービスを利用するすべての方に適用されます。"
      sections={SECTIONS}
      effective="2026年11月22日"
    />
  )
}
