import { createPathOf, kindOfPath } from '#features/content-kinds.ts'

/** The site's main sections, shared by the header, the mobile menu and the app shell. */
export const MAIN_SECTIONS = [
  { to: '/courses', label: 'コース' },
  { to: '/exercises', label: '演習' },
  { to: '/studies', label: 'スタディ' },
  { to: '/labs', label: 'ラボ' },
  { to: '/labs_stories', label: 'ストーリー' },
  { to: '/plans', label: '料金プラン' },
] as const

/** Sections for a learner's own work, shown in the app shell. */
export const MY_SECTIONS = [
  { to: '/drafts', label: '下書き' },
  { to: '/histories', label: '学習履歴' },
  { to: '/dms', label: 'メッセージ' },
] as const

/** What a signed-in user can create: the kind's path segment, and how a button asks for it. */
export const CREATABLE = {
  courses: { label: 'コース', action: 'コースを作る', description: 'レッスンを順に学べる講座' },
  studies: { label: 'スタディ', action: 'スタディを書く', description: '学んだことのノート' },
  labs: { label: 'ラボ', action: 'ラボを作る', description: '作ったものの紹介' },
  labs_stories: {
    label: 'ラボストーリー',
    action: 'ストーリーを書く',
    description: '作る過程の記録',
  },
} as const

export type CreatableKind = keyof typeof CREATABLE

/** The seed's create page of a kind, under the user's own name. */
export function createPath(username: string, kind: CreatableKind): string {
  return createPathOf(kindOfPath(kind), username)
}

/** The create pages of every kind, for the header's 「投稿する」 menu. */
export function createLinks(username: string) {
  return (Object.keys(CREATABLE) as CreatableKind[]).map((kind) => ({
    to: createPath(username, kind),
    ...CREATABLE[kind],
  }))
}
