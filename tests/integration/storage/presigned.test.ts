import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, type Person, signedInUser, startStorageServer } from './support.ts'

let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const own = (name: string) => `private/${user.identityId}/${name}`
const codeOf = async (response: Response) => /<Code>(\w+)<\/Code>/.exec(await response.text())?.[1]

describe('presigned URLs (@aws-sdk/s3-request-presigner)', () => {
  it('reads an object with a presigned GET (default 900 s), response overrides included', async () => {
    await user.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: own('avatar.png'),
        Body: 'png bytes',
        ContentType: 'image/png',
      }),
    )
    const url = await getSignedUrl(
      user.s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: own('avatar.png'),
        ResponseContentDisposition: 'inline; filename="a.png"',
      }),
      { expiresIn: 900 },
    )
    expect(url).toContain('X-Amz-Expires=900')
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(response.headers.get('content-disposition')).toBe('inline; filename="a.png"')
    expect(await response.text()).toBe('png bytes')
  })

  it('writes an object with a presigned PUT', async () => {
    const url = await getSignedUrl(
      user.s3,
      new PutObjectCommand({ Bucket: BUCKET, Key: own('uploaded.txt') }),
      { expiresIn: 60 },
    )
    const put = await fetch(url, { method: 'PUT', body: 'sent by presigned PUT' })
    expect(put.status).toBe(200)
    expect(put.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/)
    const got = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: own('uploaded.txt') }),
    )
    expect(await got.Body?.transformToString()).toBe('sent by presigned PUT')
  })

  it('answers AccessDenied "Request has expired" once the URL has expired', async () => {
    const signedAt = new Date(Date.now() - 120_000)
    const url = await getSignedUrl(
      user.s3,
      new GetObjectCommand({ Bucket: BUCKET, Key: own('avatar.png') }),
      {
        expiresIn: 60,
        signingDate: signedAt,
      },
    )
    const response = await fetch(url)
    expect(response.status).toBe(403)
    const text = await response.text()
    expect(text).toContain('<Code>AccessDenied</Code>')
    expect(text).toContain('<Message>Request has expired</Message>')
  })

  it('accepts 7 days and refuses a longer life', async () => {
    const week = await getSignedUrl(
      user.s3,
      new GetObjectCommand({ Bucket: BUCKET, Key: own('avatar.png') }),
      { expiresIn: 604_800 },
    )
    expect((await fetch(week)).status).toBe(200)
    // The presigner itself refuses more than a week, so the longer URL is edited (and so re-checked first for its expiry).
    const longer = week.replace('X-Amz-Expires=604800', 'X-Amz-Expires=604801')
    const response = await fetch(longer)
    expect(response.status).toBe(400)
    expect(await codeOf(response)).toBe('AuthorizationQueryParametersError')
  })

  it('refuses a presigned URL used for another key or method', async () => {
    const url = await getSignedUrl(
      user.s3,
      new GetObjectCommand({ Bucket: BUCKET, Key: own('avatar.png') }),
      { expiresIn: 60 },
    )
    const otherKey = await fetch(url.replace('avatar.png', 'uploaded.txt'))
    expect(otherKey.status).toBe(403)
    expect(await codeOf(otherKey)).toBe('SignatureDoesNotMatch')
    const otherMethod = await fetch(url, { method: 'DELETE' })
    expect(await codeOf(otherMethod)).toBe('SignatureDoesNotMatch')
  })
})
