import type { ModerationSubjectKind, ReportReason } from '#db/schema.ts'

// Plain data, no zod: the report button is on pages guests read, whose first load must not
// bring zod (the first-load budget); report-input.ts builds its schema from these.

/** The reasons a reporter picks from, stored as keys and shown with these labels. */
export const REPORT_REASONS: Record<ReportReason, string> = {
  spam: 'スパム',
  harassment: '嫌がらせ・いじめ',
  inappropriate: '不適切な内容',
  copyright: '著作権の侵害',
  personal_info: '個人情報',
  other: 'その他',
}

/** What can be reported, with how the item is named in Japanese. */
export const REPORT_SUBJECTS: Record<ModerationSubjectKind, string> = {
  message: 'メッセージ',
  user: 'ユーザー',
  course: 'コース',
  study: 'スタディ',
  lab: 'ラボ',
  lab_story: 'ストーリー',
  comment: 'コメント',
}

export const REPORT_NOTE_MAX = 1000
