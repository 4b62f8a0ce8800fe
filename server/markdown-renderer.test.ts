import { afterEach, describe, expect, it } from 'vitest'
import { createMarkdownRenderer } from './markdown-renderer.ts'

describe('createMarkdownRenderer', () => {
  const renderers: { close(): Promise<void> }[] = []
  const renderer = (options: { deadlineMs?: number } = {}) => {
    const created = createMarkdownRenderer(options)
    renderers.push(created)
    return created
  }
  afterEach(async () => {
    for (const created of renderers.splice(0)) await created.close()
  })

  it('renders with the one pipeline, on its own thread', async () => {
    const html = await renderer().render('# 見出し\n\n```ts\nconst a = 1\n```')
    expect(html).toContain('<h1 id="見出し">見出し</h1>')
    expect(html).toContain('data-language="ts"')
  })

  it('answers an error for a text that overflows the stack, and keeps working', async () => {
    const shared = renderer()
    await expect(shared.render('<div>'.repeat(18000))).rejects.toThrow(/call stack/)
    expect(await shared.render('*a*')).toBe('<p><em>a</em></p>')
  })

  it('stops a render past its deadline, then renders the next text on a new thread', async () => {
    const shared = renderer({ deadlineMs: 3000 })
    // Unbounded by the save-time checks (it predates them): seconds of work.
    const slow = shared.render('*a**'.repeat(22500))
    const next = shared.render('次の本文')
    await expect(slow).rejects.toThrow(/within 3000 ms/)
    // A second ask for the same text fails at once instead of spending the deadline again.
    await expect(shared.render('*a**'.repeat(22500))).rejects.toThrow(/failed recently/)
    expect(await next).toBe('<p>次の本文</p>')
  })

  it('reads the image addresses of a body on its thread, within the same deadline', async () => {
    const shared = renderer({ deadlineMs: 3000 })
    const body =
      '![a](https://example.com/a.png)\n\n<img src="/s3/site/public/b.png">\n\n![c][c]\n\n[c]: https://example.com/c.png'
    expect(await shared.imageSources(body)).toEqual([
      'https://example.com/a.png',
      '/s3/site/public/b.png',
      'https://example.com/c.png',
    ])
    expect(await shared.imageSources('  ')).toEqual([])
    // Nested lists within the structure bounds: far more than the deadline of parsing.
    const slow = `${'- '.repeat(21)}a\n`.repeat(4700)
    await expect(shared.imageSources(slow)).rejects.toThrow(/within 3000 ms/)
    expect(await shared.imageSources('![次](https://example.com/next.png)')).toEqual([
      'https://example.com/next.png',
    ])
  })
})
