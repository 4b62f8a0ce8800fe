import { randomBytes } from 'node:crypto'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { CLIENT_ID } from '#tests/integration/identity/support.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, signedInUser, startStorageServer } from './support.ts'

/** With STORAGE_PUBLIC_URL the pages link public objects on that origin, not the site's. */
const PUBLIC_URL = 'https://files.techlab.example/s3/techlab'
let server: TestServer

beforeAll(async () => {
  server = await startStorageServer({ STORAGE_PUBLIC_URL: PUBLIC_URL })
})
afterAll(async () => {
  await server?.close()
})

it('renders the avatar from the public origin', async () => {
  const user = await signedInUser(server, 'pub')
  const key = `public/${user.identityId}/avatars/${randomBytes(8).toString('hex')}.png`
  await user.s3.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: PNG_1X1, ContentType: 'image/png' }),
  )
  const cookie = amplifyCookieHeader(CLIENT_ID, user.username, {
    accessToken: user.tokens.AccessToken,
    idToken: user.tokens.IdToken,
  })
  const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' }
  const body = new URLSearchParams({ intent: 'setAvatar', key })
  expect((await fetch(`${server.url}/settings`, { method: 'POST', headers, body })).status).toBe(
    200,
  )
  const page = await (await fetch(`${server.url}/settings`, { headers: { cookie } })).text()
  const encodedKey = key.split('/').map(encodeURIComponent).join('/')
  expect(page).toContain(`src="${PUBLIC_URL}/${encodedKey}"`)
  expect(page).not.toContain(`src="/s3/${BUCKET}/`)
})
