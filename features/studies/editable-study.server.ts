import type { EditableKind } from '#features/editable-item.server.ts'

/** Studies under the shared ownership and revision checks (features/editable-item.server.ts). */
export const STUDY: EditableKind<'studies'> = {
  table: 'studies',
  notFound: 'スタディが見つかりません',
  forbidden: 'このスタディを編集できるのは作成者だけです',
}
