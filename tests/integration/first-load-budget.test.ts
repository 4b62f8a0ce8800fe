import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { signedInPageUser } from '#tests/integration/storage/support.ts'
import {
  demoReadingPaths,
  firstLoadAssets,
  sentBytes,
  sentTotal,
} from '#tests/support/first-load.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * The first-load JavaScript budget (decision 029), in brotli bytes as sent: bytes are
 * stable from run to run, unlike times, so this is a test. A page over budget means something
 * heavy (the AWS SDK, Amplify, CodeMirror, Shiki) became a static import of a page that does not
 * need it before the reader acts: load it on use instead.
 */
const GUEST_BUDGET_BYTES = 120 * 1024
const SIGNED_IN_BUDGET_BYTES = 200 * 1024

let server: TestServer
let cookie: string
let username: string

beforeAll(async () => {
  server = await startTestServer()
  const user = await signedInPageUser(server, 'budget')
  cookie = user.cookie
  username = user.username
})
afterAll(async () => {
  await server?.close()
})

/** The pages whose first-load JavaScript exceeds the budget, with their size. */
async function overBudget(paths: string[], budget: number, headers: Record<string, string> = {}) {
  const over: string[] = []
  for (const path of paths) {
    const page = await sentBytes(`${server.url}${path}`, 'identity', headers)
    const { scripts } = firstLoadAssets(page.body)
    expect(scripts.length, `${path} loads no script`).toBeGreaterThan(0)
    const bytes = await sentTotal(server.url, scripts, 'br')
    if (bytes > budget) over.push(`${path}: ${(bytes / 1024).toFixed(1)} KiB`)
  }
  return over
}

describe('first-load JavaScript', () => {
  it(`stays within ${GUEST_BUDGET_BYTES / 1024} KiB brotli on every page a guest reads`, async () => {
    const demo = await demoReadingPaths(server.url)
    const paths = [
      '/',
      '/courses',
      demo.course,
      demo.lesson,
      '/example',
      '/studies',
      '/labs',
      '/labs_stories',
      demo.author,
      '/search?q=JavaScript',
    ]
    expect(await overBudget(paths, GUEST_BUDGET_BYTES)).toEqual([])
  })

  it(`stays within ${SIGNED_IN_BUDGET_BYTES / 1024} KiB brotli on signed-in pages that are not editors`, async () => {
    const demo = await demoReadingPaths(server.url)
    const paths = [
      '/',
      '/courses',
      demo.course,
      demo.lesson,
      '/drafts',
      '/notifications',
      '/histories',
      `/${username}`,
      '/settings',
    ]
    expect(await overBudget(paths, SIGNED_IN_BUDGET_BYTES, { cookie })).toEqual([])
  })
})
