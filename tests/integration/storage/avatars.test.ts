import { randomBytes } from 'node:crypto'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { CLIENT_ID } from '#tests/integration/identity/support.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, expectS3Error, signedInUser, startStorageServer } from './support.ts'

/**
 * The avatar is set by the settings page's action, which checks the uploaded object: a public
 * object of an image type, uploaded by this very user. The replaced picture is deleted.
 */
type User = Awaited<ReturnType<typeof signedInUser>>

let server: TestServer
let alice: User
let bob: User

beforeAll(async () => {
  server = await startStorageServer()
  alice = await signedInUser(server, 'ava')
  bob = await signedInUser(server, 'avb')
})
afterAll(async () => {
  await server?.close()
})

async function upload(
  user: User,
  key: string,
  contentType = 'image/png',
  body = Buffer.concat([PNG_1X1, randomBytes(2048)]),
) {
  await user.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: body,
      ContentType: contentType,
    }),
  )
}

/** Posts the settings form as the browser does without JavaScript. */
function post(user: User | undefined, fields: Record<string, string>) {
  return fetch(`${server.url}/settings`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(user && {
        cookie: amplifyCookieHeader(CLIENT_ID, user.username, {
          accessToken: user.tokens.AccessToken,
          idToken: user.tokens.IdToken,
        }),
      }),
    },
    body: new URLSearchParams(fields),
  })
}

async function avatarKeyOf(user: User): Promise<string | null | undefined> {
  const row = await server.database.db
    .selectFrom('users')
    .select('avatar_key')
    .where('username', '=', user.username)
    .executeTakeFirst()
  return row?.avatar_key
}

describe('setting the avatar', () => {
  it("refuses someone else's picture", async () => {
    const key = `public/avatars/${randomBytes(8).toString('hex')}.png`
    await upload(bob, key)
    expect((await post(alice, { intent: 'setAvatar', key })).status).toBe(200)
    expect(await avatarKeyOf(alice)).toBeNull()
  })

  it('refuses what is not an image, and what is not public', async () => {
    const text = `public/avatars/${randomBytes(8).toString('hex')}.png`
    await upload(alice, text, 'text/plain')
    await post(alice, { intent: 'setAvatar', key: text })
    const hidden = `private/${alice.identityId}/me.png`
    await upload(alice, hidden)
    await post(alice, { intent: 'setAvatar', key: hidden })
    await post(alice, { intent: 'setAvatar', key: 'public/avatars/missing.png' })
    expect(await avatarKeyOf(alice)).toBeNull()
  })

  it('believes the bytes, not the declared type: a page or an SVG called image/png is refused', async () => {
    const bodies = [
      '<!doctype html><script>fetch("/api/me")</script>',
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '',
    ]
    for (const body of bodies) {
      const key = `public/avatars/${randomBytes(8).toString('hex')}.png`
      await upload(alice, key, 'image/png', Buffer.from(body))
      const answer = await post(alice, { intent: 'setAvatar', key })
      expect(answer.status).toBe(200)
      expect(await answer.text()).toContain('PNG・JPEG・WebP・GIF を選んでください')
      expect(await avatarKeyOf(alice)).toBeNull()
    }
  })

  it('sets my own picture, and deletes the one it replaces', async () => {
    const first = `public/avatars/${randomBytes(8).toString('hex')}.png`
    const second = `public/avatars/${randomBytes(8).toString('hex')}.png`
    await upload(alice, first)
    expect((await post(alice, { intent: 'setAvatar', key: first })).status).toBe(200)
    expect(await avatarKeyOf(alice)).toBe(first)
    const page = await fetch(`${server.url}/`, {
      headers: {
        cookie: amplifyCookieHeader(CLIENT_ID, alice.username, {
          accessToken: alice.tokens.AccessToken,
          idToken: alice.tokens.IdToken,
        }),
      },
    })
    expect(await page.text()).toContain(`src="/s3/${BUCKET}/${first}"`)

    await upload(alice, second)
    await post(alice, { intent: 'setAvatar', key: second })
    expect(await avatarKeyOf(alice)).toBe(second)
    await expectS3Error(
      alice.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: first })),
      'NoSuchKey',
    )

    await post(alice, { intent: 'removeAvatar' })
    expect(await avatarKeyOf(alice)).toBeNull()
    await expectS3Error(
      alice.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: second })),
      'NoSuchKey',
    )
  })

  it('sends a guest to sign in', async () => {
    const response = await post(undefined, { intent: 'removeAvatar' })
    expect(response.status).toBe(302)
    expect(response.headers.get('location')).toContain('/auth/signin')
  })
})
