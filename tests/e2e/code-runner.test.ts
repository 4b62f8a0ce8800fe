import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import type { LoadProgress } from '#app/lib/code-runner/browser-runner.ts'
import {
  type CodeRunRequest,
  type CodeRunResult,
  MAX_OUTPUT_BYTES,
} from '#features/exercises/code-run.ts'
import { axeViolationsInBothThemes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { builtChunk } from './built-chunks.ts'
import { browserSuite } from './suite.ts'

/**
 * The browser's code runners (app/lib/code-runner, docs/decisions/032) in Chromium, loaded into
 * a page of the site (same origin, same page policy as the exercise pages): programs run with
 * stdin and captured output, stop at their time limit and output cap, report the learner's
 * line, and cannot act as the site — no network, no cookies, no storage, no other scripts.
 */
const suite = browserSuite()

const runnerUrl = builtChunk('code-runner')
const panelUrl = builtChunk('code-run-panel-mount')

type Window = {
  __runner?: { run(request: CodeRunRequest): Promise<CodeRunResult> }
  __progress: LoadProgress[]
}

async function runnerPage(): Promise<{ page: Page; requests: string[] }> {
  const page = await suite.newPage()
  const requests: string[] = []
  // What the page and its workers asked for and got an answer to: a request the worker's policy
  // blocks is never sent, so never answered.
  page.context().on('response', (response) => requests.push(response.url()))
  await page.goto('/')
  await waitForHydration(page)
  return { page, requests }
}

async function run(page: Page, request: Partial<CodeRunRequest> & { code: string }) {
  const full: CodeRunRequest = { language: 'javascript', stdin: '', timeLimitMs: 2000, ...request }
  // A string, so that the test runner's transform leaves this import() alone.
  await page.evaluate(`window.__module ??= import(${JSON.stringify(runnerUrl)})`)
  return page.evaluate(async (request) => {
    const w = window as unknown as Window & {
      __module: Promise<typeof import('#app/lib/code-runner/browser-runner.ts')>
    }
    if (!w.__runner) {
      w.__progress = []
      const module = await w.__module
      w.__runner = module.createBrowserRunner({ onProgress: (p) => w.__progress.push(p) })
    }
    return w.__runner.run(request)
  }, full)
}

let page: Page
let requests: string[]
let errors: string[]

beforeAll(async () => {
  ;({ page, requests } = await runnerPage())
  errors = collectPageErrors(page)
})

describe('the JavaScript runner', () => {
  test('runs a program with stdin and captured console', async () => {
    const result = await run(page, {
      code: [
        'const name = input()',
        'const n = Number(input())',
        'console.log("こんにちは、" + name + "さん", n * 2)',
        'console.log([1, "a"], { b: true })',
        'console.error("warning")',
        'console.log(input())',
      ].join('\n'),
      stdin: 'ハナ\n21\n',
    })
    expect(result).toMatchObject({
      outcome: 'completed',
      stdout: "こんにちは、ハナさん 42\n[ 1, 'a' ] { b: true }\nnull\n",
      stderr: 'warning\n',
    })
  })

  test('waits for the timers a program sets, and reports errors with the learner’s line', async () => {
    expect(
      await run(page, { code: 'setTimeout(() => console.log("later"), 20)\nconsole.log("now")' }),
    ).toMatchObject({ outcome: 'completed', stdout: 'now\nlater\n' })
    expect(await run(page, { code: 'const a = 1\nlet b = ;\n' })).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('SyntaxError'), line: 2 },
    })
    expect(await run(page, { code: 'console.log("before")\n\nnull.x\n' })).toMatchObject({
      outcome: 'error',
      stdout: 'before\n',
      error: { message: expect.stringContaining('TypeError'), line: 3 },
    })
    expect(
      await run(page, { code: 'function f() {\n  missing()\n}\nsetTimeout(f, 0)' }),
    ).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('ReferenceError'), line: 2 },
    })
  })

  test('ends an endless loop at the time limit, then runs the next program', async () => {
    const started = Date.now()
    const result = await run(page, {
      code: 'console.log("start")\nwhile (true) {}',
      timeLimitMs: 500,
    })
    expect(result).toMatchObject({ outcome: 'timeout', stdout: 'start\n', durationMs: 500 })
    expect(Date.now() - started).toBeLessThan(5000)
    expect(await run(page, { code: 'console.log("again")' })).toMatchObject({
      outcome: 'completed',
      stdout: 'again\n',
    })
  })

  test('stops a program at the output cap', async () => {
    const result = await run(page, { code: 'for (;;) console.log("あいうえお".repeat(10))' })
    expect(result.outcome).toBe('output-limit')
    expect(new TextEncoder().encode(result.stdout + result.stderr).byteLength).toBeLessThanOrEqual(
      MAX_OUTPUT_BYTES,
    )
    expect(result.stdout.length).toBeGreaterThan(MAX_OUTPUT_BYTES / 4)
  })

  test('cannot reach the network, the page, its cookies or storage, or other scripts', async () => {
    const probe = [
      'const tries = {',
      '  fetch: () => fetch("/api/health"),',
      '  xhr: () => new XMLHttpRequest(),',
      '  websocket: () => new WebSocket("ws://" + location.host + "/"),',
      '  eventSource: () => new EventSource("/api/health"),',
      '  document: () => document.cookie,',
      '  localStorage: () => localStorage.getItem("x"),',
      '  indexedDB: () => indexedDB.open("x"),',
      '  caches: () => caches.keys(),',
      '  storage: () => navigator.storage.getDirectory(),',
      '  locks: () => navigator.locks.request("x", () => {}),',
      '  importScripts: () => importScripts("https://example.com/x.js"),',
      '  worker: () => new Worker("/assets/x.js"),',
      '  broadcast: () => new BroadcastChannel("site"),',
      '  postMessage: () => postMessage({ type: "output", stream: "stdout", text: "forged" }),',
      '  notification: () => new Notification("x"),',
      // Nor found again on the global scope's prototypes.
      '  prototypes: () => {',
      '    for (let o = Object.getPrototypeOf(self); o; o = Object.getPrototypeOf(o)) {',
      '      for (const name of ["fetch", "postMessage", "indexedDB", "caches", "importScripts", "XMLHttpRequest"]) {',
      '        if (Object.getOwnPropertyDescriptor(o, name)) return name',
      '      }',
      '    }',
      '    throw new Error("none")',
      '  },',
      '}',
      'for (const [name, attempt] of Object.entries(tries)) {',
      '  try { await attempt(); console.log(name, "allowed") } catch (e) { console.log(name, "refused") }',
      '}',
      // import() cannot be deleted: the worker's policy refuses it (our API, another origin).
      'for (const url of ["/api/health", "https://example.com/x.js", location.origin + "/"]) {',
      '  try { await import(url); console.log(url, "allowed") } catch { console.log(url, "refused") }',
      '}',
    ].join('\n')
    // The interval keeps the run going until the probe is done (a run ends once no timer is
    // pending, as a Node program ends when nothing is left to wait for).
    const keepAlive = 'const alive = setInterval(() => {}, 10)'
    const code = `${keepAlive}\n;(async () => {\n${probe}\n})().finally(() => clearInterval(alive))`
    const result = await run(page, { code })
    expect(result.outcome).toBe('completed')
    const lines = result.stdout.trim().split('\n')
    expect(lines).toHaveLength(19)
    for (const line of lines) expect(line).toMatch(/ refused$/)
    expect(requests.filter((url) => url.includes('/api/') || url.includes('example.com'))).toEqual(
      [],
    )
  })
})

