import { randomBytes } from 'node:crypto'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { callApi } from '#tests/support/http.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, signedInPageUser, startStorageServer } from './storage/support.ts'

/**
 * Images in a study's notes against the real server and object storage: objects are really
 * uploaded with the identity pool's credentials, and the server reads their bytes, not the
 * type the client declared, before it saves notes that show them.
 */
type User = Awaited<ReturnType<typeof signedInPageUser>>

let server: TestServer
let author: User
let other: User

beforeAll(async () => {
  server = await startStorageServer()
  author = await signedInPageUser(server, 'noteauthor')
  other = await signedInPageUser(server, 'noteother')
})
afterAll(async () => {
  await server?.close()
})

/** Uploads `body` as `who` into their own public folder, declared as a PNG; its page address. */
async function upload(who: User, body: Buffer) {
  const key = `public/${who.identityId}/studies/${randomBytes(6).toString('hex')}.png`
  await who.s3.send(
    new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ContentType: 'image/png' }),
  )
  return `/s3/${BUCKET}/${key}`
}

const createStudy = (notes: string) =>
  callApi(server.url, 'POST', '/studies', author.cookie, { title: '画像つきノート', notes })

describe('images in a study’s notes', () => {
  it('refuses an HTML file labelled image/png with a field error on the notes', async () => {
    const page = await upload(author, Buffer.from('<html><script>alert(1)</script></html>'))
    const refused = await createStudy(`# 図\n\n![図](${page})`)
    expect(refused.status).toBe(400)
    expect(refused.body.error.fields).toEqual({
      notes: ['本文の画像には PNG・JPEG・WebP・GIF を選んでください。'],
    })
  })

  it('refuses an image another user uploaded', async () => {
    const theirs = await upload(other, Buffer.concat([PNG_1X1, randomBytes(256)]))
    const refused = await createStudy(`![図](${theirs})`)
    expect(refused.status).toBe(400)
    expect(refused.body.error.fields).toEqual({
      notes: ['アップロードした画像が見つかりません。もう一度アップロードしてください。'],
    })
  })

  it('accepts a PNG the author uploaded and an external https image', async () => {
    const mine = await upload(author, Buffer.concat([PNG_1X1, randomBytes(256)]))
    const notes = `![図](${mine})\n\n![外部](https://example.com/figure.png)`
    const created = await createStudy(notes)
    expect(created.status).toBe(201)
    const { id, revision } = created.body
    // Saving again with the same images reads nothing new and succeeds.
    const saved = await callApi(server.url, 'PUT', `/studies/${id}`, author.cookie, {
      title: '画像つきノート',
      notes: `${notes}\n\n追記`,
      revision,
    })
    expect(saved.status).toBe(200)
  })
})
