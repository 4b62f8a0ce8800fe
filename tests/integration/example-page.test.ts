import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** /example: the sample lesson a guest reads without an account. */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('/example', () => {
  it('shows a guest the whole sample lesson with highlighted code, shareably cached', async () => {
    const response = await fetch(`${server.url}/example`, { redirect: 'manual' })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('public')
    const html = await response.text()
    expect(html).toContain('変数で値に名前をつける')
    expect(html).toMatch(/<h2[^>]*>const で変数を作る<\/h2>/)
    expect(html).toMatch(/<pre[^>]*><code[^>]*>.*<span style="color:light-dark\(/s)
    expect(html).toContain('<table>')
    expect(html).not.toContain('準備中')
  })

  it('invites the reader to sign up for the free plan', async () => {
    const html = await (await fetch(`${server.url}/example`)).text()
    expect(html).toContain('続きは無料プランで')
    expect(html).toMatch(/<a[^>]*href="\/auth\/signup"[^>]*>無料で始める<\/a>/)
  })
})