describe('the Python runner', () => {
  test('loads Pyodide from this site on first use, with progress', async () => {
    const before = requests.length
    const result = await run(page, {
      language: 'python',
      code: 'name = input()\nprint(f"こんにちは、{name}さん")\nprint(int(input()) * 2)',
      stdin: 'ハナ\n21\n',
      timeLimitMs: 5000,
    })
    expect(result).toMatchObject({ outcome: 'completed', stdout: 'こんにちは、ハナさん\n42\n' })
    const loaded = requests.slice(before)
    expect(loaded.some((url) => url.includes('/assets/pyodide-') && url.endsWith('.wasm'))).toBe(
      true,
    )
    expect(loaded.every((url) => url.startsWith(suite.server.url))).toBe(true)
    const progress = await page.evaluate(() => (window as unknown as Window).__progress)
    const python = progress.filter((p) => p.language === 'python')
    expect(python.some((p) => p.phase === 'loading' && (p.loaded ?? 0) > 0)).toBe(true)
    expect(python.at(-1)?.phase).toBe('ready')
  }, 180_000)

  test('reports the learner’s line, and EOFError past the end of stdin', async () => {
    const error = await run(page, {
      language: 'python',
      code: 'print("a")\n\nprint(undefined_name)\n',
    })
    expect(error).toMatchObject({ outcome: 'error', stdout: 'a\n', error: { line: 3 } })
    if (error.outcome !== 'error') throw new Error('unreachable')
    expect(error.error.message).toContain("NameError: name 'undefined_name' is not defined")
    expect(error.error.message).not.toContain('_pyodide')
    expect(await run(page, { language: 'python', code: 'x = (1,\n' })).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('SyntaxError') },
    })
    expect(await run(page, { language: 'python', code: 'input()' })).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('EOFError'), line: 1 },
    })
    // Each run starts with fresh globals.
    await run(page, { language: 'python', code: 'leftover = 1' })
    expect(
      await run(page, { language: 'python', code: 'print("leftover" in globals())' }),
    ).toMatchObject({
      stdout: 'False\n',
    })
  }, 60_000)

  test('ends `while True: pass` at the time limit, and the next run works', async () => {
    const result = await run(page, {
      language: 'python',
      code: 'print("start")\nwhile True:\n    pass\n',
      timeLimitMs: 1000,
    })
    expect(result).toMatchObject({ outcome: 'timeout', stdout: 'start\n', durationMs: 1000 })
    expect(
      await run(page, { language: 'python', code: 'print("again")', timeLimitMs: 5000 }),
    ).toMatchObject({ outcome: 'completed', stdout: 'again\n' })
  }, 180_000)

  test('cannot reach the network or the site through JavaScript either', async () => {
    const result = await run(page, {
      language: 'python',
      code: [
        'import js',
        'from pyodide.code import run_js',
        'for name in ["fetch", "XMLHttpRequest", "indexedDB", "caches", "importScripts", "postMessage", "document"]:',
        '    print(name, "allowed" if hasattr(js, name) and getattr(js, name) is not None else "refused")',
        'try:',
        '    run_js("import(\'/api/health\')")',
        '    print("import sent")',
        'except Exception:',
        '    print("import refused")',
      ].join('\n'),
      timeLimitMs: 5000,
    })
    expect(result.outcome).toBe('completed')
    for (const line of result.stdout.trim().split('\n'))
      expect(line).toMatch(/ refused$|import sent/)
    // run_js's import() returns a promise that the policy rejects: no request is made.
    await page.waitForTimeout(200)
    expect(requests.filter((url) => url.includes('/api/'))).toEqual([])
  }, 60_000)

  test('stops at the output cap, and no error reached the page', async () => {
    const result = await run(page, {
      language: 'python',
      code: 'while True:\n    print("あいうえお" * 10)\n',
      timeLimitMs: 5000,
    })
    expect(result.outcome).toBe('output-limit')
    expect(new TextEncoder().encode(result.stdout).byteLength).toBeLessThanOrEqual(MAX_OUTPUT_BYTES)
    expect(errors).toEqual([])
  }, 180_000)
})

