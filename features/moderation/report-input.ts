import { z } from 'zod'
import type { ModerationSubjectKind, ReportReason } from '#db/schema.ts'
import { REPORT_NOTE_MAX, REPORT_REASONS, REPORT_SUBJECTS } from './report-labels.ts'

export { REPORT_NOTE_MAX, REPORT_REASONS, REPORT_SUBJECTS }

const kinds = Object.keys(REPORT_SUBJECTS) as [ModerationSubjectKind, ...ModerationSubjectKind[]]
const reasons = Object.keys(REPORT_REASONS) as [ReportReason, ...ReportReason[]]

export const moderationSubjectKind = z.enum(kinds)

/** A report as the form and /api send it. A user is named by their username, items by id. */
export const reportInput = z.object({
  kind: moderationSubjectKind,
  id: z.string().min(1).max(64),
  reason: z.enum(reasons, { error: '理由を選んでください' }),
  note: z
    .string()
    .trim()
    .max(
      REPORT_NOTE_MAX,
      `補足は ${REPORT_NOTE_MAX.toLocaleString('ja-JP')} 文字以内で入力してください`,
    )
    .default(''),
})

export type ReportInput = z.input<typeof reportInput>

/** The answer to a report: stored (a new one, or the reporter's open one updated). */
export const reportReceipt = z.object({ id: z.string(), updated: z.boolean() })

/** What an admin may do to a reported item, and the note they leave (shown to the author on a hide). */
export const moderationNote = z
  .string()
  .trim()
  .max(
    REPORT_NOTE_MAX,
    `メモは ${REPORT_NOTE_MAX.toLocaleString('ja-JP')} 文字以内で入力してください`,
  )
  .default('')
