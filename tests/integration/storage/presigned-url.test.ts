import { randomBytes } from 'node:crypto'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PRESIGNED_URL_MAX_S, presignedGetUrl } from '#app/lib/storage/presigned-url.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, type Person, signedInUser, startStorageServer } from './support.ts'

let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  // The client's keep-alive sockets must not hold the server's close open.
  user?.s3.destroy()
  await server?.close()
})

describe('presignedGetUrl (the browser helper)', () => {
  it('reads a private object for 900 seconds by default, without credentials', async () => {
    const key = `private/${user.identityId}/note.txt`
    const body = randomBytes(1000)
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }))
    const url = await presignedGetUrl(user.s3, BUCKET, key)
    expect(new URL(url).searchParams.get('X-Amz-Expires')).toBe('900')
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(Buffer.from(await response.arrayBuffer()).equals(body)).toBe(true)
    // The same key unsigned is refused.
    const unsigned = await fetch(url.split('?')[0] as string)
    expect(unsigned.status).toBe(403)
    await unsigned.arrayBuffer()
  })

  it('refuses lifetimes beyond 7 days or below one second before signing', async () => {
    const key = `private/${user.identityId}/note.txt`
    await expect(presignedGetUrl(user.s3, BUCKET, key, PRESIGNED_URL_MAX_S + 1)).rejects.toThrow(
      RangeError,
    )
    await expect(presignedGetUrl(user.s3, BUCKET, key, 0)).rejects.toThrow(RangeError)
    const longest = await presignedGetUrl(user.s3, BUCKET, key, PRESIGNED_URL_MAX_S)
    // The endpoint's own handling of 7-day URLs is tested in presigned.test.ts.
    expect(new URL(longest).searchParams.get('X-Amz-Expires')).toBe(String(PRESIGNED_URL_MAX_S))
  })
})
