import type { EditableKind } from '#features/editable-item.server.ts'

/** Labs and lab stories under the shared ownership and revision checks (editable-item.server.ts). */
export const LAB: EditableKind<'labs'> = {
  table: 'labs',
  notFound: 'ラボが見つかりません',
  forbidden: 'このラボを編集できるのは作成者だけです',
}

export const LAB_STORY: EditableKind<'lab_stories'> = {
  table: 'lab_stories',
  notFound: 'ストーリーが見つかりません',
  forbidden: 'このストーリーを編集できるのは作成者だけです',
}
