import { readFile } from 'node:fs/promises'
import path from 'node:path'
import {
  CognitoIdentityClient,
  GetCredentialsForIdentityCommand,
  GetIdCommand,
} from '@aws-sdk/client-cognito-identity'
import { JwtRsaVerifier } from 'aws-jwt-verify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import {
  type GoogleAccount,
  type GoogleProvider,
  startGoogleProvider,
} from '#tests/support/google-provider.ts'
import { nodeGet } from '#tests/support/http.ts'
import { configuredAddress, startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { authorizeUrl, callbackUrl, OAuthBrowser, pkcePair, tokenRequest } from './oauth-browser.ts'
import {
  CLIENT_ID,
  call,
  latestCode,
  newAccount,
  PASSWORD,
  POOL_ID,
  registerUser,
  srpSignIn,
} from './support.ts'

/**
 * Google sign-in through the hosted endpoints, against a real OpenID provider (oidc-provider)
 * standing in for Google: authorize → provider → idpresponse → (setupUsername) → code →
 * token with PKCE, and what the tokens are good for afterwards.
 */
let server: TestServer
let google: GoogleProvider
let issuer: string

beforeAll(async () => {
  google = await startGoogleProvider()
  // The default allow-lists come from PUBLIC_BASE_URL, so the ports are chosen up front.
  const address = await configuredAddress()
  server = await startTestServer({ ...google.environment, ...address })
  google.start([`${server.url}/oauth2/idpresponse`, `${server.httpsUrl}/oauth2/idpresponse`])
  issuer = loadConfig(address).identity.issuer
})

afterAll(async () => {
  await server?.close()
  await google?.close()
})

let counter = 0
function googleAccount(overrides: Partial<GoogleAccount> = {}): GoogleAccount {
  counter += 1
  const sub = `1${Date.now()}${counter}`
  const account = {
    sub,
    email: `g${sub}@gmail.test`,
    emailVerified: true,
    name: 'グーグル 太郎',
    ...overrides,
  }
  google.addAccount(account)
  return account
}

/** From /oauth2/authorize to where our server sends the browser after Google answered. */
async function startSignIn(browser: OAuthBrowser, login: string, overrides = {}) {
  const pkce = pkcePair()
  const url = authorizeUrl(server.url, pkce, overrides)
  const state = new URL(url).searchParams.get('state')
  const authorize = await browser.request(url)
  expect(authorize.response.status).toBe(302)
  expect(authorize.location).toMatch(new RegExp(`^${google.issuer}/`))
  const atIdpResponse = await browser.signInAtProvider(authorize.location ?? '', login, server.url)
  expect(atIdpResponse).toMatch(`${server.url}/oauth2/idpresponse?`)
  const answered = await browser.request(atIdpResponse)
  expect(answered.response.status).toBe(302)
  return { pkce, state, location: answered.location ?? '' }
}

/** The code and state the client's callback receives. */
function codeAt(location: string) {
  const url = new URL(location)
  expect(`${url.origin}${url.pathname}`).toBe(callbackUrl(server.url))
  return { code: url.searchParams.get('code') ?? '', state: url.searchParams.get('state') }
}

async function exchange(code: string, verifier: string) {
  return tokenRequest(server, {
    grant_type: 'authorization_code',
    code,
    client_id: CLIENT_ID,
    redirect_uri: callbackUrl(server.url),
    code_verifier: verifier,
  })
}

/** A first sign-in all the way to tokens, choosing `username`. */
async function firstSignIn(account: GoogleAccount, username: string) {
  const browser = new OAuthBrowser()
  const started = await startSignIn(browser, account.sub)
  expect(started.location).toMatch(`${server.url}/auth/setupUsername?`)
  const chosen = await browser.request(`${server.url}/oauth2/setupUsername`, {
    form: { username },
  })
  const { code, state } = codeAt(chosen.location ?? '')
  expect(state).toBe(started.state)
  const tokens = await exchange(code, started.pkce.verifier)
  expect(tokens.status).toBe(200)
  return { browser, tokens: tokens.body as Record<string, string>, code, pkce: started.pkce }
}

async function verifiers() {
  const jwksUri = `${server.url}/cognito-idp/${POOL_ID}/.well-known/jwks.json`
  const jwks = await (await fetch(jwksUri)).json()
  const access = JwtRsaVerifier.create({ issuer, jwksUri, audience: null })
  const id = JwtRsaVerifier.create({ issuer, jwksUri, audience: CLIENT_ID })
  access.cacheJwks(jwks)
  id.cacheJwks(jwks)
  return { access, id }
}

describe('a first Google sign-in', () => {
  it('chooses a username, then gets Cognito-shaped tokens that aws-jwt-verify accepts', async () => {
    const account = googleAccount()
    const browser = new OAuthBrowser()
    const started = await startSignIn(browser, account.sub)
    const setup = new URL(started.location)
    expect(setup.pathname).toBe('/auth/setupUsername')
    expect(setup.searchParams.get('suggestion')).toBe(account.email.split('@')[0])

    // The same rules as sign-up: a reserved name is refused and the step can be retried.
    const refused = await browser.request(`${server.url}/oauth2/setupUsername`, {
      form: { username: 'oauth2' },
    })
    const again = new URL(refused.location ?? '')
    expect(again.pathname).toBe('/auth/setupUsername')
    expect(again.searchParams.get('error')).toBe('このユーザー名は使えません')
    expect(again.searchParams.get('username')).toBe('oauth2')

    const username = newAccount('g').username
    const chosen = await browser.request(`${server.url}/oauth2/setupUsername`, {
      form: { username },
    })
    const { code, state } = codeAt(chosen.location ?? '')
    expect(state).toBe(started.state)
    const answer = await exchange(code, started.pkce.verifier)
    expect(answer.status).toBe(200)
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 })
    const tokens = answer.body as Record<string, string>

    const { access, id } = await verifiers()
    const accessClaims = await access.verify(tokens.access_token ?? '')
    const idClaims = await id.verify(tokens.id_token ?? '')
    expect(accessClaims).toMatchObject({
      token_use: 'access',
      client_id: CLIENT_ID,
      username,
      scope: 'openid email profile aws.cognito.signin.user.admin',
      'cognito:groups': [`${POOL_ID}_Google`],
      version: 2,
    })
    expect(idClaims).toMatchObject({
      token_use: 'id',
      aud: CLIENT_ID,
      'cognito:username': username,
      'cognito:groups': [`${POOL_ID}_Google`],
      email: account.email,
      email_verified: true,
      name: account.name,
      identities: [
        {
          userId: account.sub,
          providerName: 'Google',
          providerType: 'Google',
          issuer: null,
          primary: 'true',
        },
      ],
    })
    expect(idClaims.at_hash).toMatch(/^[\w-]{22}$/)
    expect(idClaims.sub).toBe(accessClaims.sub)

    // The product's profile was made through the same accountConfirmed event as sign-up.
    const profile = await server.database.db
      .selectFrom('users')
      .select('username')
      .where('id', '=', String(idClaims.sub))
      .executeTakeFirst()
    expect(profile?.username).toBe(username)

    // The next sign-in goes straight back to the client, as the same account.
    const returning = await startSignIn(new OAuthBrowser(), account.sub)
    const next = codeAt(returning.location)
    const second = await exchange(next.code, returning.pkce.verifier)
    expect((await id.verify(String(second.body.id_token))).sub).toBe(idClaims.sub)

    // No password: password sign-in fails as for a wrong password.
    const password = await srpSignIn(server, username, 'Whatever#123')
    expect(password.body.__type).toBe('NotAuthorizedException')
  })

  it('asks for a scope-less request all of the client’s scopes, and carries nonce', async () => {
    const account = googleAccount()
    const browser = new OAuthBrowser()
    const started = await startSignIn(browser, account.sub, { scope: undefined, nonce: 'n-0S6' })
    const chosen = await browser.request(`${server.url}/oauth2/setupUsername`, {
      form: { username: newAccount('s').username },
    })
    const tokens = await exchange(codeAt(chosen.location ?? '').code, started.pkce.verifier)
    const { access, id } = await verifiers()
    expect((await access.verify(String(tokens.body.access_token))).scope).toBe(
      'openid email phone profile aws.cognito.signin.user.admin',
    )
    expect((await id.verify(String(tokens.body.id_token))).nonce).toBe('n-0S6')
  })
})

