/**
 * `npm run bench` (third part): object storage through the AWS SDK v3 — PUT and GET of 4 KiB
 * and 1 MiB objects and a 64 MiB multipart upload (lib-storage, 5 MiB parts, 4 at a time) —
 * against our `/s3` (disk backend, fsync on), s3rver (npm) on a directory, and a server that
 * discards what it is sent (discard-s3.ts: the ceiling of the SDK and Node's HTTP), row by row
 * in one run. Each server runs in its own process; this one drives the SDK.
 *
 * Environment: BENCH_DURATION_S (seconds per row and server, default 5).
 */
import { randomBytes } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import {
  CreateBucketCommand,
  GetObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { BenchError, type Server, startServer } from './servers.ts'

const durationMs = Number(process.env.BENCH_DURATION_S ?? 5) * 1000
const BUCKET = 'bench'
const KiB = 1024
const MiB = 1024 * KiB
const ROOT = {
  accessKeyId: 'BENCHROOTACCESSKEY01',
  secretAccessKey: randomBytes(30).toString('base64'),
}

type Operation = 'put' | 'get' | 'multipart'
type Row = { name: string; operation: Operation; size: number; concurrency: number }
type Target = { name: string; server: Server; client: S3Client }
type Measurement = { opsPerS: number; mibPerS: number; p99: number; cpuMs: number }

const ROWS: Row[] = [
  { name: 'PUT 4 KiB', operation: 'put', size: 4 * KiB, concurrency: 8 },
  { name: 'GET 4 KiB', operation: 'get', size: 4 * KiB, concurrency: 8 },
  { name: 'PUT 1 MiB', operation: 'put', size: MiB, concurrency: 4 },
  { name: 'GET 1 MiB', operation: 'get', size: MiB, concurrency: 4 },
  { name: 'multipart 64 MiB', operation: 'multipart', size: 64 * MiB, concurrency: 1 },
]

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-s3-'))
  const targets: Target[] = []
  try {
    const app = await startServer(undefined, 'app /s3', {
      type: 'start',
      server: 'app',
      dataDir: path.join(dataDir, 'app'),
      environment: {
        STORAGE_ROOT_ACCESS_KEY_ID: ROOT.accessKeyId,
        STORAGE_ROOT_SECRET_ACCESS_KEY: ROOT.secretAccessKey,
      },
    })
    targets.push({ name: 'app', server: app, client: client(`${app.url}/s3`, ROOT) })
    const s3rver = await startServer(undefined, 's3rver', {
      type: 'start',
      server: 's3rver',
      dataDir: path.join(dataDir, 's3rver'),
      bucket: BUCKET,
    })
    const s3rverKeys = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }
    targets.push({ name: 's3rver', server: s3rver, client: client(s3rver.url, s3rverKeys) })
    const discard = await startServer(undefined, 'discard', { type: 'start', server: 'discard-s3' })
    targets.push({ name: 'ceiling', server: discard, client: client(discard.url, s3rverKeys) })
    await targets[0]?.client.send(new CreateBucketCommand({ Bucket: BUCKET })).catch(ignoreOwned)

    console.log(`object storage through the AWS SDK, ${durationMs / 1000} s per row and server`)
    console.log(
      'row                 app ops/s  s3rver ops/s  ceiling ops/s  app/s3rver  app/ceiling  app MiB/s  app p99 ms  app CPU ms/op',
    )
    for (const row of ROWS) {
      const results = new Map<string, Measurement>()
      for (const target of targets) results.set(target.name, await measure(target, row))
      const [app, s3rver, ceiling] = ['app', 's3rver', 'ceiling'].map((name) => {
        const result = results.get(name)
        if (!result) throw new BenchError(`no result for ${name}`)
        return result
      }) as [Measurement, Measurement, Measurement]
      console.log(
        [
          row.name.padEnd(18),
          app.opsPerS.toFixed(1).padStart(10),
          s3rver.opsPerS.toFixed(1).padStart(13),
          ceiling.opsPerS.toFixed(1).padStart(14),
          (app.opsPerS / s3rver.opsPerS).toFixed(2).padStart(11),
          (app.opsPerS / ceiling.opsPerS).toFixed(2).padStart(12),
          app.mibPerS.toFixed(1).padStart(10),
          app.p99.toFixed(1).padStart(11),
          app.cpuMs.toFixed(2).padStart(14),
        ].join(' '),
      )
    }
    console.log(
      'targets: app ahead of s3rver on every row; app/ceiling >= 0.70 for 1 MiB PUT and GET',
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

function ignoreOwned(error: { name?: string }) {
  if (error.name !== 'BucketAlreadyOwnedByYou') throw error
}

/** Runs the row's operation in `concurrency` loops for the duration, after a short warm-up. */
async function measure(target: Target, row: Row): Promise<Measurement> {
  const body = randomBytes(row.size)
  // GET bodies come from objects put beforehand; keys end with the size for the ceiling server.
  const keys = Array.from({ length: 16 }, (_, index) => `${row.operation}/${index}-${row.size}`)
  if (row.operation === 'get') {
    for (const key of keys) {
      await target.client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body }))
    }
  }
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
  await once(0)
  const latencies: number[] = []
  const cpuBefore = await target.server.cpuMicros()
  const started = performance.now()
  let next = 0
  await Promise.all(
    Array.from({ length: row.concurrency }, async () => {
      while (performance.now() - started < durationMs || latencies.length < 2) {
        const begun = performance.now()
        await once(next++)
        latencies.push(performance.now() - begun)
      }
    }),
  )
  const elapsedS = (performance.now() - started) / 1000
  const cpuMicros = (await target.server.cpuMicros()) - cpuBefore
  latencies.sort((a, b) => a - b)
  const operations = latencies.length
  return {
    opsPerS: operations / elapsedS,
    mibPerS: (operations * row.size) / MiB / elapsedS,
    p99: latencies[Math.min(operations - 1, Math.floor(operations * 0.99))] ?? 0,
    cpuMs: cpuMicros / 1000 / operations,
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof BenchError ? error.message : error)
    process.exit(1)
  },
)
