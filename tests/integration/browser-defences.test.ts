import { request as httpsRequest } from 'node:https'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * The headers that make the browser enforce the site's rules (docs/decisions/020): the pages'
 * Content-Security-Policy (also on pages the guest cache replays), HSTS over TLS only, private
 * signed-in API answers, and no writes with cookies from other sites.
 */
let server: TestServer
let alice: { cookie: string; accessToken: string }
let bobName: string

beforeAll(async () => {
  server = await startTestServer({ HTTPS_PORT: '0' })
  const tokens = await signedInUser(server, 'csp_alice')
  alice = { cookie: amplifyCookieHeader(CLIENT_ID, 'csp_alice', tokens), ...tokens }
  bobName = 'csp_bob'
  await signedInUser(server, bobName)
})
afterAll(async () => {
  await server?.close()
})

const nonceOf = (policy: string | null) => /'nonce-([\w-]+)'/.exec(policy ?? '')?.[1]

/** Every `<script>` start tag of the page, as written. */
const scriptTags = (html: string) => html.match(/<script\b[^>]*>/g) ?? []

describe('the pages’ Content-Security-Policy', () => {
  it('allows scripts from this origin and the response’s nonce only, and forbids framing, plugins and <base>', async () => {
    const response = await fetch(`${server.url}/`)
    const policy = response.headers.get('content-security-policy') ?? ''
    const directives = policy.split(/;\s*/)
    const nonce = nonceOf(policy)
    expect(nonce).toMatch(/^[\w-]{22}$/)
    expect(directives).toContain(`script-src 'self' 'nonce-${nonce}'`)
    expect(directives).toEqual(
      expect.arrayContaining(["object-src 'none'", "base-uri 'self'", "frame-ancestors 'none'"]),
    )
    const tags = scriptTags(await response.text())
    expect(tags.length).toBeGreaterThan(0)
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`)
  })

  it('replays a cached guest page with the nonce it was rendered with, in the header and the page, and renders anew with a new one', async () => {
    // Decision 029: the cache keeps a page's bytes (compressed once), so a replay carries its
    // render's nonce; a nonce drawn after the content was stored cannot be in the content.
    const renders = []
    for (const round of [0, 1]) {
      const path = `/courses?nonce-test=${Date.now()}-${round}`
      const answers = await Promise.all([0, 1, 2].map(() => fetch(`${server.url}${path}`)))
      const pages = await Promise.all(
        answers.map(async (response) => ({
          cache: response.headers.get('x-page-cache'),
          nonce: nonceOf(response.headers.get('content-security-policy')),
          html: await response.text(),
        })),
      )
      expect(pages.map((page) => page.cache)).toContain('hit')
      expect(new Set(pages.map((page) => page.nonce)).size).toBe(1)
      for (const page of pages) {
        const tags = scriptTags(page.html)
        expect(tags.length).toBeGreaterThan(0)
        for (const tag of tags) expect(tag).toContain(`nonce="${page.nonce}"`)
      }
      renders.push(pages[0]?.nonce)
    }
    expect(renders[0]).not.toBe(renders[1])
  })

  it('covers signed-in pages too', async () => {
    const response = await fetch(`${server.url}/settings`, { headers: { cookie: alice.cookie } })
    expect(response.status).toBe(200)
    const nonce = nonceOf(response.headers.get('content-security-policy'))
    expect(nonce).toBeDefined()
    for (const tag of scriptTags(await response.text())) expect(tag).toContain(`nonce="${nonce}"`)
  })
})

/** A GET over the TLS listener (self-signed certificate): status and headers. */
function getOverTls(url: string): Promise<Record<string, string | string[] | undefined>> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(url, { rejectUnauthorized: false }, (response) => {
      response.resume()
      response.on('end', () => resolve(response.headers))
    })
    request.on('error', reject)
    request.end()
  })
}

describe('Strict-Transport-Security', () => {
  it('is sent over the TLS listener, and never over plain http', async () => {
    const tls = await getOverTls(`${server.httpsUrl}/`)
    expect(tls['strict-transport-security']).toBe('max-age=31536000')
    const plain = await fetch(`${server.url}/`)
    expect(plain.headers.get('strict-transport-security')).toBeNull()
  })
})

describe('/api', () => {
  const follow = (headers: Record<string, string>, method = 'POST', body?: string) =>
    fetch(`${server.url}/api/users/${bobName}/follow`, { method, headers, body })

  it('answers signed-in requests with Cache-Control: private, no-store, and guests without', async () => {
    const signedIn = await fetch(`${server.url}/api/courses`, { headers: { cookie: alice.cookie } })
    expect(signedIn.headers.get('cache-control')).toBe('private, no-store')
    const bearer = await fetch(`${server.url}/api/profile`, {
      headers: { authorization: `Bearer ${alice.accessToken}` },
    })
    expect(bearer.status).toBe(200)
    expect(bearer.headers.get('cache-control')).toBe('private, no-store')
    const guest = await fetch(`${server.url}/api/courses`)
    expect(guest.headers.get('cache-control')).not.toBe('private, no-store')
  })

  it.each([
    ['another site’s Origin', { origin: 'https://evil.example' }],
    ['a sandboxed document (Origin: null)', { origin: 'null' }],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site (a sibling host)', { 'sec-fetch-site': 'same-site' }],
    [
      'a form post as text/plain',
      {
        'sec-fetch-site': 'cross-site',
        'content-type': 'text/plain',
        origin: 'https://evil.example',
      },
    ],
  ])('refuses a write with cookies from %s, in the API’s error shape', async (_, headers) => {
    const body = 'content-type' in headers ? '{}' : undefined
    const answer = await follow({ cookie: alice.cookie, ...headers }, 'POST', body)
    expect(answer.status).toBe(403)
    expect(await answer.json()).toEqual({
      error: { code: 'CROSS_SITE_REQUEST', message: expect.stringContaining('他のサイト') },
    })
    const state = await fetch(`${server.url}/api/users/${bobName}/follow`, {
      headers: { cookie: alice.cookie },
    })
    expect(await state.json()).toMatchObject({ following: false })
  })

  it('accepts its own pages’ writes, body-less and without a content type', async () => {
    const sameOrigin = await follow({ cookie: alice.cookie, 'sec-fetch-site': 'same-origin' })
    expect(sameOrigin.status).toBe(200)
    const byOrigin = await follow({ cookie: alice.cookie, origin: server.url }, 'DELETE')
    expect(byOrigin.status).toBe(200)
  })

  it('lets API clients with a bearer token and no cookies write from anywhere', async () => {
    const answer = await follow({
      authorization: `Bearer ${alice.accessToken}`,
      origin: 'https://tool.example',
      'sec-fetch-site': 'cross-site',
    })
    expect(answer.status).toBe(200)
    const withCookies = await follow({
      authorization: `Bearer ${alice.accessToken}`,
      cookie: alice.cookie,
      'sec-fetch-site': 'cross-site',
    })
    expect(withCookies.status).toBe(403)
  })
})