describe('a Google-only account', () => {
  it('gets a password only through the code mailed to its verified email', async () => {
    const account = googleAccount()
    const username = newAccount('p').username
    const { tokens } = await firstSignIn(account, username)
    const change = await call(server, 'ChangePassword', {
      AccessToken: tokens.access_token,
      PreviousPassword: 'Guess#1234',
      ProposedPassword: PASSWORD,
    })
    expect(change.body.__type).toBe('NotAuthorizedException')

    expect(
      (await call(server, 'ForgotPassword', { ClientId: CLIENT_ID, Username: username })).status,
    ).toBe(200)
    const code = await latestCode(server, account.email)
    const wrong = await call(server, 'ConfirmForgotPassword', {
      ClientId: CLIENT_ID,
      Username: username,
      ConfirmationCode: code === '000000' ? '111111' : '000000',
      Password: PASSWORD,
    })
    expect(wrong.body.__type).toBe('CodeMismatchException')
    expect((await srpSignIn(server, username, PASSWORD)).body.__type).toBe('NotAuthorizedException')

    const right = await call(server, 'ConfirmForgotPassword', {
      ClientId: CLIENT_ID,
      Username: username,
      ConfirmationCode: code,
      Password: PASSWORD,
    })
    expect(right.status).toBe(200)
    expect((await srpSignIn(server, username, PASSWORD)).status).toBe(200)
  })
})

