/**
 * Bytes on the wire per page (issue 19): the HTML and the first-load JavaScript and CSS a guest's
 * browser fetches, as sent to a client that accepts brotli, to one that accepts gzip, and
 * uncompressed (the baseline: what every page cost before compression).
 */
import { request } from 'node:http'
import { formatBytes, printTable } from './measure.ts'

type Coding = 'identity' | 'gzip' | 'br'
const CODINGS: Coding[] = ['identity', 'gzip', 'br']

function sentBytes(url: string, coding: Coding): Promise<{ bytes: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers = coding === 'identity' ? {} : { 'accept-encoding': coding }
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

async function total(origin: string, paths: string[], coding: Coding): Promise<number> {
  let sum = 0
  for (const path of paths) sum += (await sentBytes(new URL(path, origin).href, coding)).bytes
  return sum
}

/** Measures each page and prints the table; answers the rows for callers that check budgets. */
export async function reportBytesOnTheWire(origin: string, paths: string[]) {
  const rows: { path: string; [key: string]: number | string }[] = []
  for (const path of paths) {
    const html = await sentBytes(`${origin}${path}`, 'identity')
    const assets = firstLoadAssets(html.body)
    const row: { path: string; [key: string]: number | string } = { path }
    for (const coding of CODINGS) {
      row[`html ${coding}`] = (await sentBytes(`${origin}${path}`, coding)).bytes
      row[`js ${coding}`] = await total(origin, assets.scripts, coding)
      row[`css ${coding}`] = await total(origin, assets.styles, coding)
    }
    rows.push(row)
  }
  const columns = CODINGS.flatMap((coding) => [`html ${coding}`, `js ${coding}`, `css ${coding}`])
  printTable(
    ['bytes on the wire (first load)', ...columns, 'total br / identity'],
    rows.map((row) => {
      const sum = (coding: Coding) =>
        ['html', 'js', 'css'].reduce((acc, kind) => acc + Number(row[`${kind} ${coding}`]), 0)
      return [
        row.path,
        ...columns.map((column) => formatBytes(Number(row[column]))),
        (sum('br') / sum('identity')).toFixed(2),
      ]
    }),
  )
  console.log(
    '\nidentity = what a client that accepts no coding receives (the baseline: every answer ' +
      'before compression); js = <script src> and modulepreload of the page; css = its style sheets.',
  )
  return rows
}
