import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Cursor } from './pagination.ts'

/**
 * The rows after `cursor` in a list ordered by (`atColumn` desc, `idColumn` desc): the
 * keyset condition every cursor-paginated list shares.
 */
export function afterCursor(
  cursor: Cursor,
  atColumn: string,
  idColumn: string,
): RawBuilder<SqlBool> {
  const at = sql.ref(atColumn)
  return sql<SqlBool>`(${at} < ${cursor.at} or (${at} = ${cursor.at} and ${sql.ref(idColumn)} < ${cursor.id}))`
}
