import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, type Person, signedInUser, startStorageServer } from './support.ts'

/**
 * What a browser is told about stored objects (docs/decisions/019): a sandbox with nothing to
 * load on every answer, and a download for every type that could run or render markup.
 */
let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const SCRIPT_PAGE = '<!doctype html><script>fetch("/api/me")</script>'

async function put(key: string, contentType: string, body = SCRIPT_PAGE, disposition?: string) {
  await user.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: body,
      ContentType: contentType,
      ContentDisposition: disposition,
    }),
  )
  return `${server.url}/s3/${BUCKET}/${key.split('/').map(encodeURIComponent).join('/')}`
}

function expectSandboxed(response: Response) {
  expect(response.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'")
  expect(response.headers.get('x-content-type-options')).toBe('nosniff')
}

describe('objects served to browsers', () => {
  it.each([
    ['text/html', 'x.html'],
    ['text/html; charset=utf-8', 'y.html'],
    ['image/svg+xml', 'z.svg'],
    ['application/xhtml+xml', 'a.xhtml'],
    ['text/javascript', 'b.js'],
    ['application/octet-stream', 'c.bin'],
  ])(
    '%s is sandboxed and downloaded, even when the uploader asked for inline',
    async (type, name) => {
      const url = await put(`public/${user.identityId}/${name}`, type, SCRIPT_PAGE, 'inline')
      for (const method of ['GET', 'HEAD']) {
        const response = await fetch(url, { method })
        expect(response.status).toBe(200)
        expectSandboxed(response)
        expect(response.headers.get('content-disposition')).toBe('attachment')
      }
    },
  )

  it.each([
    ['image/png'],
    ['image/jpeg'],
    ['image/webp'],
    ['image/gif'],
    ['video/mp4'],
    ['audio/mpeg'],
    ['application/pdf'],
    ['text/plain; charset=utf-8'],
  ])('%s is shown inline, still sandboxed, keeping the stored disposition', async (type) => {
    const name = `inline-${type.replace(/\W/g, '-')}`
    const url = await put(
      `public/${user.identityId}/${name}`,
      type,
      'bytes',
      'inline; filename="a"',
    )
    const response = await fetch(url)
    expectSandboxed(response)
    expect(response.headers.get('content-type')).toBe(type)
    expect(response.headers.get('content-disposition')).toBe('inline; filename="a"')
  })

  it('an object without a stored type (binary/octet-stream) is downloaded', async () => {
    const url = await put(`public/${user.identityId}/untyped`, '', 'bytes')
    const response = await fetch(url)
    expect(response.headers.get('content-disposition')).toBe('attachment')
  })

  it('a presigned URL that overrides the type to HTML and asks for inline still downloads', async () => {
    const key = `protected/${user.identityId}/note.txt`
    await put(key, 'text/plain', SCRIPT_PAGE)
    const url = await getSignedUrl(
      user.s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: key,
        ResponseContentType: 'text/html',
        ResponseContentDisposition: 'inline',
      }),
      { expiresIn: 60 },
    )
    const response = await fetch(url)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('text/html')
    expect(response.headers.get('content-disposition')).toBe('attachment')
    expectSandboxed(response)
  })

  it('an attachment asked for keeps its file name, and `inline` dressed as one does not pass', async () => {
    const key = `public/${user.identityId}/page.html`
    await put(key, 'text/html', SCRIPT_PAGE)
    const named = await getSignedUrl(
      user.s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: key,
        ResponseContentDisposition: 'attachment; filename="page.html"',
      }),
      { expiresIn: 60 },
    )
    expect((await fetch(named)).headers.get('content-disposition')).toBe(
      'attachment; filename="page.html"',
    )
    const disguised = await getSignedUrl(
      user.s3,
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: key,
        ResponseContentDisposition: 'inline; filename="attachment"',
      }),
      { expiresIn: 60 },
    )
    expect((await fetch(disguised)).headers.get('content-disposition')).toBe('attachment')
  })

  it('errors, listings and unroutable targets carry the sandbox too', async () => {
    const missing = await fetch(`${server.url}/s3/${BUCKET}/public/none.html`)
    expect(missing.status).toBe(404)
    expectSandboxed(missing)
    const listing = await fetch(`${server.url}/s3/${BUCKET}?list-type=2&prefix=public/`)
    expectSandboxed(listing)
    const unroutable = await fetch(`${server.url}/s3/${BUCKET}/%E0%A4%A`)
    expect(unroutable.status).toBe(400)
    expectSandboxed(unroutable)
  })
})
