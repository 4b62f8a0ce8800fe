import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { describe, expect, it, vi } from 'vitest'
import { createPageCache, sharedMaxAge } from './page-cache.ts'

function page(
  body: string,
  init: { status?: number; cacheControl?: string; headers?: Record<string, string> } = {},
): Response {
  const headers = new Headers({ 'content-type': 'text/html; charset=utf-8', ...init.headers })
  headers.set('cache-control', init.cacheControl ?? 'public, s-maxage=60')
  return new Response(body, { status: init.status ?? 200, headers })
}

function deferred<T>() {
  let resolve: (value: T) => void = () => {}
  let reject: (error: unknown) => void = () => {}
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

/** A render function that counts its calls and answers a new page each time. */
function counter(cacheControl = 'public, s-maxage=60') {
  let calls = 0
  const render = vi.fn(async () => {
    calls += 1
    return page(`render ${calls}`, { cacheControl })
  })
  return render
}

describe('sharedMaxAge', () => {
  it('reads s-maxage from a public 200 response', () => {
    expect(sharedMaxAge(page('', { cacheControl: 'public, s-maxage=30' }))).toBe(30)
    expect(sharedMaxAge(page('', { cacheControl: 'public, max-age=0, s-maxage=120' }))).toBe(120)
    expect(sharedMaxAge(page('', { cacheControl: 'Public, S-MaxAge=5' }))).toBe(5)
  })

  it('is 0 without public or without s-maxage', () => {
    expect(sharedMaxAge(page('', { cacheControl: 's-maxage=30' }))).toBe(0)
    expect(sharedMaxAge(page('', { cacheControl: 'public, max-age=30' }))).toBe(0)
    expect(sharedMaxAge(new Response('x'))).toBe(0)
  })

  it('is 0 for private, no-store and no-cache', () => {
    for (const cacheControl of [
      'private, s-maxage=30',
      'public, s-maxage=30, no-store',
      'public, no-cache, s-maxage=30',
    ]) {
      expect(sharedMaxAge(page('', { cacheControl })), cacheControl).toBe(0)
    }
  })

  it('is 0 for other statuses and for responses that set a cookie', () => {
    expect(sharedMaxAge(page('', { status: 404 }))).toBe(0)
    expect(sharedMaxAge(page('', { status: 500 }))).toBe(0)
    expect(sharedMaxAge(page('', { status: 302 }))).toBe(0)
    expect(sharedMaxAge(page('', { headers: { 'set-cookie': 'session=abc' } }))).toBe(0)
  })
})

describe('createPageCache', () => {
  it('renders on a miss and replays the same page on a hit', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = counter()

    const first = await (await cache.get('GET /', render)).toResponse()
    expect(first.status).toBe(200)
    expect(first.headers.get('x-page-cache')).toBe('miss')
    expect(first.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await first.text()).toBe('render 1')

    const cached = await cache.get('GET /', render)
    const second = await cached.toResponse()
    expect(second.headers.get('x-page-cache')).toBe('hit')
    expect(second.headers.get('cache-control')).toBe('public, s-maxage=60')
    expect(await second.text()).toBe('render 1')
    // Each toResponse is a fresh Response whose body can be read again.
    expect(await (await cached.toResponse()).text()).toBe('render 1')
    expect(render).toHaveBeenCalledTimes(1)
  })

  it('keeps different keys apart', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = counter()
    await cache.get('GET /a', render)
    await cache.get('GET /b', render)
    expect(await (await (await cache.get('GET /a', render)).toResponse()).text()).toBe('render 1')
    expect(await (await (await cache.get('GET /b', render)).toResponse()).text()).toBe('render 2')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it.each([
    'private, s-maxage=60',
    'public, s-maxage=60, no-store',
    'public, max-age=60',
    'no-store',
  ])('does not cache %s', async (cacheControl) => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = counter(cacheControl)
    const first = await (await cache.get('GET /', render)).toResponse()
    expect(first.headers.get('x-page-cache')).toBeNull()
    expect(await first.text()).toBe('render 1')
    expect(await (await (await cache.get('GET /', render)).toResponse()).text()).toBe('render 2')
  })

  it('does not cache responses with Set-Cookie or a status other than 200', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const withCookie = vi.fn(async () => page('hi', { headers: { 'set-cookie': 'a=b' } }))
    await cache.get('GET /cookie', withCookie)
    const second = await (await cache.get('GET /cookie', withCookie)).toResponse()
    expect(second.headers.get('set-cookie')).toBe('a=b')
    expect(withCookie).toHaveBeenCalledTimes(2)

    const notFound = vi.fn(async () => page('missing', { status: 404 }))
    await cache.get('GET /missing', notFound)
    const again = await (await cache.get('GET /missing', notFound)).toResponse()
    expect(again.status).toBe(404)
    expect(notFound).toHaveBeenCalledTimes(2)
  })

  it('expires an entry after s-maxage seconds', async () => {
    let now = 1_000_000
    const cache = createPageCache({ maxEntries: 10, now: () => now })
    const render = counter('public, s-maxage=10')

    await cache.get('GET /', render)
    now += 9_999
    expect(await (await (await cache.get('GET /', render)).toResponse()).text()).toBe('render 1')
    now += 1
    const renewed = await (await cache.get('GET /', render)).toResponse()
    expect(renewed.headers.get('x-page-cache')).toBe('miss')
    expect(await renewed.text()).toBe('render 2')
    // The renewed entry lives another 10 s from now.
    now += 9_999
    expect(await (await (await cache.get('GET /', render)).toResponse()).text()).toBe('render 2')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('evicts the least recently used entry beyond maxEntries', async () => {
    const cache = createPageCache({ maxEntries: 2 })
    const renders = { a: counter(), b: counter(), c: counter() }

    await cache.get('a', renders.a)
    await cache.get('b', renders.b)
    await cache.get('a', renders.a) // a is now more recently used than b
    await cache.get('c', renders.c) // evicts b

    await cache.get('a', renders.a)
    await cache.get('c', renders.c)
    expect(renders.a).toHaveBeenCalledTimes(1)
    expect(renders.c).toHaveBeenCalledTimes(1)

    const b = await (await cache.get('b', renders.b)).toResponse()
    expect(b.headers.get('x-page-cache')).toBe('miss')
    expect(renders.b).toHaveBeenCalledTimes(2)
  })

  it('caches nothing when maxEntries is 0', async () => {
    const cache = createPageCache({ maxEntries: 0 })
    const render = counter()
    const first = await (await cache.get('GET /', render)).toResponse()
    expect(first.headers.get('x-page-cache')).toBeNull()
    expect(await first.text()).toBe('render 1')
    expect(await (await (await cache.get('GET /', render)).toResponse()).text()).toBe('render 2')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('renders once for concurrent misses of one key', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const rendered = deferred<Response>()
    const render = vi.fn(() => rendered.promise)

    const requests = [
      cache.get('GET /', render),
      cache.get('GET /', render),
      cache.get('GET /', render),
    ]
    rendered.resolve(page('shared'))
    const responses = await Promise.all(
      (await Promise.all(requests)).map((cached) => cached.toResponse()),
    )

    expect(render).toHaveBeenCalledTimes(1)
    expect(responses.map((response) => response.headers.get('x-page-cache'))).toEqual([
      'miss',
      'hit',
      'hit',
    ])
    expect(await Promise.all(responses.map((response) => response.text()))).toEqual([
      'shared',
      'shared',
      'shared',
    ])
  })

  it('lets waiters render for themselves when the shared render is not cacheable', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const rendered = deferred<Response>()
    const render = vi
      .fn<() => Promise<Response>>()
      .mockImplementationOnce(() => rendered.promise)
      .mockImplementation(async () => page('own', { cacheControl: 'private' }))

    const first = cache.get('GET /', render)
    const second = cache.get('GET /', render)
    rendered.resolve(page('first', { cacheControl: 'private' }))

    expect(await (await (await first).toResponse()).text()).toBe('first')
    expect(await (await (await second).toResponse()).text()).toBe('own')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('propagates an error from render and does not cache it', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const failure = new Error('render failed')
    const render = vi
      .fn<() => Promise<Response>>()
      .mockRejectedValueOnce(failure)
      .mockImplementation(async () => page('recovered'))

    await expect(cache.get('GET /', render)).rejects.toBe(failure)
    const next = await (await cache.get('GET /', render)).toResponse()
    expect(next.headers.get('x-page-cache')).toBe('miss')
    expect(await next.text()).toBe('recovered')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('lets a concurrent waiter render again when the shared render fails', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const rendered = deferred<Response>()
    const render = vi
      .fn<() => Promise<Response>>()
      .mockImplementationOnce(() => rendered.promise)
      .mockImplementation(async () => page('second try'))

    const first = cache.get('GET /', render)
    const second = cache.get('GET /', render)
    rendered.reject(new Error('boom'))

    await expect(first).rejects.toThrow('boom')
    expect(await (await (await second).toResponse()).text()).toBe('second try')
    expect(render).toHaveBeenCalledTimes(2)
  })

  it('replays an empty body and keeps the status', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = async () =>
      new Response(null, { status: 200, headers: { 'cache-control': 'public, s-maxage=5' } })
    await cache.get('GET /empty', render)
    const hit = await (await cache.get('GET /empty', render)).toResponse()
    expect(hit.status).toBe(200)
    expect(hit.headers.get('x-page-cache')).toBe('hit')
    expect(await hit.text()).toBe('')
  })

  it('clear() forgets every entry', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = counter()
    await cache.get('GET /', render)
    cache.clear()
    expect(await (await (await cache.get('GET /', render)).toResponse()).text()).toBe('render 2')
  })
})

describe('compressed replays', () => {
  const html = `<!doctype html><main>${'テックラボで学ぶ '.repeat(400)}</main>`

  it('compresses a kept page once per coding and replays the same bytes', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const render = vi.fn(async () => page(html))
    const first = await (await cache.get('GET /', render)).toResponse('br')
    const second = await (await cache.get('GET /', render)).toResponse('br')
    expect(first.headers.get('content-encoding')).toBe('br')
    expect(first.headers.get('vary')).toContain('Accept-Encoding')
    const [a, b] = [Buffer.from(await first.arrayBuffer()), Buffer.from(await second.arrayBuffer())]
    expect(a.equals(b)).toBe(true)
    expect(Number(first.headers.get('content-length'))).toBe(a.byteLength)
    expect(a.byteLength).toBeLessThan(Buffer.byteLength(html) / 5)
    expect(brotliDecompressSync(a).toString()).toBe(html)
    const gzipped = await (await cache.get('GET /', render)).toResponse('gzip')
    expect(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString()).toBe(html)
    const plain = await (await cache.get('GET /', render)).toResponse()
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(await plain.text()).toBe(html)
    expect(render).toHaveBeenCalledTimes(1)
  })

  it('leaves small pages and pages of other types as they are', async () => {
    const cache = createPageCache({ maxEntries: 10 })
    const small = await (await cache.get('GET /s', async () => page('<p>短い</p>'))).toResponse(
      'br',
    )
    expect(small.headers.get('content-encoding')).toBeNull()
    expect(await small.text()).toBe('<p>短い</p>')
    const picture = async () => page('x'.repeat(4096), { headers: { 'content-type': 'image/png' } })
    const png = await (await cache.get('GET /p', picture)).toResponse('gzip')
    expect(png.headers.get('content-encoding')).toBeNull()
  })
})
