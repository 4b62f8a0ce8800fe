import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { fetchAuthSession, signIn, signOut } from 'aws-amplify/auth'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { BUCKET, bodyText, s3Client, signedInUser } from '#tests/integration/storage/support.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'
import { configureAmplify, PASSWORD } from './support.ts'

// Amplify keeps global state: this file is the one "new browser".
const IDENTITY_POOL_ID = loadConfig({}).identity.identityPoolId
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({ STORAGE_FSYNC: 'off' })
  configureAmplify(server, { identityPoolId: IDENTITY_POOL_ID })
})
afterAll(async () => {
  await server?.close()
})

describe('aws-amplify v6: a returning user on a new browser', { timeout: 120_000 }, () => {
  it('gets their own identity and credentials after browsing as a guest, and can upload', async () => {
    // Another browser: the user signed in there and got an identity.
    const elsewhere = await signedInUser(server, 'back')
    // This browser: a guest first (Amplify fetches guest credentials on its own).
    const asGuest = await fetchAuthSession()
    expect(asGuest.identityId).toBeDefined()
    expect(asGuest.identityId).not.toBe(elsewhere.identityId)

    await signIn({ username: elsewhere.username, password: PASSWORD })
    const session = await fetchAuthSession()
    expect(session.tokens?.accessToken).toBeDefined()
    expect(session.identityId).toBe(elsewhere.identityId)
    const credentials = session.credentials
    if (!credentials) throw new Error('fetchAuthSession gave no credentials')

    const s3 = s3Client(server, credentials)
    const key = `protected/${session.identityId}/notes/first.txt`
    await s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'はじめてのメモ' }))
    const stored = await elsewhere.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await bodyText(stored.Body)).toBe('はじめてのメモ')
    await signOut()
  })
})
