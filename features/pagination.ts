import { z } from 'zod'

/** A position in a list ordered by (time desc, id desc); opaque to clients. */
export type Cursor = { at: number; id: string }

export const DEFAULT_PAGE_SIZE = 20
export const MAX_PAGE_SIZE = 50

export function encodeCursor(cursor: Cursor): string {
  return Buffer.from(`${cursor.at}:${cursor.id}`, 'utf8').toString('base64url')
}

const decodedCursor = z
  .string()
  .regex(/^\d{1,16}:[0-9a-z]{1,64}$/)
  .transform((value): Cursor => {
    const separator = value.indexOf(':')
    return { at: Number(value.slice(0, separator)), id: value.slice(separator + 1) }
  })

const INVALID_CURSOR = 'カーソルの形式が正しくありません'

/** zod schema for a cursor parameter: anything that is not a cursor we issued is a field error. */
export const cursorParameter = z
  .string({ error: INVALID_CURSOR })
  .max(200, INVALID_CURSOR)
  .transform((value, context): Cursor => {
    const parsed = decodedCursor.safeParse(Buffer.from(value, 'base64url').toString('utf8'))
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: INVALID_CURSOR })
      return z.NEVER
    }
    return parsed.data
  })

const INVALID_PAGE_SIZE = `件数は 1 から ${MAX_PAGE_SIZE} までの整数で指定してください`

export const pageSizeParameter = z.coerce
  .number({ error: INVALID_PAGE_SIZE })
  .int(INVALID_PAGE_SIZE)
  .min(1, INVALID_PAGE_SIZE)
  .max(MAX_PAGE_SIZE, INVALID_PAGE_SIZE)
  .default(DEFAULT_PAGE_SIZE)

export type Page<T> = { items: T[]; nextCursor: string | null }

/** A page from `limit + 1` rows fetched in list order: the extra row only says more follow. */
export function pageFrom<T>(
  rows: readonly T[],
  limit: number,
  cursorOf: (item: T) => Cursor,
): Page<T> {
  const items = rows.slice(0, limit)
  const last = items.at(-1)
  return {
    items,
    nextCursor: rows.length > limit && last ? encodeCursor(cursorOf(last)) : null,
  }
}

/** The query of a plain cursor-paginated list: `?cursor=…&limit=…`. */
export const pageQuery = z.object({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type PageQuery = z.infer<typeof pageQuery>
