/**
 * `npm run bench` (third part): object storage through the AWS SDK v3 — PUT and GET of 4 KiB
 * and 1 MiB objects and a 64 MiB multipart upload (lib-storage, 5 MiB parts, 4 at a time) —
 * against our `/s3` (disk backend, fsync on), s3rver (npm) on a directory, and a server that
 * only hashes, checks and flushes what it is sent (discard-s3.ts: the ceiling), row by row
 * in one run, plus our `/s3` with STORAGE_FSYNC=off for information. Each server runs in its
 * own process; this one drives the SDK, with the same client, bodies and concurrency for all.
 * Each row measures the servers in slices taken in turns, in one order and then in the reverse
 * order, so that load from elsewhere on a shared machine falls on all of them alike; before each
 * slice the file system's dirty pages are written out, untimed, so that no server's deferred
 * writes are timed in another's slice.
 *
 *
 * Environment: BENCH_DURATION_S (seconds per row and server, default 6), BENCH_SLICES (how many
 * slices those seconds are cut into, default 4), BENCH_ROWS (a
 * comma-separated list of row names or parts of them, default all), BENCH_WARMUP_S (unmeasured
 * seconds per row and server before the slices, default 1), BENCH_CPU_PROF (a
 * directory: the fsync-on app server then runs with --cpu-prof and leaves its profile there),
 * BENCH_STORAGE_DIR (where every server keeps its data, the ceiling's files included; default
 * the temporary directory: point it at the file system to measure, decision 041),
 * BENCH_S3_PEERS (the servers beside ours and the ceiling, from `s3rver,fsync-off`, the
 * default; `none` for neither).
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { positiveNumber, printTable, settings } from './measure.ts'
import { BenchError, runBench, type Server, startServer } from './servers.ts'

const durationMs = positiveNumber('BENCH_DURATION_S', 6) * 1000
// Each server's time in a row is cut into slices taken in turns, forwards then backwards, so
// that load from elsewhere on a shared machine falls on every server alike.
const slices = positiveNumber('BENCH_SLICES', 4)
const warmUpMs = positiveNumber('BENCH_WARMUP_S', 1) * 1000
const selectedRows = process.env.BENCH_ROWS?.split(',').map((name) => name.trim())
const storageRoot = path.resolve(process.env.BENCH_STORAGE_DIR || tmpdir())
const peers = new Set(
  (process.env.BENCH_S3_PEERS ?? 's3rver,fsync-off').split(',').map((name) => name.trim()),
)
const BUCKET = 'bench'
const KiB = 1024
const MiB = 1024 * KiB
const TARGET_CEILING_RATIO = 0.8
const ROOT = {
  accessKeyId: 'BENCHROOTACCESSKEY01',
  secretAccessKey: randomBytes(30).toString('base64'),
}

type Operation = 'put' | 'get' | 'multipart'
type Row = { name: string; operation: Operation; size: number; concurrency: number }
type Target = { name: string; server: Server; client: S3Client }
type Measurement = {
  operations: number
  elapsedS: number
  latencies: number[]
  serverCpuMicros: number
  clientCpuMicros: number
}

// Concurrency enough to keep the server busy while its writes wait for the disk, as browsers
// and lib-storage do with several requests in flight; the same for every server.
const ROWS: Row[] = [
  { name: 'PUT 4 KiB', operation: 'put', size: 4 * KiB, concurrency: 16 },
  { name: 'GET 4 KiB', operation: 'get', size: 4 * KiB, concurrency: 16 },
  { name: 'PUT 1 MiB', operation: 'put', size: MiB, concurrency: 8 },
  { name: 'GET 1 MiB', operation: 'get', size: MiB, concurrency: 8 },
  { name: 'multipart 64 MiB', operation: 'multipart', size: 64 * MiB, concurrency: 1 },
]
// Rows whose app/ceiling ratio has a goal (the storage benchmark goals in the README).
const CEILING_GOAL_ROWS = new Set(['PUT 1 MiB', 'GET 1 MiB'])

async function main(): Promise<number> {
  const rows = ROWS.filter(
    (row) => !selectedRows || selectedRows.some((name) => row.name.includes(name)),
  )
  if (rows.length === 0) throw new BenchError(`BENCH_ROWS matches no row: ${selectedRows}`)
  await mkdir(storageRoot, { recursive: true })
  const dataDir = await mkdtemp(path.join(storageRoot, 'techlab-bench-s3-'))
  const targets: Target[] = []
  try {
    const s3rverKeys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
    const apps: Array<{ name: string; environment: Record<string, string> }> = [
      { name: 'app', environment: {} },
      ...(peers.has('fsync-off')
        ? [{ name: 'app fsync off', environment: { STORAGE_FSYNC: 'off' } }]
        : []),
    ]
    for (const [index, { name, environment }] of apps.entries()) {
      const app = await startServer(index === 0 ? settings.cpuProfDir : undefined, name, {
        type: 'start',
        server: 'app',
        dataDir: path.join(dataDir, `app-${index}`),
        environment: {
          ...environment,
          STORAGE_ROOT_ACCESS_KEY_ID: ROOT.accessKeyId,
          STORAGE_ROOT_SECRET_ACCESS_KEY: ROOT.secretAccessKey,
        },
      })
      const target: Target = { name, server: app, client: client(`${app.url}/s3`, ROOT) }
      targets.push(target)
      await target.client.send(new CreateBucketCommand({ Bucket: BUCKET }))
    }
    if (peers.has('s3rver')) {
      const s3rver = await startServer(undefined, 's3rver', {
        type: 'start',
        server: 's3rver',
        dataDir: path.join(dataDir, 's3rver'),
        bucket: BUCKET,
      })
      targets.push({ name: 's3rver', server: s3rver, client: client(s3rver.url, s3rverKeys) })
    }
    const discard = await startServer(undefined, 'ceiling', {
      type: 'start',
      server: 'discard-s3',
      dataDir: path.join(dataDir, 'ceiling'),
    })
    targets.push({ name: 'ceiling', server: discard, client: client(discard.url, s3rverKeys) })

    console.log(
      `object storage through the AWS SDK: ${durationMs / 1000} s per row and server, in ${slices} slices taken in turns; data in ${dataDir} (${fileSystemOf(dataDir)})`,
    )
    const others = targets.filter((target) => target.name !== 'app' && target.name !== 'ceiling')
    const table: string[][] = []
    for (const row of rows) {
      const results = await measureRow(targets, row, dataDir)
      const result = (name: string) => {
        const measured = results.get(name)
        if (!measured) throw new BenchError(`no result for ${name}`)
        return measured
      }
      const app = result('app')
      const ceiling = result('ceiling')
      const ceilingRatio = opsPerS(app) / opsPerS(ceiling)
      table.push([
        `${row.name} (×${row.concurrency})`,
        formatRate(opsPerS(app)),
        formatRate(opsPerS(ceiling)),
        ceilingRatio.toFixed(2),
        CEILING_GOAL_ROWS.has(row.name)
          ? ceilingRatio >= TARGET_CEILING_RATIO
            ? 'met'
            : 'BELOW'
          : '-',
        ((opsPerS(app) * row.size) / MiB).toFixed(1),
        p99(app).toFixed(1),
        [app, ceiling].map((measured) => cpuMs(measured.serverCpuMicros, measured)).join(' / '),
        [app, ceiling].map((measured) => cpuMs(measured.clientCpuMicros, measured)).join(' / '),
        ...others.flatMap(({ name }) => {
          const other = result(name)
          return [
            `${formatRate(opsPerS(other))} (${(opsPerS(app) / opsPerS(other)).toFixed(2)})`,
            cpuMs(other.serverCpuMicros, other),
          ]
        }),
      ])
    }
    printTable(
      [
        'row (concurrency)',
        'app ops/s',
        'ceiling ops/s',
        'app/ceiling',
        `goal ${TARGET_CEILING_RATIO}`,
        'app MiB/s',
        'app p99 ms',
        'server CPU ms/op app / ceiling',
        'client CPU ms/op',
        ...others.flatMap(({ name }) => [`${name} ops/s (app/it)`, `${name} CPU ms/op`]),
      ],
      table,
    )
    console.log(
      `\nceiling: a server that only does what S3 requires of a PUT (SHA-256 of the signed payload, MD5 ETag, CRC32, write and fdatasync; bench/discard-s3.ts), on the same file system.` +
        `\ngoals: app/ceiling >= ${TARGET_CEILING_RATIO} for 1 MiB PUT and GET (fsync on); app/s3rver > 1 on every row.`,
    )
    return 0
  } finally {
    for (const target of targets) {
      target.client.destroy()
      await target.server.close()
    }
    await rm(dataDir, { recursive: true, force: true })
  }
}

function client(endpoint: string, credentials: { accessKeyId: string; secretAccessKey: string }) {
  return new S3Client({ endpoint, region: 'ap-northeast-1', forcePathStyle: true, credentials })
}

const opsPerS = (measured: Measurement) => measured.operations / measured.elapsedS
const cpuMs = (micros: number, measured: Measurement) =>
  (micros / 1000 / measured.operations).toFixed(2)
const formatRate = (rate: number) => rate.toFixed(1)

function p99(measured: Measurement): number {
  const sorted = [...measured.latencies].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0
}

/**
 * Writes out every dirty page of the file system holding `directory`, untimed. A server that
 * does not flush its writes (s3rver, ours with fsync off) leaves them to the kernel's
 * writeback, which otherwise lands some 30 s later in whichever server's slice is running then,
 * and a flushing server's writes queue behind it.
 */
