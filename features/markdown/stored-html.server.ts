import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB, RenderedKind } from '#db/schema.ts'
import { RENDERER_VERSION } from './limits.ts'
import type { MarkdownFlavour } from './render.ts'

/**
 * Renders Markdown away from the thread that answers requests, within a deadline; rejects when
 * the text could not be rendered in time or at all (server/markdown-renderer.ts).
 */
export type MarkdownRenderer = {
  render(source: string, flavour?: MarkdownFlavour): Promise<string>
  /** The addresses of the images a full-flavour text shows (features/markdown/images.ts). */
  imageSources(source: string): Promise<string[]>
}

/** A user's Markdown text and what it belongs to. */
export type MarkdownText = { kind: RenderedKind; id: string; source: string }

function sourceHash(source: string): string {
  return createHash('sha256').update(source).digest('hex')
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }

/**
 * What a reader sees of a text the renderer gave up on: the text as written, escaped. Not
 * stored, so a later read (after the renderer's short memory of failures) tries again.
 */
export function unrenderedHtml(source: string): string {
  const text = source.replace(/[&<>"]/g, (character) => ESCAPES[character] ?? character)
  return `<p>この本文は整形に時間がかかりすぎるため、書かれたままの文字で表示しています。</p><pre class="markdown-unrendered">${text}</pre>`
}

/**
 * The sanitised HTML of each text, in order: the stored rendering while it is of this text and
 * this renderer version, else rendered now by `renderer` (off this thread, with a deadline)
 * and stored, so that each version of a text is rendered once, not on every request.
 */
export async function renderedHtml(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  texts: readonly MarkdownText[],
  now = Date.now(),
): Promise<string[]> {
  if (texts.length === 0) return []
  const rows = await db
    .selectFrom('rendered_markdown')
    .select(['subject_kind', 'subject_id', 'source_hash', 'renderer_version', 'html'])
    .where('subject_kind', 'in', [...new Set(texts.map((text) => text.kind))])
    .where('subject_id', 'in', [...new Set(texts.map((text) => text.id))])
    .execute()
  const stored = new Map(rows.map((row) => [`${row.subject_kind}:${row.subject_id}`, row]))
  return Promise.all(
    texts.map(async (text) => {
      if (text.source.trim() === '') return ''
      const hash = sourceHash(text.source)
      const row = stored.get(`${text.kind}:${text.id}`)
      if (row?.source_hash === hash && row.renderer_version === RENDERER_VERSION) return row.html
      let html: string
      try {
        // Comments are plain Markdown, without raw HTML (features/markdown/render.ts).
        html = await renderer.render(text.source, text.kind === 'comment' ? 'plain' : 'full')
      } catch {
        return unrenderedHtml(text.source)
      }
      const rendering = {
        source_hash: hash,
        renderer_version: RENDERER_VERSION,
        html,
        rendered_at: now,
      }
      await db
        .insertInto('rendered_markdown')
        .values({ subject_kind: text.kind, subject_id: text.id, ...rendering })
        .onConflict((conflict) =>
          conflict.columns(['subject_kind', 'subject_id']).doUpdateSet(rendering),
        )
        .execute()
      return html
    }),
  )
}

const RENDERED_TABLES = {
  lesson: 'lessons',
  study: 'studies',
  lab: 'labs',
  lab_story: 'lab_stories',
  comment: 'comments',
  question_prompt: 'questions',
  question_explanation: 'questions',
} as const satisfies Record<RenderedKind, keyof DB>

/**
 * Deletes the renderings of texts that no longer exist (their item or comment was deleted);
 * they are never shown, only kept. Run at start: one anti-join per kind.
 */
export async function pruneRenderedMarkdown(db: Kysely<DB>): Promise<void> {
  for (const [kind, table] of Object.entries(RENDERED_TABLES)) {
    await db
      .deleteFrom('rendered_markdown')
      .where('subject_kind', '=', kind as RenderedKind)
      .where('subject_id', 'not in', db.selectFrom(table).select('id'))
      .execute()
  }
}

/** One text's HTML (see `renderedHtml`). */
export async function renderedHtmlOf(
  db: Kysely<DB>,
  renderer: MarkdownRenderer,
  text: MarkdownText,
): Promise<string> {
  const [html] = await renderedHtml(db, renderer, [text])
  return html ?? ''
}
