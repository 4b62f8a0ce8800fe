import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { rawRequest, statusOf } from '#tests/support/http.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

describe('health', () => {
  it('answers /healthz and /readyz, uncached', async () => {
    const health = await fetch(`${server.url}/healthz`)
    expect(health.status).toBe(200)
    expect(await health.json()).toEqual({ status: 'ok' })
    const ready = await fetch(`${server.url}/readyz`)
    expect(ready.status).toBe(200)
    expect(ready.headers.get('cache-control')).toBe('no-store')
    const body = await ready.json()
    expect(body.status).toBe('ready')
    // Proves which engine this run exercises: CI runs the suite once on each.
    expect(body.database).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite')
  })

  it('reports not ready when the database cannot be reached', async () => {
    const other = await startTestServer()
    try {
      await other.database.close()
      const ready = await fetch(`${other.url}/readyz`)
      expect(ready.status).toBe(503)
      expect((await ready.json()).status).toBe('unavailable')
    } finally {
      await other.close()
    }
  })
})

describe('/realtime outside WebSocket', () => {
  it.each([
    ['GET', '/realtime', 426, 'UPGRADE_REQUIRED'],
    ['POST', '/realtime', 405, 'METHOD_NOT_ALLOWED'],
    ['GET', '/realtime/anything', 404, 'NOT_FOUND'],
  ])('answers %s %s with %i, not a page', async (method, path, status, code) => {
    const response = await fetch(`${server.url}${path}`, { method })
    expect(response.status).toBe(status)
    expect((await response.json()).error.code).toBe(code)
  })
})

describe('/api', () => {
  it('pages through the catalogue with cursors, without gaps or repeats', async () => {
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''
      const response = await fetch(`${server.url}/api/courses?limit=5${query}`)
      expect(response.status).toBe(200)
      const body = (await response.json()) as { items: { id: string }[]; nextCursor: string | null }
      seen.push(...body.items.map((item) => item.id))
      cursor = body.nextCursor
    } while (cursor)
    expect(seen.length).toBe(28)
    expect(new Set(seen).size).toBe(seen.length)
  })

  it('answers bad parameters with 400 and field errors', async () => {
    const response = await fetch(`${server.url}/api/courses?limit=abc&cursor=%%%`)
    expect(response.status).toBe(400)
    const body = await response.json()
    expect(body.error.code).toBe('VALIDATION_FAILED')
    expect(Object.keys(body.error.fields).sort()).toEqual(['cursor', 'limit'])
  })

  it('answers an unknown course and an unknown endpoint with JSON 404s', async () => {
    const course = await fetch(`${server.url}/api/users/techlab/courses/nope`)
    expect(course.status).toBe(404)
    expect((await course.json()).error.code).toBe('NOT_FOUND')
    const endpoint = await fetch(`${server.url}/api/nothing-here`)
    expect(endpoint.status).toBe(404)
    expect(endpoint.headers.get('content-type')).toMatch(/application\/json/)
  })

  it('answers malformed JSON bodies with 400', async () => {
    const response = await fetch(`${server.url}/api/courses`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"broken": ',
    })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    expect((await response.json()).error).toBeDefined()
  })
})

describe('bad input never gets a 500 and the process keeps serving', () => {
  it('answers a malformed URL with 400 and a message', async () => {
    const response = await fetch(`${server.url}/%E0%A4%A`)
    expect(response.status).toBe(400)
    expect(await response.text()).toContain('URL')
  })

  it.each(['/courses/%E0%A4%A', '/%E0%A4%A/courses/x', '/api/%E0%A4%A'])(
    'answers %s with a 4xx',
    async (path) => {
      const response = await fetch(`${server.url}${path}`)
      expect(response.status).toBeGreaterThanOrEqual(400)
      expect(response.status).toBeLessThan(500)
    },
  )

  it('answers oversized headers with 431', async () => {
    const answer = await rawRequest(
      server.url,
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    )
    expect(statusOf(answer)).toBe(431)
  })

  it('answers a method HTTP does not know with 400', async () => {
    const answer = await rawRequest(
      server.url,
      'BREW / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    )
    expect(statusOf(answer)).toBe(400)
  })

  it('answers a known method pages do not support with 405 and Allow', async () => {
    const answer = await rawRequest(
      server.url,
      'PROPFIND /courses HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    )
    expect(statusOf(answer)).toBe(405)
    expect(answer.toLowerCase()).toContain('allow: get, head')
  })

  it.each([
    '/?%%%',
    '/courses?a[b]=c&&&=&x=%ZZ',
    `/courses?${'q=1&'.repeat(2000)}`,
    '/?__proto__[x]=1',
  ])('serves %s despite a junk query string', async (path) => {
    const response = await fetch(`${server.url}${path}`)
    expect(response.status).toBeLessThan(500)
    await response.text()
  })

  it('answers a page POST without an action with a 4xx', async () => {
    const response = await fetch(`${server.url}/courses`, { method: 'POST', body: 'x=1' })
    expect(response.status).toBeGreaterThanOrEqual(400)
    expect(response.status).toBeLessThan(500)
    await response.text()
  })

  it('is still healthy after all of that', async () => {
    expect((await fetch(`${server.url}/healthz`)).status).toBe(200)
  })
})
