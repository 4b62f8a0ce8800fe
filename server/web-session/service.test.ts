import { describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { createWebSession } from './service.ts'

const embedded = { identityPool: true, totpMfa: true, rememberedDevices: false }

describe('the Google button', () => {
  it('is offered only when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set', () => {
    const without = createWebSession(loadConfig({}).identity, { embedded })
    expect(without.client.googleSignIn).toBe(false)
    const google = { GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com', GOOGLE_CLIENT_SECRET: 's' }
    const withGoogle = createWebSession(loadConfig(google).identity, { embedded })
    expect(withGoogle.client.googleSignIn).toBe(true)
    // Against Amazon Cognito the hosted sign-in is Cognito's domain, not configurable yet.
    const aws = loadConfig({ ...google, IDENTITY_ENDPOINTS: 'aws' })
    expect(createWebSession(aws.identity, { embedded }).client.googleSignIn).toBe(false)
  })

  it('tells a plain-http page the port of the TLS listener', () => {
    const config = loadConfig({ HTTPS_PORT: '3443' })
    const service = createWebSession(config.identity, { embedded, httpsPort: config.https?.port })
    expect(service.client.httpsPort).toBe(3443)
    expect(createWebSession(config.identity, { embedded }).client.httpsPort).toBeUndefined()
  })
})

describe('the session questions pages ask', () => {
  const session = createWebSession(loadConfig({}).identity, { embedded })
  const clientId = loadConfig({}).identity.clientId
  const request = (cookie?: string) =>
    new Request('http://localhost/drafts?tab=labs', cookie ? { headers: { cookie } } : {})

  it('sends a guest from a members-only page to sign in, and back to the same address', async () => {
    const thrown = await session.requireUser(request()).catch((error: unknown) => error)
    expect(thrown).toBeInstanceOf(Response)
    const location = (thrown as Response).headers.get('location') ?? ''
    expect(location).toBe(`/auth/signin?redirectTo=${encodeURIComponent('/drafts?tab=labs')}`)
  })

  it('verifies one request’s session once, though each loader gets a Request of its own', async () => {
    let calls = 0
    const counted = createWebSession(loadConfig({}).identity, {
      embedded,
      verify: async () => {
        calls++
        throw new Error('not a token of this pool')
      },
    })
    const held = `${encodeURIComponent(counted.client.sessionCookie)}=hana; ${encodeURIComponent(
      `CognitoIdentityServiceProvider.${clientId}.hana.accessToken`,
    )}=x.y.z`
    const oneRequest = counted.forRequest()
    expect(await oneRequest.currentUser(request(held))).toBeUndefined()
    expect(await oneRequest.currentUser(request(held))).toBeUndefined()
    expect(calls).toBe(1)
    // Another request, or another Cookie header, is read again.
    await counted.forRequest().currentUser(request(held))
    await oneRequest.currentUser(request(`${held}; other=1`))
    expect(calls).toBe(3)
  })

  it('names the session cookie once, for the browser too', () => {
    expect(session.client.sessionCookie).toBe(
      `CognitoIdentityServiceProvider.${clientId}.LastAuthUser`,
    )
    const held = `${encodeURIComponent(session.client.sessionCookie)}=hana`
    expect(session.hasSession(request(held))).toBe(true)
    expect(session.isPersonal(request(held))).toBe(true)
    // Another client's session is still personal (never cached), but not one this app signs out.
    const other = 'CognitoIdentityServiceProvider.other.LastAuthUser=hana'
    expect(session.hasSession(request(other))).toBe(false)
    expect(session.isPersonal(request(other))).toBe(true)
    expect(session.isPersonal(request('_ga=1; theme=dark'))).toBe(false)
    expect(session.hasPendingGoogleSignUp(request('techlab_oauth_signup=abc'))).toBe(true)
  })
})
