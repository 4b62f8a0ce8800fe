import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { RENDERER_VERSION } from './limits.ts'
import {
  type MarkdownRenderer,
  pruneRenderedMarkdown,
  renderedHtml,
  unrenderedHtml,
} from './stored-html.server.ts'

const markdown = createMarkdownRenderer({ deadlineMs: 3000 })
afterAll(() => markdown.close())

/** The real renderer, counting the texts it is asked to render. */
function counting(): MarkdownRenderer & { sources: string[] } {
  const sources: string[] = []
  return {
    sources,
    render(source) {
      sources.push(source)
      return markdown.render(source)
    },
    imageSources: (source) => markdown.imageSources(source),
  }
}

describe.each(testEngines)('stored renderings on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  beforeAll(async () => {
    database = await openTestDatabase(engine)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await database.db.deleteFrom('rendered_markdown').execute()
  })

  it('renders each version of a text once, and again after an edit or a new renderer', async () => {
    const renderer = counting()
    const first = { kind: 'study', id: 's1', source: '**一**' } as const
    const second = { kind: 'comment', id: 'c1', source: '*二*' } as const
    expect(await renderedHtml(database.db, renderer, [first, second])).toEqual([
      '<p><strong>一</strong></p>',
      '<p><em>二</em></p>',
    ])
    expect(await renderedHtml(database.db, renderer, [first, second])).toEqual([
      '<p><strong>一</strong></p>',
      '<p><em>二</em></p>',
    ])
    expect(renderer.sources).toEqual(['**一**', '*二*'])

    const edited = { ...first, source: '**改**' }
    expect(await renderedHtml(database.db, renderer, [edited])).toEqual([
      '<p><strong>改</strong></p>',
    ])
    await database.db
      .updateTable('rendered_markdown')
      .set({ renderer_version: RENDERER_VERSION - 1 })
      .where('subject_id', '=', 'c1')
      .execute()
    await renderedHtml(database.db, renderer, [edited, second])
    expect(renderer.sources).toEqual(['**一**', '*二*', '**改**', '*二*'])
  })

  it('prunes the renderings of texts that no longer exist', async () => {
    const now = Date.now()
    await database.db
      .insertInto('users')
      .values({ id: 'u1', username: 'u1', display_name: 'U', created_at: now, updated_at: now })
      .execute()
    await database.db
      .insertInto('studies')
      .values({
        id: 'kept',
        owner_id: 'u1',
        title: 't',
        status: 'draft',
        published_at: null,
        created_at: now,
        updated_at: now,
      })
      .execute()
    const texts = [
      { kind: 'study', id: 'kept', source: 'a' },
      { kind: 'study', id: 'gone', source: 'b' },
      { kind: 'comment', id: 'kept', source: 'c' },
    ] as const
    await renderedHtml(database.db, markdown, texts)
    await pruneRenderedMarkdown(database.db)
    const left = await database.db
      .selectFrom('rendered_markdown')
      .select(['subject_kind', 'subject_id'])
      .execute()
    expect(left).toEqual([{ subject_kind: 'study', subject_id: 'kept' }])
  })

  it('shows a text the renderer gives up on as escaped text, and does not store it', async () => {
    const source = '<div>'.repeat(18000)
    const [html] = await renderedHtml(database.db, markdown, [{ kind: 'lesson', id: 'l1', source }])
    expect(html).toBe(unrenderedHtml(source))
    expect(html).toContain('&lt;div&gt;&lt;div&gt;')
    expect(html).not.toContain('<div>')
    expect(await database.db.selectFrom('rendered_markdown').selectAll().execute()).toEqual([])
  })
})
