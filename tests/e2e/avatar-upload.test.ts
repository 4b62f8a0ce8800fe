import { randomBytes } from 'node:crypto'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { registerUser } from '#tests/integration/identity/support.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { collectPageErrors, launchBrowser, waitForHydration } from './browser.ts'
import { PNG_1X1 } from './fixtures/images.ts'

/**
 * Uploads in Chromium through the unmodified AWS SDK (lib-storage) with the identity pool's
 * credentials: a 12 MiB profile picture goes up in parts with visible progress; one upload is
 * cancelled (nothing stays on the server); the next becomes the avatar, shown in the header.
 */
let server: TestServer
let browser: Browser
let context: BrowserContext
let page: Page
let errors: string[]

const username = `pic_${randomBytes(4).toString('hex')}`
const password = 'Hajimete1!'
const MiB = 1024 * 1024

/** A real 1×1 PNG followed by padding to 12 MiB: browsers ignore what follows IEND. */
const picture = Buffer.concat([PNG_1X1, Buffer.alloc(12 * MiB - PNG_1X1.length)])

beforeAll(async () => {
  server = await startTestServer({ STORAGE_FSYNC: 'off' })
  browser = await launchBrowser()
  context = await browser.newContext({ baseURL: server.url })
  page = await context.newPage()
  errors = collectPageErrors(page)
  await registerUser(server, { username, email: `${username}@example.com`, password })
})

afterAll(async () => {
  await context?.close()
  await browser?.close()
  await server?.close()
})

/** Multipart uploads and parts the server still holds (its object index). */
async function uploadsAndPartsLeft(): Promise<number> {
  const db = server.database.db
  const uploads = await db.selectFrom('storage_uploads').select('upload_id').execute()
  const parts = await db.selectFrom('storage_parts').select('upload_id').execute()
  return uploads.length + parts.length
}

/**
 * Holds back the upload of parts 2 and on until released, so that the test sees the upload
 * in the middle: part 1 done (progress between 0 and 100), the rest still to go.
 */
async function holdLaterParts(): Promise<{ release(): Promise<void> }> {
  let open!: () => void
  const gate = new Promise<void>((resolve) => {
    open = resolve
  })
  const matcher = /\/s3\/.*[?&]partNumber=([2-9]|\d\d)/
  await page.route(matcher, async (route) => {
    await gate
    await route.continue()
  })
  return {
    async release() {
      open()
      await page.unrouteAll({ behavior: 'wait' })
    },
  }
}

describe('profile picture upload', () => {
  test('signs in and opens the settings', async () => {
    await page.goto('/auth/signin?redirectTo=/settings')
    await waitForHydration(page)
    await page.getByLabel('ユーザー名またはメールアドレス').fill(username)
    await page.getByLabel('パスワード', { exact: true }).fill(password)
    await page.getByRole('button', { name: 'ログイン', exact: true }).click()
    await page.waitForURL(/\/settings$/)
    await waitForHydration(page)
    await expect.poll(() => page.getByRole('heading', { name: 'プロフィール画像' }).count()).toBe(1)
  })

  test('refuses a file of the wrong type before uploading anything', async () => {
    await page.getByLabel('新しいプロフィール画像').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('hello'),
    })
    await expect
      .poll(() => page.getByText('このファイルの種類はアップロードできません。').count())
      .toBe(1)
  })

  test('shows progress and cancels an upload, leaving nothing behind', async () => {
    const held = await holdLaterParts()
    await page.getByLabel('新しいプロフィール画像').setInputFiles({
      name: 'first.png',
      mimeType: 'image/png',
      buffer: picture,
    })
    const progress = page.getByRole('progressbar', { name: 'first.png のアップロード' })
    await expect.poll(() => progress.getAttribute('value')).toBe('41')
    await page.getByRole('button', { name: 'キャンセル' }).click()
    await held.release()
    await expect.poll(() => page.getByText('アップロードを取り消しました。').count()).toBe(1)
    expect(await uploadsAndPartsLeft()).toBe(0)
  })

  test('uploads 12 MiB in parts with progress, and the picture becomes the avatar', async () => {
    const held = await holdLaterParts()
    await page.getByLabel('新しいプロフィール画像').setInputFiles({
      name: 'second.png',
      mimeType: 'image/png',
      buffer: picture,
    })
    const progress = page.getByRole('progressbar', { name: 'second.png のアップロード' })
    await expect.poll(() => progress.getAttribute('value')).toBe('41')
    expect(await page.getByText('second.png：41%（5.0 MB / 12.0 MB）').count()).toBe(1)
    await held.release()
    await expect.poll(() => page.getByText('プロフィール画像を変更しました。').count()).toBe(1)

    await page.reload()
    await waitForHydration(page)
    const avatar = page.locator('[data-user-menu] summary img')
    const src = await avatar.getAttribute('src')
    expect(src).toMatch(/^\/s3\/techlab\/public\/avatars\/[0-9a-f-]{36}\.png$/)
    await expect
      .poll(() => avatar.evaluate((image: HTMLImageElement) => image.naturalWidth))
      .toBe(1)
    // Public pictures are readable without signing, by anyone.
    const anonymous = await fetch(`${server.url}${src}`)
    expect(anonymous.status).toBe(200)
    expect(Number(anonymous.headers.get('content-length'))).toBe(picture.length)
    expect(errors).toEqual([])
  })
})
