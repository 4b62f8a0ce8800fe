import { randomBytes } from 'node:crypto'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { CLIENT_ID } from '#tests/integration/identity/support.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, expectS3Error, signedInUser, startStorageServer } from './support.ts'

/**
 * A course's cover is an image its author uploaded to the public level; the API checks the
 * object (who uploaded it, its type) before the course shows it, and deletes a replaced one.
 */
type User = Awaited<ReturnType<typeof signedInUser>>

let server: TestServer
let author: User
let stranger: User

beforeAll(async () => {
  server = await startStorageServer()
  author = await signedInUser(server, 'cover_author')
  stranger = await signedInUser(server, 'cover_stranger')
})
afterAll(async () => {
  await server?.close()
})

const cookieOf = (user: User) =>
  amplifyCookieHeader(CLIENT_ID, user.username, {
    accessToken: user.tokens.AccessToken,
    idToken: user.tokens.IdToken,
  })

async function api(method: string, path: string, user: User | undefined, body?: unknown) {
  const response = await fetch(`${server.url}/api${path}`, {
    method,
    headers: {
      ...(body !== undefined && { 'content-type': 'application/json' }),
      ...(user && { cookie: cookieOf(user) }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  return { status: response.status, json: (await response.json()) as Record<string, unknown> }
}

async function upload(
  user: User,
  contentType = 'image/png',
  key = `public/${user.identityId}/covers/${randomBytes(8).toString('hex')}.png`,
): Promise<string> {
  await user.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: Buffer.concat([PNG_1X1, randomBytes(4096)]),
      ContentType: contentType,
    }),
  )
  return key
}

async function newCourse(): Promise<{ id: string; revision: number }> {
  const created = await api('POST', '/courses', author, { title: 'カバーのあるコース' })
  expect(created.status).toBe(201)
  return created.json as { id: string; revision: number }
}

async function coverOf(courseId: string): Promise<string | null | undefined> {
  const row = await server.database.db
    .selectFrom('courses')
    .select('cover_key')
    .where('id', '=', courseId)
    .executeTakeFirst()
  return row?.cover_key
}

describe('a course cover', () => {
  it('is set from my own upload, shown on the course page, and a replaced one is deleted', async () => {
    const course = await newCourse()
    const first = await upload(author)
    const set = await api('PUT', `/courses/${course.id}/cover`, author, {
      key: first,
      revision: course.revision,
    })
    expect(set.status).toBe(200)
    expect(set.json).toEqual({ coverKey: first, revision: course.revision + 1 })
    expect(await coverOf(course.id)).toBe(first)

    const page = await fetch(`${server.url}/${author.username}/courses/${course.id}`, {
      headers: { cookie: cookieOf(author) },
    })
    // The identity id's colon is escaped in the address.
    expect(await page.text()).toContain(`src="/s3/${BUCKET}/${first.replace(':', '%3A')}"`)

    const second = await upload(author)
    const replaced = await api('PUT', `/courses/${course.id}/cover`, author, {
      key: second,
      revision: course.revision + 1,
    })
    expect(replaced.status).toBe(200)
    await expectS3Error(
      author.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: first })),
      'NoSuchKey',
    )

    const removed = await api('PUT', `/courses/${course.id}/cover`, author, {
      key: null,
      revision: course.revision + 2,
    })
    expect(removed.status).toBe(200)
    expect(await coverOf(course.id)).toBeNull()
  })

  it("refuses someone else's image, what is not an image, outside my folder or not public, and what does not exist", async () => {
    const course = await newCourse()
    const othersImage = await upload(stranger)
    const text = await upload(author, 'text/plain')
    // Public and the author's, but outside their own folder.
    const shared = await upload(
      author,
      'image/png',
      `public/covers/${randomBytes(8).toString('hex')}.png`,
    )
    const hidden = `private/${author.identityId}/cover.png`
    await author.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: hidden,
        Body: randomBytes(64),
        ContentType: 'image/png',
      }),
    )
    // Declared a PNG, but a page that runs a script: the server reads the bytes.
    const disguised = `public/${author.identityId}/covers/page.png`
    await author.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: disguised,
        Body: '<!doctype html><script>fetch("/api/me")</script>',
        ContentType: 'image/png',
      }),
    )
    const keys = [othersImage, text, shared, hidden, disguised, 'public/covers/missing.png']
    for (const key of keys) {
      const refused = await api('PUT', `/courses/${course.id}/cover`, author, {
        key,
        revision: course.revision,
      })
      expect(refused.status, key).toBe(400)
      expect(refused.json).toMatchObject({
        error: { code: 'VALIDATION_FAILED', fields: { key: [expect.any(String)] } },
      })
    }
    expect(await coverOf(course.id)).toBeNull()
  })

  it("is not for a guest or for someone else's course, and names its revision", async () => {
    const course = await newCourse()
    const key = await upload(author)
    expect(
      (await api('PUT', `/courses/${course.id}/cover`, undefined, { key, revision: 1 })).status,
    ).toBe(401)
    const strangersKey = await upload(stranger)
    expect(
      (
        await api('PUT', `/courses/${course.id}/cover`, stranger, {
          key: strangersKey,
          revision: 1,
        })
      ).status,
    ).toBe(404)
    expect(
      (await api('PUT', `/courses/${course.id}/cover`, author, { key, revision: 7 })).status,
    ).toBe(409)
    expect(
      (await api('PUT', `/courses/${course.id}/cover`, author, { key: '../x', revision: 1 }))
        .status,
    ).toBe(400)
    expect(await coverOf(course.id)).toBeNull()
  })
})
