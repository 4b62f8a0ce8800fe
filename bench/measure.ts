/** What the page and content benchmarks share: settings, one measured row, fetching. */
import path from 'node:path'
import autocannon from 'autocannon'
import { BenchError, type Server } from './servers.ts'

export const settings = {
  durationS: positiveNumber('BENCH_DURATION_S', 5),
  warmupS: positiveNumber('BENCH_WARMUP_S', 1),
  connections: Math.round(positiveNumber('BENCH_CONNECTIONS', 10)),
  cpuProfDir: process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined,
}

export type Fetched = { headers: Headers; text: string; bytes: number }
export type Measurement = {
  rps: number
  p99: number
  /** Server CPU time per response, in ms: steadier than req/s when other work steals cores. */
  cpuMs: number
  non2xx: number
  errors: number
  timeouts: number
}

/** A URL to load, with the headers each request sends (a signed-in reader's Cookie). */
export type Target = { server: Server; url: string; headers?: Record<string, string> }

export async function measure({ server, url, headers }: Target): Promise<Measurement> {
  await autocannon({ url, headers, connections: settings.connections, duration: settings.warmupS })
  const cpuBefore = await server.cpuMicros()
  const result = await autocannon({
    url,
    headers,
    connections: settings.connections,
    duration: settings.durationS,
  })
  const cpuMicros = (await server.cpuMicros()) - cpuBefore
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuMs: cpuMicros / 1000 / Math.max(1, result.requests.total),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  }
}

export function problems(name: string, measured: Measurement): string[] {
  const found: string[] = []
  if (measured.non2xx > 0) found.push(`${name}: ${measured.non2xx} non-2xx responses`)
  if (measured.errors > 0) found.push(`${name}: ${measured.errors} errors`)
  if (measured.timeouts > 0) found.push(`${name}: ${measured.timeouts} timeouts`)
  if (measured.rps === 0) found.push(`${name}: no responses`)
  return found
}

export async function fetchOk(url: string, headers?: Record<string, string>): Promise<Fetched> {
  const response = await fetch(url, { headers, redirect: 'manual' })
  const body = new Uint8Array(await response.arrayBuffer())
  if (!response.ok) throw new BenchError(`GET ${url} answered ${response.status}`)
  return {
    headers: response.headers,
    text: new TextDecoder().decode(body),
    bytes: body.byteLength,
  }
}

export function format(rps: number): string {
  return rps >= 100 ? Math.round(rps).toString() : rps.toFixed(1)
}

export function formatBytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KiB`
}

export function positiveNumber(name: string, fallback: number): number {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isFinite(value) || value <= 0) {
    throw new BenchError(`${name} must be a positive number (got ${JSON.stringify(raw)})`)
  }
  return value
}

/** A Markdown table, columns after the first right-aligned. */
export function printTable(header: string[], body: string[][]): void {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...body.map((cells) => (cells[column] ?? '').length)),
  )
  const line = (cells: string[]) =>
    `| ${cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))).join(' | ')} |`
  console.log(`\n${line(header)}`)
  console.log(`|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`)
  for (const cells of body) console.log(line(cells))
}
