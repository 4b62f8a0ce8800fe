import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { callApi } from '#tests/support/http.ts'
import { subOf } from '#tests/support/realtime.ts'
import { CLIENT_ID, signedInUser as signedInPerson } from '#tests/support/signed-in-user.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, bodyText, expectS3Error, signedInUser, startStorageServer } from './support.ts'

/**
 * A suspension reaches object storage at once: credentials the identity pool issued before it
 * (valid for an hour) are refused from the next request, in S3's own error shape.
 */

const ADMIN = 'store_boss'
let server: TestServer
let admin: string

beforeAll(async () => {
  server = await startStorageServer({ ADMIN_USERS: ADMIN })
  admin = amplifyCookieHeader(CLIENT_ID, ADMIN, await signedInPerson(server, ADMIN))
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const moderate = (sub: string, action: 'suspend' | 'unsuspend') =>
  callApi(server.url, 'POST', `/admin/reports/user/${sub}/actions`, admin, { action })

describe('object storage and suspended users', () => {
  it("refuses a suspended user's earlier credentials at once, and lets others be", async () => {
    const user = await signedInUser(server, 'susp')
    const other = await signedInUser(server, 'nosusp')
    const put = (person: typeof user, name: string) =>
      person.s3.send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: `private/${person.identityId}/${name}`,
          Body: 'メモ',
          ContentType: 'text/plain',
        }),
      )
    const get = (name: string) =>
      user.s3.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: `private/${user.identityId}/${name}` }),
      )
    await put(user, 'before.txt')
    expect(await bodyText((await get('before.txt')).Body)).toBe('メモ')

    const sub = subOf(user.tokens.AccessToken as string)
    expect((await moderate(sub, 'suspend')).status).toBe(204)
    // The same credentials, well within their hour.
    await expectS3Error(put(user, 'after.txt'), 'AccessDenied', 403)
    await expectS3Error(get('before.txt'), 'AccessDenied', 403)
    await put(other, 'still.txt')

    expect((await moderate(sub, 'unsuspend')).status).toBe(204)
    await put(user, 'again.txt')
  })
})
