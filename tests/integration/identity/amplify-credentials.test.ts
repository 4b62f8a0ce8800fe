import { confirmSignUp, fetchAuthSession, signIn, signOut, signUp } from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { configureAmplify, latestCode, newAccount } from './support.ts'

// Amplify keeps global state: this file configures it with the identity pool as well.
const IDENTITY_POOL_ID = loadConfig({}).identity.identityPoolId
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
  configureAmplify(server, { identityPoolId: IDENTITY_POOL_ID })
})
afterAll(async () => {
  await server?.close()
})

/** What the object store will see when a request is signed with these credentials. */
async function ownerOf(credentials: { accessKeyId: string; sessionToken?: string } | undefined) {
  return server.app.identity.findCredentials(
    credentials?.accessKeyId ?? '',
    credentials?.sessionToken ?? '',
  )
}

describe('aws-amplify v6 against the embedded identity pool', { timeout: 120_000 }, () => {
  it('gives a guest an identity and guest credentials', async () => {
    const session = await fetchAuthSession()
    expect(session.tokens).toBeUndefined()
    expect(session.identityId).toMatch(/^ap-northeast-1:[0-9a-f-]{36}$/)
    const owner = await ownerOf(session.credentials)
    expect(owner).toMatchObject({ identityId: session.identityId, authenticated: false })
    expect(owner?.secretAccessKey).toBe(session.credentials?.secretAccessKey)
  })

  it('gives a signed-in user their own identity and authenticated credentials, the same after a refresh', async () => {
    const account = newAccount('idp')
    await signUp({
      username: account.username,
      password: account.password,
      options: { userAttributes: { email: account.email } },
    })
    await confirmSignUp({
      username: account.username,
      confirmationCode: await latestCode(server, account.email),
    })
    await signIn({ username: account.username, password: account.password })

    const session = await fetchAuthSession()
    const owner = await ownerOf(session.credentials)
    expect(owner).toMatchObject({ identityId: session.identityId, authenticated: true })

    const refreshed = await fetchAuthSession({ forceRefresh: true })
    expect(refreshed.identityId).toBe(session.identityId)
    expect(refreshed.credentials?.accessKeyId).not.toBe(session.credentials?.accessKeyId)
    await signOut()
  })
})
