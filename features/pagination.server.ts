import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Cursor } from './pagination.ts'

/**
 * The rows after `cursor` in a list ordered by (`atColumn` desc, `idColumn` desc): the
 * keyset condition every cursor-paginated list shares. The leading `at <= cursor.at` says
 * nothing the rest does not, but it is the bound an index on (…, at, id) can seek to: without
 * it SQLite walked the index from the newest row to the cursor (5,000 rows deep into a
 * catalogue of 10,000 courses: 0.34 ms instead of 0.02).
 */
export function afterCursor(
  cursor: Cursor,
  atColumn: string,
  idColumn: string,
): RawBuilder<SqlBool> {
  const at = sql.ref(atColumn)
  return sql<SqlBool>`(${at} <= ${cursor.at} and (${at} < ${cursor.at} or (${at} = ${cursor.at} and ${sql.ref(idColumn)} < ${cursor.id})))`
}
