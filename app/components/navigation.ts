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
