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
  exercises: {
    title: '演習',
    description: 'スタディに含まれる演習問題の一覧です。',
    heading: '演習',
    emptyTitle: '公開中の演習はまだありません',
    emptyBody: '選択問題、記述問題、JavaScript や Python のコード問題が、ここに並びます。',
    actions: [BROWSE],
  },

  'exercises-of-study': {
    title: 'スタディの演習',
    description: 'このスタディに含まれる演習問題です。',
    heading: '演習',
    emptyTitle: 'このスタディの演習はまだありません',
    emptyBody: '演習が公開されると、ここで問題に答えてすぐに結果と解説を確かめられます。',
    actions: [{ to: '/exercises', label: '演習の一覧へ' }],
  },
  'exercise-create': editorPage('演習の作成', '演習'),
  'exercises-edit': editorPage('演習の編集', '演習'),
  'question-edit': editorPage('問題の編集', '問題'),
}

function editorPage(title: string, kind: string): UpcomingPage {
  return {
    title,
    description: `${kind}を書いて、下書き保存や公開をする画面です。`,
    heading: title,
    emptyTitle: `${kind}を書くにはログインが必要です`,
    emptyBody: `${kind}の作成と編集は、ログインした本人だけができます。書いた内容は下書きとして自動で保存されます。`,
    actions: [SIGN_UP, { to: '/drafts', label: '下書き一覧へ' }],
  }
}