describe('an existing account', () => {
  it('is linked by the verified email Google vouches for', async () => {
    const existing = await registerUser(server)
    const account = googleAccount({ email: existing.email })
    const started = await startSignIn(new OAuthBrowser(), account.sub)
    const tokens = await exchange(codeAt(started.location).code, started.pkce.verifier)
    const { id } = await verifiers()
    const claims = await id.verify(String(tokens.body.id_token))
    expect(claims.sub).toBe(existing.sub)
    expect(claims['cognito:username']).toBe(existing.username)
    expect(claims.identities).toEqual([expect.objectContaining({ userId: account.sub })])
    // The account keeps its password.
    expect((await srpSignIn(server, existing.username, existing.password)).status).toBe(200)
  })

  it('that is disabled is refused, back at the client', async () => {
    const existing = await registerUser(server)
    const account = googleAccount({ email: existing.email })
    await server.database.db
      .updateTable('identity_users')
      .set({ enabled: 0 })
      .where('sub', '=', existing.sub)
      .execute()
    const started = await startSignIn(new OAuthBrowser(), account.sub)
    const location = new URL(started.location)
    expect(`${location.origin}${location.pathname}`).toBe(callbackUrl(server.url))
    expect(location.searchParams.get('error_description')).toBe('User is disabled.')
    expect(location.searchParams.get('code')).toBeNull()
  })

  it('is not linked by an email Google has not verified', async () => {
    const existing = await registerUser(server)
    const account = googleAccount({ email: existing.email, emailVerified: false })
    const started = await startSignIn(new OAuthBrowser(), account.sub)
    expect(new URL(started.location).pathname).toBe('/auth/setupUsername')
  })
})

