import type { EmptyStateAction } from '#app/components/empty-state.tsx'

/**
 * Pages whose feature arrives with a later piece of work. Each still has its real title,
 * heading and a Japanese empty state that tells the reader what will be here and where to
 * go meanwhile. When a feature lands, its route gets its own module and leaves this table.
 */
export type UpcomingPage = {
  title: string
  description: string
  heading: string
  emptyTitle: string
  emptyBody: string
  actions: readonly EmptyStateAction[]
}

const BROWSE: EmptyStateAction = { to: '/courses', label: 'コースを見る' }
const SIGN_UP: EmptyStateAction = { to: '/auth/signup', label: '無料で始める' }

export const UPCOMING_PAGES: Record<string, UpcomingPage> = {
  dms: {
    title: 'メッセージ',
    description: 'ほかの学習者とのダイレクトメッセージです。',
    heading: 'メッセージ',
    emptyTitle: 'メッセージはまだありません',
    emptyBody: 'ログインすると、プロフィールページからほかの学習者にメッセージを送れます。',
    actions: [SIGN_UP],
  },
  'dm-room': {
    title: 'メッセージ',
    description: 'ダイレクトメッセージのやりとりです。',
    heading: 'メッセージ',
    emptyTitle: 'このメッセージルームは表示できません',
    emptyBody: 'メッセージを読むにはログインが必要です。',
    actions: [{ to: '/dms', label: 'メッセージ一覧へ' }],
  },
  plans: {
    title: '料金プラン',
    description: '無料プランと有料プランの比較です。',
    heading: '料金プラン',
    emptyTitle: '有料プランのお申し込みは準備中です',
    emptyBody:
      '無料プランでは、無料のコースと演習、ラボやストーリーの投稿ができます。有料プランではすべてのコースとプレミアム演習が使えるようになります。',
    actions: [SIGN_UP, BROWSE],
  },
}
