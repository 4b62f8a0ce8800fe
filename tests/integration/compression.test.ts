import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BUCKET, signedInPageUser } from '#tests/integration/storage/support.ts'
import { type RawAnswer, rawGet } from '#tests/support/http.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Bytes on the wire (decision 029): pages and `/api` JSON compressed by Accept-Encoding, cached
 * guest pages compressed once, assets precompressed at build, stored objects never touched.
 * node:http, not fetch: fetch decodes bodies by itself and would hide what was sent.
 */
let server: TestServer
let alice: Awaited<ReturnType<typeof signedInPageUser>>

beforeAll(async () => {
  server = await startTestServer()
  alice = await signedInPageUser(server, 'zip')
})
afterAll(async () => {
  await server?.close()
})

function get(path: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return rawGet(`${server.url}${path}`, headers)
}

function decoded(answer: RawAnswer): string {
  const coding = answer.headers['content-encoding']
  if (coding === 'br') return brotliDecompressSync(answer.body).toString()
  if (coding === 'gzip') return gunzipSync(answer.body).toString()
  return answer.body.toString()
}

describe('pages', () => {
  it('sends a guest page in brotli or gzip as asked, the same page as uncompressed, from the cache too', async () => {
    const path = `/courses?zip=${Date.now()}`
    const plain = await get(path)
    expect(plain.headers['content-encoding']).toBeUndefined()
    const html = plain.body.toString()
    expect(html).toContain('</html>')
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await get(path, { 'accept-encoding': `${coding}, deflate` })
      expect(answer.status).toBe(200)
      expect(answer.headers['content-encoding']).toBe(coding)
      expect(answer.headers.vary).toMatch(/accept-encoding/i)
      expect(answer.headers['x-page-cache']).toBe('hit')
      expect(answer.body.byteLength).toBeLessThan(html.length / 3)
      expect(decoded(answer)).toBe(html)
    }
  })

  it('compresses a signed-in page as it streams', async () => {
    const answer = await get('/settings', {
      cookie: alice.cookie,
      'accept-encoding': 'gzip, deflate, br',
    })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-encoding']).toBe('br')
    expect(decoded(answer)).toContain('</html>')
  })

  it('sends identity to a client that refuses every coding it offers', async () => {
    const answer = await get('/courses', { 'accept-encoding': 'br;q=0, gzip;q=0' })
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.body.toString()).toContain('</html>')
  })
})

describe('/api', () => {
  it('compresses JSON over 1 KB and leaves small answers as they are', async () => {
    const list = await get('/api/courses', { 'accept-encoding': 'br' })
    expect(list.status).toBe(200)
    expect(list.headers['content-encoding']).toBe('br')
    expect(JSON.parse(decoded(list))).toBeTypeOf('object')
    const small = await get('/api/courses/nobody/999999', { 'accept-encoding': 'br' })
    expect(small.headers['content-encoding']).toBeUndefined()
    expect(() => JSON.parse(small.body.toString())).not.toThrow()
  })
})

describe('assets', () => {
  it('sends the build’s precompressed copy of a script, immutable, by Accept-Encoding', async () => {
    const home = await get('/')
    const script =
      /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(home.body.toString())?.[1] ??
      /href="(\/assets\/[^"]+\.js)"/.exec(home.body.toString())?.[1]
    expect(script).toBeDefined()
    const plain = await get(script as string)
    for (const coding of ['br', 'gzip'] as const) {
      const answer = await get(script as string, { 'accept-encoding': coding })
      expect(answer.status).toBe(200)
      expect(answer.headers['content-encoding']).toBe(coding)
      expect(answer.headers['cache-control']).toContain('immutable')
      expect(answer.headers.vary).toMatch(/accept-encoding/i)
      expect(decoded(answer)).toBe(plain.body.toString())
    }
  })
})

describe('stored objects', () => {
  it('are sent as stored, never content-encoded by the server', async () => {
    const s3 = alice.s3
    const key = `private/${alice.identityId}/notes-${Date.now()}.txt`
    const text = 'メモ '.repeat(2000)
    await s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: text,
        ContentType: 'text/plain; charset=utf-8',
      }),
    )
    const url = new URL(await getSignedUrl(s3, new GetObjectCommand({ Bucket: BUCKET, Key: key })))
    const answer = await get(`${url.pathname}${url.search}`, { 'accept-encoding': 'br, gzip' })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.body.toString()).toBe(text)
  })
})