/** The type of the file system holding `directory` (`findmnt`), for the record. */
function fileSystemOf(directory: string): string {
  try {
    return execFileSync('findmnt', [
      '--noheadings',
      '--output',
      'FSTYPE,SOURCE',
      '--target',
      directory,
    ])
      .toString()
      .trim()
      .replace(/\s+/, ' on ')
  } catch {
    return 'file system unknown'
  }
}

function flushFileSystem(directory: string): void {
  execFileSync('sync', ['--file-system', directory])
}

/** Every target once per slice: in order in odd slices, in the reverse order in even ones. */
async function measureRow(
  targets: Target[],
  row: Row,
  directory: string,
): Promise<Map<string, Measurement>> {
  const body = randomBytes(row.size)
  // GET bodies come from objects put beforehand; keys end with the size for the ceiling server.
  const keys = Array.from({ length: 16 }, (_, index) => `${row.operation}/${index}-${row.size}`)
  const results = new Map<string, Measurement>()
  for (const target of targets) {
    if (row.operation === 'get') {
      for (const key of keys) {
        await target.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }))
      }
    }
  }
  // Unmeasured rounds first: the client's code for this operation is compiled by V8 as it
  // runs, and without them the first target measured in a row would pay for that alone.
  for (const target of targets) await measureSlice(target, row, body, keys, warmUpMs)
  const turns = Array.from({ length: slices }, (_, slice) =>
    slice % 2 === 0 ? targets : [...targets].reverse(),
  ).flat()
  for (const target of turns) {
    flushFileSystem(directory)
    const slice = await measureSlice(target, row, body, keys, durationMs / slices)
    const sum = results.get(target.name)
    results.set(
      target.name,
      sum
        ? {
            operations: sum.operations + slice.operations,
            elapsedS: sum.elapsedS + slice.elapsedS,
            latencies: [...sum.latencies, ...slice.latencies],
            serverCpuMicros: sum.serverCpuMicros + slice.serverCpuMicros,
            clientCpuMicros: sum.clientCpuMicros + slice.clientCpuMicros,
          }
        : slice,
    )
  }
  return results
}

