import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { renderMarkdown } from '#features/markdown/render.ts'
import { findUnsafeMarkup, XSS_PAYLOADS } from '#tests/support/xss.ts'
import { launchBrowser } from './browser.ts'

/**
 * The renderer's output as Chromium parses and runs it: no payload may call `alert`, and the
 * DOM Chromium builds (which can differ from the sanitiser's parser: mXSS) must be clean.
 */
let browser: Browser
let page: Page

beforeAll(async () => {
  browser = await launchBrowser()
  page = await browser.newPage()
  // Nothing leaves the machine: every request (images, scripts, frames) is refused.
  await page.route('**/*', (route) => route.abort())
})

afterAll(async () => {
  await browser?.close()
})

/** Loads the markup into a page whose `alert`, `confirm` and `prompt` count calls. */
async function load(markup: string): Promise<void> {
  await page.setContent(
    `<!doctype html><html lang="ja"><head><meta charset="utf-8"><script>
      window.__calls = 0
      window.alert = window.confirm = window.prompt = () => { window.__calls++ }
    </script></head><body><main>${markup}</main></body></html>`,
    { waitUntil: 'load' },
  )
  // Give handlers that need a user their chance: focus, hover, click and open everything.
  await page.evaluate(() => {
    for (const element of document.querySelectorAll<HTMLElement>('main *')) {
      element.focus()
      for (const type of ['mouseover', 'mouseenter', 'click', 'toggle']) {
        element.dispatchEvent(new Event(type, { bubbles: true }))
      }
      if (element instanceof HTMLDetailsElement) element.open = true
    }
  })
}

const calls = () => page.evaluate(() => (window as unknown as { __calls: number }).__calls)

describe('rendered Markdown in Chromium', () => {
  test('the harness sees a payload run when it is not sanitised', async () => {
    await load('<img src="x" onerror="alert(1)"><p onmouseover="alert(2)">x</p>')
    expect(await calls()).toBe(2)
    const main = await page.$('main')
    expect(await main?.evaluate(findUnsafeMarkup)).toEqual(['img[onerror]', 'p[onmouseover]'])
  })

  test.each(XSS_PAYLOADS)('%s runs nothing and leaves no unsafe markup', async (payload) => {
    await load(renderMarkdown(payload))
    expect(await calls()).toBe(0)
    const main = await page.$('main')
    expect(await main?.evaluate(findUnsafeMarkup)).toEqual([])
  })
})