describe('the run panel', () => {
  /** Mounts the panel in a fresh page of the site, as a question page renders it. */
  async function panelPage(props: Record<string, unknown>): Promise<Page> {
    const { page } = await runnerPage()
    await page.evaluate(`import(${JSON.stringify(panelUrl)}).then((module) => {
      const main = document.querySelector('main') ?? document.body
      const host = document.createElement('div')
      host.id = 'panel'
      main.prepend(host)
      const props = ${JSON.stringify(props)}
      props.onSubmit = async (code) => ({
        verdict: code.includes('print') || code.includes('console.log') ? 'correct' : 'incorrect',
        message: '全てのテストに合格しました。',
        tests: [
          { name: '例 1', passed: true, outcome: 'completed', stdout: 'こんにちは\\n', stderr: null, error: null, message: null },
        ],
        hiddenTests: { total: 1, passed: 1, allPassed: true, message: null },
      })
      window.__unmount = module.mountCodeRunPanel(host, props)
    })`)
    await page.locator('#panel .cm-content').waitFor()
    return page
  }

  const javascriptQuestion = {
    language: 'javascript',
    // A regular expression and an escape too: every token colour is checked for contrast.
    starterCode:
      'const name = input().replace(/\\s+$/, "")\nconsole.log("こんにちは、" + name + "\\t".trim())\n',
    tests: [
      { name: '例 1', stdin: 'ハナ\n', expectedOutput: 'こんにちは、ハナ\n' },
      { name: '例 2', stdin: 'タロウ\n', expectedOutput: 'こんにちは、タロウさん\n' },
    ],
    timeLimitMs: 1000,
  }

  test('runs the visible tests, shows expected and actual, the error line, and the timeout', async () => {
    const page = await panelPage(javascriptQuestion)
    const panel = page.locator('#panel')
    await expect.poll(() => panel.textContent()).toContain('制限時間 1 秒')
    // Keyboard only: Tab from the editor's hint onto 「実行」, Enter.
    await panel.getByRole('button', { name: '実行' }).focus()
    await page.keyboard.press('Enter')
    const results = panel.getByRole('list', { name: '例の実行結果' })
    await results.waitFor()
    await expect
      .poll(() => panel.getByRole('status').textContent())
      .toContain('例 2 件中 1 件が合格')
    const second = results.locator('li').nth(1)
    expect(await second.getAttribute('data-test-passed')).toBe('false')
    expect(await second.textContent()).toContain('期待される出力こんにちは、タロウさん')
    expect(await second.textContent()).toContain('あなたの出力こんにちは、タロウ')
    expect(await axeViolationsInBothThemes(page)).toEqual([])

    // Tab indents inside the editor; Escape then Tab leaves it (no keyboard trap).
    const editor = panel.locator('.cm-content')
    await editor.click()
    await page.keyboard.press('Tab')
    expect(
      await page.evaluate(() => document.activeElement?.classList.contains('cm-content')),
    ).toBe(true)
    await page.keyboard.press('Escape')
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('実行')

    // An error points at its line; the editor marks it.
    await editor.click()
    await page.keyboard.press('Control+a')
    await page.keyboard.type('const a = 1\nconsole.log(a.b.c)\n')
    await page.keyboard.press('Control+Enter')
    await expect.poll(() => results.textContent()).toContain('2 行目でエラー: TypeError')
    expect(await panel.locator('.cm-error-line').count()).toBe(1)

    await editor.click()
    await page.keyboard.press('Control+a')
    await page.keyboard.type('while (true) {}\n')
    await panel.getByRole('button', { name: '実行' }).click()
    await expect
      .poll(() => results.textContent(), { timeout: 15_000 })
      .toContain('制限時間（1 秒）内に終わりませんでした。')
    // 「提出」 shows the verdict the caller returns (the server's, on a question page).
    await panel.getByRole('button', { name: '最初のコードに戻す' }).click()
    await panel.getByRole('button', { name: '提出' }).click()
    await expect.poll(() => panel.textContent()).toContain('正解です！')
    expect(await panel.textContent()).toContain('非公開テスト 1 件すべてに合格しました')
    expect(await axeViolationsInBothThemes(page)).toEqual([])
  })

  test('shows Pyodide’s download while Python loads the first time', async () => {
    const page = await panelPage({
      language: 'python',
      starterCode: 'print("こんにちは")\n',
      tests: [{ name: '例 1', stdin: '', expectedOutput: 'こんにちは\n' }],
      timeLimitMs: 2000,
    })
    const panel = page.locator('#panel')
    await panel.getByRole('button', { name: '実行' }).click()
    await expect
      .poll(() => panel.getByRole('status').textContent())
      .toMatch(/Python を(読み込んでいます|起動しています)/)
    await expect
      .poll(() => panel.getByRole('status').textContent(), { timeout: 120_000 })
      .toContain('例 1 件中 1 件が合格')
    expect(await axeViolationsInBothThemes(page)).toEqual([])
  }, 180_000)
})
