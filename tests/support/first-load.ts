import { request } from 'node:http'

/**
 * What a browser downloads for a page's first load, as sent on the wire: the bench's report
 * (bench/wire.ts) and the first-load budget test (tests/integration/first-load-budget.test.ts).
 * node:http, not fetch, which decodes bodies itself and would hide the bytes sent.
 */
export type Coding = 'identity' | 'gzip' | 'br'

export function sentBytes(
  url: string,
  coding: Coding,
  extraHeaders: Record<string, string> = {},
): Promise<{ bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = { ...extraHeaders, ...(coding !== 'identity' && { 'accept-encoding': coding }) }
    request(url, { headers }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () => {
        const body = Buffer.concat(chunks)
        if ((response.statusCode ?? 0) >= 400)
          reject(new Error(`GET ${url}: ${response.statusCode}`))
        resolve({ bytes: body.byteLength, body: coding === 'identity' ? body.toString() : '' })
      })
      response.on('error', reject)
    })
      .on('error', reject)
      .end()
  })
}

/** The scripts and style sheets a page makes the browser load before it is interactive. */
export function firstLoadAssets(html: string): { scripts: string[]; styles: string[] } {
  const attribute = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1]
  const scripts = new Set<string>()
  const styles = new Set<string>()
  for (const tag of html.match(/<(script|link)\b[^>]*>/g) ?? []) {
    if (tag.startsWith('<script')) {
      const src = attribute(tag, 'src')
      if (src) scripts.add(src)
    } else if (/\brel="modulepreload"/.test(tag)) {
      const href = attribute(tag, 'href')
      if (href) scripts.add(href)
    } else if (/\brel="stylesheet"/.test(tag)) {
      const href = attribute(tag, 'href')
      if (href) styles.add(href)
    }
  }
  // The inline entry script imports the client entry, already preloaded by React Router.
  return { scripts: [...scripts], styles: [...styles] }
}

/** The bytes of every path on the origin as sent in `coding`, added up. */
export async function sentTotal(
  origin: string,
  paths: string[],
  coding: Coding,
  headers: Record<string, string> = {},
): Promise<number> {
  let sum = 0
  for (const path of paths)
    sum += (await sentBytes(new URL(path, origin).href, coding, headers)).bytes
  return sum
}

/** A demo course, one of its lessons and its author, found through the catalogue as a reader would. */
export async function demoReadingPaths(origin: string) {
  const read = async (path: string) => {
    const response = await fetch(`${origin}${path}`)
    if (!response.ok) throw new Error(`GET ${path}: ${response.status}`)
    return response.text()
  }
  const course = /href="(\/([\w-]+)\/courses\/[\w-]+)"/.exec(await read('/courses'))
  if (!course?.[1] || !course[2]) throw new Error('the demo catalogue lists no course')
  const lesson = new RegExp(`href="(${course[1]}/lessons/[\\w-]+)"`).exec(
    await read(course[1]),
  )?.[1]
  if (!lesson) throw new Error('the demo course lists no lesson')
  return { course: course[1], lesson, author: `/${course[2]}` }
}
