import { GlobalSignOutCommand } from '@aws-sdk/client-cognito-identity-provider'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader, makeTestKey, signJwt, tokenPair } from '#app/lib/auth/test-tokens.ts'
import { CLIENT_ID, signedInUser, userPool } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Server rendering reads Amplify's cookies: valid tokens of our user pool give the signed-in
 * header on the first paint; anything else (forged, tampered, expired, revoked, another
 * client's) gives the guest header, never an error.
 */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

async function page(path: string, cookie?: string) {
  const response = await fetch(`${server.url}${path}`, {
    redirect: 'manual',
    headers: cookie ? { cookie } : {},
  })
  return { response, html: await response.text() }
}

function expectGuestHeader(html: string) {
  expect(html).not.toContain('data-user-menu')
  expect(html).toContain('href="/auth/signin"')
  expect(html).toContain('無料で始める')
}

describe('the first paint knows who is signed in', () => {
  let tokens: Awaited<ReturnType<typeof signedInUser>>
  let cookie: string
  beforeAll(async () => {
    tokens = await signedInUser(server, 'hana_ssr')
    cookie = amplifyCookieHeader(CLIENT_ID, 'hana_ssr', tokens)
  })

  it('renders the signed-in header from valid cookies, privately', async () => {
    const { response, html } = await page('/', cookie)
    expect(response.status).toBe(200)
    expect(html).toContain('data-user-menu')
    expect(html).toContain('@hana_ssr')
    expect(html).toContain('href="/settings"')
    expect(html).toContain('href="/hana_ssr"')
    expect(html).not.toContain('href="/auth/signin"')
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(response.headers.get('x-page-cache')).toBeNull()
  })

  it('never serves a signed-in page from the guest cache, nor caches it for guests', async () => {
    await (await fetch(`${server.url}/courses`)).text()
    const cached = await fetch(`${server.url}/courses`)
    expect(cached.headers.get('x-page-cache')).toBe('hit')
    await cached.text()
    const mine = await page('/courses', cookie)
    expect(mine.response.headers.get('x-page-cache')).toBeNull()
    expect(mine.html).toContain('data-user-menu')
    const guest = await page('/courses')
    expectGuestHeader(guest.html)
  })

  it('reads cookie names the way the session reader does: an encoded dot is still a session', async () => {
    // js-cookie decodes names, so the session reader does too; the cache must agree with it.
    const encoded = cookie
      .split('; ')
      .map((pair) => {
        const [name = '', ...value] = pair.split('=')
        return `${name.replaceAll('.', '%2E')}=${value.join('=')}`
      })
      .join('; ')
    const mine = await page('/courses?encoded=1', encoded)
    expect(mine.html).toContain('data-user-menu')
    expect(mine.response.headers.get('x-page-cache')).toBeNull()
    expect(mine.response.headers.get('cache-control')).toBe('private, no-store')
    const guest = await page('/courses?encoded=1')
    expectGuestHeader(guest.html)
  })

  it('keeps data requests of signed-in visitors private too', async () => {
    const { response, html } = await page('/courses.data', cookie)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('private, no-store')
    expect(html).toContain('hana_ssr')
  })

  it('shows the settings page to its owner, and sends guests to sign in first', async () => {
    const mine = await page('/settings', cookie)
    expect(mine.response.status).toBe(200)
    expect(mine.html).toContain('hana_ssr@example.com')
    expect(mine.html).toContain('パスワードの変更')
    expect(mine.html).toContain('この端末以外でのログインはすべて終了します')
    expect(mine.html).toContain('アカウントの削除')
    const guest = await page('/settings')
    expect(guest.response.status).toBe(302)
    expect(guest.response.headers.get('location')).toBe('/auth/signin?redirectTo=%2Fsettings')
  })

  it('sends a signed-in visitor away from the sign-in and sign-up screens', async () => {
    for (const path of ['/auth/signin', '/auth/signup']) {
      const { response } = await page(path, cookie)
      expect(response.status).toBe(302)
      expect(response.headers.get('location')).toBe('/')
    }
    const back = await page('/auth/signin?redirectTo=%2Fsettings', cookie)
    expect(back.response.headers.get('location')).toBe('/settings')
    const offsite = await page('/auth/signin?redirectTo=%2F%2Fevil.example', cookie)
    expect(offsite.response.headers.get('location')).toBe('/')
  })

  it('sends a signed-in visitor only to this site, whatever control characters the target has', async () => {
    // Browsers drop tabs and newlines in URLs: `/\t/evil.example/` is `//evil.example/`.
    for (const target of ['%2F%09%2Fevil.example%2F', '%2F%0A%2Fevil.example', '%2F%0D%0Ax']) {
      for (const path of ['/auth/signin', '/auth/signup']) {
        const { response } = await page(`${path}?redirectTo=${target}`, cookie)
        expect(response.status).toBe(302)
        expect(response.headers.get('location')).toBe('/')
      }
    }
  })

  it('offers the sign-out screen to the signed-in user by name', async () => {
    const { html } = await page('/auth/signout', cookie)
    expect(html).toContain('hana_ssr')
    expect(html).toContain('すべての端末からログアウト')
  })

  it('shows the guest header for a token signed with another key', async () => {
    const forged = tokenPair(makeTestKey(), {
      issuer: 'http://localhost:0/cognito-idp/ap-northeast-1_TechLabPool',
      clientId: CLIENT_ID,
      username: 'hana_ssr',
    })
    const { response, html } = await page('/', amplifyCookieHeader(CLIENT_ID, 'hana_ssr', forged))
    expect(response.status).toBe(200)
    expectGuestHeader(html)
  })

  it('shows the guest header for a tampered token', async () => {
    const [head, body, signature] = tokens.accessToken.split('.') as [string, string, string]
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString())
    claims.username = 'techlab'
    const tampered = `${head}.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.${signature}`
    const { html } = await page(
      '/',
      amplifyCookieHeader(CLIENT_ID, 'hana_ssr', { accessToken: tampered }),
    )
    expectGuestHeader(html)
  })

  it('shows the guest header for an id token in place of the access token', async () => {
    const { html } = await page(
      '/',
      amplifyCookieHeader(CLIENT_ID, 'hana_ssr', { accessToken: tokens.idToken }),
    )
    expectGuestHeader(html)
  })

  it('shows the guest header for garbage, and for cookies of another app client', async () => {
    for (const header of [
      amplifyCookieHeader(CLIENT_ID, 'hana_ssr', { accessToken: 'not.a.jwt' }),
      amplifyCookieHeader(CLIENT_ID, 'hana_ssr', {
        accessToken: signJwt(makeTestKey(), { alg: 'none' }, { alg: 'none' }),
      }),
      amplifyCookieHeader('otherclient', 'hana_ssr', tokens),
      `CognitoIdentityServiceProvider.${CLIENT_ID}.LastAuthUser=%E0%A4%A`,
    ]) {
      const { response, html } = await page('/', header)
      expect(response.status).toBe(200)
      expectGuestHeader(html)
      // Still private: the visitor sent a session cookie, even a useless one.
      expect(response.headers.get('cache-control')).toBe('private, no-store')
    }
  })

  it('shows the guest header once the session was ended everywhere', async () => {
    const other = await signedInUser(server, 'taro_ssr')
    const otherCookie = amplifyCookieHeader(CLIENT_ID, 'taro_ssr', other)
    expect((await page('/', otherCookie)).html).toContain('data-user-menu')
    await userPool(server).send(new GlobalSignOutCommand({ AccessToken: other.accessToken }))
    expectGuestHeader((await page('/', otherCookie)).html)
  })
})

describe('expired tokens', () => {
  let shortLived: TestServer
  beforeAll(async () => {
    shortLived = await startTestServer({ ACCESS_TOKEN_TTL_S: '60', ID_TOKEN_TTL_S: '60' })
  })
  afterAll(async () => {
    await shortLived?.close()
  })

  it('shows the guest header once the access token has expired', async () => {
    const tokens = await signedInUser(shortLived, 'expiring')
    const cookie = amplifyCookieHeader(CLIENT_ID, 'expiring', tokens)
    const fresh = await fetch(`${shortLived.url}/`, { headers: { cookie } })
    expect(await fresh.text()).toContain('data-user-menu')
    shortLived.clock.advance(61_000)
    const stale = await fetch(`${shortLived.url}/`, { headers: { cookie } })
    expect(stale.status).toBe(200)
    expectGuestHeader(await stale.text())
  })
})
