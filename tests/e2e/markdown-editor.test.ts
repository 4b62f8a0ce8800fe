import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { createElement } from 'react'
import { renderToString } from 'react-dom/server'
import { build } from 'vite'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { collectPageErrors, launchBrowser } from './browser.ts'
import { MarkdownEditorDemo } from './fixtures/markdown-editor-demo.tsx'

/**
 * The Markdown editor in Chromium: the demo is bundled with Vite (as the app's chunks would be),
 * its server markup comes from renderToString, and the browser hydrates it. No site page has
 * an editor yet, so the page is served from memory at a made-up origin.
 */
const ORIGIN = 'http://editor.test'
const INITIAL = '# 見出し\n\n'
let outDir: string
let browser: Browser

beforeAll(async () => {
  outDir = await mkdtemp(path.join(tmpdir(), 'markdown-editor-'))
  await build({
    configFile: false,
    logLevel: 'error',
    base: '/',
    build: {
      outDir,
      manifest: true,
      rollupOptions: {
        input: path.resolve(import.meta.dirname, 'fixtures/markdown-editor-demo.tsx'),
      },
    },
  })
  browser = await launchBrowser()
})

afterAll(async () => {
  await browser?.close()
  if (outDir) await rm(outDir, { recursive: true, force: true })
})

async function openDemo(): Promise<{ page: Page; errors: string[] }> {
  const manifest = JSON.parse(await readFile(path.join(outDir, '.vite/manifest.json'), 'utf8'))
  const entry = Object.values(manifest as Record<string, { file: string; isEntry?: boolean }>).find(
    (chunk) => chunk.isEntry,
  )
  const serverMarkup = renderToString(createElement(MarkdownEditorDemo, { initial: INITIAL }))
  const html = `<!doctype html><html lang="ja"><head><meta charset="utf-8"></head><body>
    <div id="root" data-initial="${INITIAL.replaceAll('\n', '&#10;')}">${serverMarkup}</div>
    <script type="module" src="/${entry?.file}"></script></body></html>`
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } })
  const errors = collectPageErrors(page)
  await page.route('**/*', async (route) => {
    const url = new URL(route.request().url())
    if (url.origin !== ORIGIN) return route.abort()
    if (url.pathname === '/') return route.fulfill({ contentType: 'text/html', body: html })
    const file = path.join(outDir, url.pathname)
    return route.fulfill({ contentType: 'text/javascript', body: await readFile(file) })
  })
  await page.goto(`${ORIGIN}/`)
  await page.locator('.cm-content').waitFor()
  await page.locator('.markdown-body h1').waitFor()
  return { page, errors }
}

const changes = (page: Page) =>
  page.evaluate(() => (window as unknown as { __changes?: string[] }).__changes ?? [])

describe('MarkdownEditor in Chromium', () => {
  test('hydrates the server textarea into CodeMirror with a live preview', async () => {
    const { page, errors } = await openDemo()
    expect(await page.locator('textarea[name="body"]').isHidden()).toBe(true)
    await page.locator('.cm-content').click()
    await page.keyboard.press('Control+End')
    await page.keyboard.type('- [x] 完了')
    await page.locator('.markdown-body input[type="checkbox"]').waitFor()
    expect(await page.locator('textarea[name="body"]').inputValue()).toBe(`${INITIAL}- [x] 完了`)
    expect(errors).toEqual([])
    await page.close()
  })

  test('Japanese IME composition commits once, with no duplicated or lost text', async () => {
    const { page, errors } = await openDemo()
    await page.locator('.cm-content').click()
    await page.keyboard.press('Control+End')
    const cdp = await page.context().newCDPSession(page)
    // An IME session as Chromium receives it: preedit text grows, is converted, then committed.
    for (const text of ['に', 'にほ', 'にほん', '日本']) {
      await cdp.send('Input.imeSetComposition', {
        text,
        selectionStart: text.length,
        selectionEnd: text.length,
      })
    }
    await cdp.send('Input.insertText', { text: '日本' })
    for (const text of ['ご', 'ご。']) {
      await cdp.send('Input.imeSetComposition', {
        text,
        selectionStart: text.length,
        selectionEnd: text.length,
      })
    }
    await cdp.send('Input.insertText', { text: '語。' })
    await page.locator('.markdown-body p', { hasText: '日本語。' }).waitFor()
    expect(await page.locator('.cm-line').allTextContents()).toEqual(['# 見出し', '', '日本語。'])
    expect(await page.locator('textarea[name="body"]').inputValue()).toBe(`${INITIAL}日本語。`)
    expect((await changes(page)).at(-1)).toBe(`${INITIAL}日本語。`)
    expect(errors).toEqual([])
    await page.close()
  })
})
