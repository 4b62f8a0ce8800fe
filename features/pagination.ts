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

/** zod schema for a cursor parameter: anything that is not a cursor we issued is a field error. */
export const cursorParameter = z
  .string()
  .max(200)
  .transform((value, context): Cursor => {
    const parsed = decodedCursor.safeParse(Buffer.from(value, 'base64url').toString('utf8'))
    if (!parsed.success) {
      context.addIssue({ code: 'custom', message: 'カーソルの形式が正しくありません' })
      return z.NEVER
    }
    return parsed.data
  })

export const pageSizeParameter = z.coerce
  .number()
  .int()
  .min(1)
  .max(MAX_PAGE_SIZE)
  .default(DEFAULT_PAGE_SIZE)

export type Page<T> = { items: T[]; nextCursor: string | null }
