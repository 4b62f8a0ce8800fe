import { z } from 'zod'

/** The longest Markdown body we store or render, in characters (UTF-16 code units, as JS counts). */
export const MARKDOWN_MAX_LENGTH = 100_000

/** A Markdown body at a boundary: refused with a Japanese message when too long, never rendered. */
export const markdownBodySchema = z
  .string({ error: '本文を文字列で入力してください。' })
  .max(MARKDOWN_MAX_LENGTH, {
    error: `本文は${MARKDOWN_MAX_LENGTH.toLocaleString('ja-JP')}文字以内で入力してください。`,
  })
