import { sql } from 'kysely'
import { z } from 'zod'
import { type Cursor, cursorParameter, pageSizeParameter } from '../pagination.ts'

/** `?cursor=&limit=` of the comment and notification lists. */
export const pageQuery = z.object({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})

/** Rows after `cursor` in a list ordered by (`atColumn` desc, `idColumn` desc). */
export function afterCursor(cursor: Cursor, atColumn: string, idColumn: string) {
  return sql<boolean>`(${sql.ref(atColumn)} < ${cursor.at} or (${sql.ref(atColumn)} = ${cursor.at} and ${sql.ref(idColumn)} < ${cursor.id}))`
}