/** Runs the row's operation in `concurrency` loops for `sliceMs`, after a few unmeasured ones. */
async function measureSlice(
  target: Target,
  row: Row,
  body: Buffer,
  keys: string[],
  sliceMs: number,
): Promise<Measurement> {
  const once = async (index: number) => {
    const key = keys[index % keys.length] as string
    if (row.operation === 'put') {
      await target.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }))
    } else if (row.operation === 'get') {
      const object = await target.client.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
      const bytes = await object.Body?.transformToByteArray()
      if (bytes?.byteLength !== row.size) {
        throw new BenchError(`${target.name}: GET ${key} gave ${bytes?.byteLength} bytes`)
      }
    } else {
      await new Upload({
        client: target.client,
        params: { Bucket: BUCKET, Key: key, Body: body },
        partSize: 5 * MiB,
        queueSize: 4,
      }).done()
    }
  }
  await Promise.all(Array.from({ length: row.concurrency }, (_, index) => once(index)))
  const latencies: number[] = []
  const serverCpuBefore = await target.server.cpuMicros()
  const clientCpuBefore = process.cpuUsage()
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: row.concurrency }, async () => {
      while (performance.now() - started < sliceMs || latencies.length < 1) {
        const begun = performance.now()
        await once(next++)
        latencies.push(performance.now() - begun)
      }
    }),
  )
  const elapsedS = (performance.now() - started) / 1000
  const clientCpu = process.cpuUsage(clientCpuBefore)
  return {
    operations: latencies.length,
    elapsedS,
    latencies,
    serverCpuMicros: (await target.server.cpuMicros()) - serverCpuBefore,
    clientCpuMicros: clientCpu.user + clientCpu.system,
  }
}

runBench(main)