describe('the token endpoint', () => {
  it('refuses a wrong verifier, a reused code, a wrong redirect_uri and an unknown client', async () => {
    const account = googleAccount()
    const { code, pkce } = await firstSignIn(account, newAccount('t').username)
    // The code was spent by firstSignIn: it cannot be used again.
    expect(await exchange(code, pkce.verifier)).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_grant' }),
    })

    const fresh = async () => {
      const started = await startSignIn(new OAuthBrowser(), account.sub)
      return { code: codeAt(started.location).code, verifier: started.pkce.verifier }
    }
    const wrongVerifier = await fresh()
    expect((await exchange(wrongVerifier.code, pkcePair().verifier)).body.error).toBe(
      'invalid_grant',
    )
    // A failed attempt spends the code too.
    expect((await exchange(wrongVerifier.code, wrongVerifier.verifier)).body.error).toBe(
      'invalid_grant',
    )

    const wrongRedirect = await fresh()
    const redirected = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: wrongRedirect.code,
      client_id: CLIENT_ID,
      redirect_uri: `${server.url}/elsewhere`,
      code_verifier: wrongRedirect.verifier,
    })
    expect(redirected).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_grant' }),
    })

    const unknownClient = await fresh()
    const other = await tokenRequest(server, {
      grant_type: 'authorization_code',
      code: unknownClient.code,
      client_id: 'someoneelse000',
      redirect_uri: callbackUrl(server.url),
      code_verifier: unknownClient.verifier,
    })
    expect(other).toEqual({
      status: 400,
      body: expect.objectContaining({ error: 'invalid_client' }),
    })
    expect(
      (await tokenRequest(server, { client_id: CLIENT_ID, grant_type: 'password' })).body.error,
    ).toBe('unsupported_grant_type')
  })

  it('refreshes with the refresh_token grant and GetTokensFromRefreshToken, until sign-out', async () => {
    const { tokens } = await firstSignIn(googleAccount(), newAccount('r').username)
    const refreshed = await tokenRequest(server, {
      grant_type: 'refresh_token',
      client_id: CLIENT_ID,
      refresh_token: tokens.refresh_token ?? '',
    })
    expect(refreshed.status).toBe(200)
    expect(refreshed.body.refresh_token).toBeUndefined()
    const { access } = await verifiers()
    const claims = await access.verify(String(refreshed.body.access_token))
    expect(claims.scope).toBe('openid email profile aws.cognito.signin.user.admin')

    const api = await call(server, 'GetTokensFromRefreshToken', {
      ClientId: CLIENT_ID,
      RefreshToken: tokens.refresh_token,
    })
    expect(api.status).toBe(200)
    const apiAccess = (api.body.AuthenticationResult as { AccessToken: string }).AccessToken
    expect((await access.verify(apiAccess)).scope).toBe(claims.scope)

    const userInfo = await fetch(`${server.url}/oauth2/userInfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(userInfo.status).toBe(200)
    expect(await userInfo.json()).toMatchObject({ sub: claims.sub, email_verified: 'true' })

    // RevokeToken (what Amplify's signOut calls before /logout) ends the session.
    expect(
      (await call(server, 'RevokeToken', { ClientId: CLIENT_ID, Token: tokens.refresh_token }))
        .status,
    ).toBe(200)
    const afterRevoke = await tokenRequest(server, {
      grant_type: 'refresh_token',
      client_id: CLIENT_ID,
      refresh_token: tokens.refresh_token ?? '',
    })
    expect(afterRevoke.body.error).toBe('invalid_grant')
    const revokedInfo = await fetch(`${server.url}/oauth2/userInfo`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
    })
    expect(revokedInfo.status).toBe(401)
  })

  it('GlobalSignOut ends every session of a Google user', async () => {
    const account = googleAccount()
    const first = await firstSignIn(account, newAccount('o').username)
    const started = await startSignIn(new OAuthBrowser(), account.sub)
    const second = await exchange(codeAt(started.location).code, started.pkce.verifier)
    expect(
      (await call(server, 'GlobalSignOut', { AccessToken: second.body.access_token })).status,
    ).toBe(200)
    for (const refreshToken of [first.tokens.refresh_token, second.body.refresh_token]) {
      const answer = await tokenRequest(server, {
        grant_type: 'refresh_token',
        client_id: CLIENT_ID,
        refresh_token: String(refreshToken),
      })
      expect(answer.body.error).toBe('invalid_grant')
    }
  })

  it('gives identity pool credentials for an id token from Google sign-in', async () => {
    const { tokens } = await firstSignIn(googleAccount(), newAccount('i').username)
    const config = loadConfig({})
    const client = new CognitoIdentityClient({
      region: config.identity.region,
      endpoint: `${server.url}/cognito-identity`,
    })
    try {
      const provider = issuer.replace(/^https?:\/\//, '')
      const logins = { [provider]: tokens.id_token ?? '' }
      const { IdentityId } = await client.send(
        new GetIdCommand({ IdentityPoolId: config.identity.identityPoolId, Logins: logins }),
      )
      const { Credentials } = await client.send(
        new GetCredentialsForIdentityCommand({ IdentityId, Logins: logins }),
      )
      expect(Credentials?.AccessKeyId).toMatch(/^ASIA/)
    } finally {
      client.destroy()
    }
  })
})

describe('/oauth2/authorize', () => {
  it('answers an unknown client or an unlisted redirect_uri itself, never redirecting', async () => {
    const pkce = pkcePair()
    const browser = new OAuthBrowser()
    const unknown = await browser.request(authorizeUrl(server.url, pkce, { client_id: 'nobody00' }))
    expect(unknown.response.status).toBe(400)
    expect(unknown.location).toBeUndefined()
    expect(await unknown.response.json()).toMatchObject({ error: 'invalid_request' })
    const elsewhere = await browser.request(
      authorizeUrl(server.url, pkce, { redirect_uri: 'https://evil.example/cb' }),
    )
    expect(elsewhere.response.status).toBe(400)
    expect(await elsewhere.response.json()).toMatchObject({ error: 'redirect_mismatch' })
  })

  it('redirects other errors to the client with error, error_description and state', async () => {
    const pkce = pkcePair()
    const browser = new OAuthBrowser()
    const cases: [Record<string, string | undefined>, string][] = [
      [{ code_challenge: undefined, code_challenge_method: undefined }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ identity_provider: 'Facebook' }, 'invalid_request'],
      [{ scope: 'openid admin' }, 'invalid_scope'],
    ]
    for (const [overrides, error] of cases) {
      const answer = await browser.request(
        authorizeUrl(server.url, pkce, { state: 'st8', ...overrides }),
      )
      expect(answer.response.status).toBe(302)
      const location = new URL(answer.location ?? '')
      expect(`${location.origin}${location.pathname}`).toBe(callbackUrl(server.url))
      expect(location.searchParams.get('error')).toBe(error)
      expect(location.searchParams.get('error_description')).toBeTruthy()
      expect(location.searchParams.get('state')).toBe('st8')
    }
  })

  it('passes Google’s refusal on to the client with its state', async () => {
    const browser = new OAuthBrowser()
    const authorize = await browser.request(authorizeUrl(server.url, pkcePair(), { state: 'st9' }))
    const googleState = new URL(authorize.location ?? '').searchParams.get('state') ?? ''
    const denied = await browser.request(
      `${server.url}/oauth2/idpresponse?error=access_denied&state=${googleState}`,
    )
    const location = new URL(denied.location ?? '')
    expect(`${location.origin}${location.pathname}`).toBe(callbackUrl(server.url))
    expect(location.searchParams.get('error')).toBe('access_denied')
    expect(location.searchParams.get('state')).toBe('st9')
    expect(location.searchParams.get('code')).toBeNull()
  })

  it('refuses a Google answer that comes back to another browser', async () => {
    const account = googleAccount()
    const browser = new OAuthBrowser()
    const authorize = await browser.request(authorizeUrl(server.url, pkcePair()))
    const atIdpResponse = await browser.signInAtProvider(
      authorize.location ?? '',
      account.sub,
      server.url,
    )
    const stranger = await new OAuthBrowser().request(atIdpResponse)
    expect(stranger.response.status).toBe(400)
    expect(await stranger.response.json()).toMatchObject({ error: 'invalid_request' })
  })
})

describe('/logout and the TLS listener', () => {
  it('sends the browser to an allowed logout_uri and refuses others', async () => {
    const browser = new OAuthBrowser()
    const query = (logoutUri: string, clientId = CLIENT_ID) =>
      `${server.url}/logout?client_id=${clientId}&logout_uri=${encodeURIComponent(logoutUri)}`
    const ok = await browser.request(query(`${server.url}/`))
    expect(ok.response.status).toBe(302)
    expect(ok.location).toBe(`${server.url}/`)
    expect((await browser.request(query('https://evil.example/'))).response.status).toBe(400)
    expect((await browser.request(query(`${server.url}/`, 'nobody00'))).response.status).toBe(400)
  })

  it("builds the default allow-lists from PUBLIC_BASE_URL, never from the request's Host", async () => {
    const spoofed = async (path: string) => {
      const answer = await nodeGet(new URL(path, server.url).href, {
        headers: { host: 'evil.example' },
      })
      return { status: answer.status, location: answer.headers.location }
    }
    const logout = await spoofed(
      `/logout?client_id=${CLIENT_ID}&logout_uri=${encodeURIComponent('http://evil.example/')}`,
    )
    expect(logout).toMatchObject({ status: 400, location: undefined })
    const authorize = await spoofed(
      authorizeUrl('', pkcePair(), { redirect_uri: 'http://evil.example/auth/callback_google' }),
    )
    expect(authorize).toMatchObject({ status: 400, location: undefined })
    // The site's own address is still allowed whatever the Host header says.
    const home = await spoofed(
      `/logout?client_id=${CLIENT_ID}&logout_uri=${encodeURIComponent(`${server.url}/`)}`,
    )
    expect(home).toEqual({ status: 302, location: `${server.url}/` })
  })

  it('serves the same endpoints over https with the certificate kept in the data directory', async () => {
    const ca = await readFile(path.join(server.dataDir, 'tls', 'localhost.crt'), 'utf8')
    const target = new URL(
      `/logout?client_id=${CLIENT_ID}&logout_uri=${encodeURIComponent(`${server.httpsUrl}/`)}`,
      server.httpsUrl,
    )
    const { status, headers } = await nodeGet(target.href, { ca })
    const answer = { status, location: headers.location }
    expect(answer).toEqual({ status: 302, location: `${server.httpsUrl}/` })
  })
})
