/**
 * The Markdown body limit, without zod, so the editor's preview can check it in the browser
 * without bundling the schema library.
 */
export const MARKDOWN_MAX_LENGTH = 100_000

export const MARKDOWN_TOO_LONG_MESSAGE = `本文は${MARKDOWN_MAX_LENGTH.toLocaleString('ja-JP')}文字以内で入力してください。`

/** Whether a body is over the limit (in UTF-16 code units, as `String.length` and zod count). */
export function isMarkdownTooLong(source: string): boolean {
  return source.length > MARKDOWN_MAX_LENGTH
}

/**
 * The renderer's version, bumped whenever `render.ts`'s output changes (a plugin, the sanitising
 * schema, a grammar): stored renderings of an older version are rendered again when next read
 * (features/markdown/stored-html.server.ts, decision 022).
 */
export const RENDERER_VERSION = 3
