/**
 * The disk store alone, without HTTP, SigV4 or the SDK (issue 19 item 6): objects replaced
 * through `createFsObjectStore` (fsync on, index in SQLite) by 16 writers, once per way of
 * removing replaced files, in slices taken in turns. It measures what the S3 benchmark
 * (s3.ts) cannot separate from its client on a loaded two-core machine: the CPU time the
 * store's process (every thread) spends per replacement, including the removals the slice
 * caused (each slice ends with `settle()`).
 *
 * Environment: BENCH_STORAGE_DIR (where the stores live, default the temporary directory: point
 * it at the file system to measure), BENCH_DURATION_S (seconds per size and variant, default
 * 12), BENCH_SLICES (default 6), BENCH_FILE_REMOVAL (the variants, default `spares,thread,pool`).
 */

import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { createFsObjectStore } from '#server/storage/backends/fs/fs-object-store.ts'
import type { ObjectStore } from '#server/storage/backends/object-store.ts'
import { positiveNumber, printTable } from './measure.ts'
import { BenchError, runBench } from './servers.ts'

type Removal = 'spares' | 'thread' | 'pool'
const durationMs = positiveNumber('BENCH_DURATION_S', 12) * 1000
const slices = positiveNumber('BENCH_SLICES', 6)
const storageRoot = path.resolve(process.env.BENCH_STORAGE_DIR || tmpdir())
const removals = (process.env.BENCH_FILE_REMOVAL ?? 'spares,thread,pool')
  .split(',')
  .map((name) => name.trim()) as Removal[]
const WRITERS = 16
const KEYS = 64
const SIZES = [4 * 1024, 1024 * 1024]
const owned = { headers: {}, metadata: {}, owner: 'bench' }

type Variant = { removal: Removal; store: ObjectStore; close(): Promise<void> }
type Tally = { operations: number; elapsedS: number; cpuMicros: number }

async function main(): Promise<number> {
  for (const removal of removals) {
    if (!['spares', 'thread', 'pool'].includes(removal)) {
      throw new BenchError(`BENCH_FILE_REMOVAL: unknown variant ${removal}`)
    }
  }
  await mkdir(storageRoot, { recursive: true })
  const root = await mkdtemp(path.join(storageRoot, 'techlab-bench-files-'))
  const variants: Variant[] = []
  try {
    for (const removal of removals) variants.push(await openVariant(root, removal))
    console.log(
      `disk store, ${WRITERS} writers replacing ${KEYS} keys: ${durationMs / 1000} s per size and variant in ${slices} slices; ${root} on ${fileSystemOf(root)}`,
    )
    const table: string[][] = []
    for (const size of SIZES) {
      const body = randomBytes(size)
      const tallies = new Map<Removal, Tally>()
      // Unmeasured first, so that every variant starts with its keys present and its code hot.
      for (const variant of variants) await replaceFor(variant, body, 1000)
      for (let slice = 0; slice < slices; slice++) {
        const order = slice % 2 === 0 ? variants : [...variants].reverse()
        for (const variant of order) {
          execFileSync('sync', ['--file-system', root])
          const measured = await replaceFor(variant, body, durationMs / slices)
          const sum = tallies.get(variant.removal)
          tallies.set(variant.removal, {
            operations: (sum?.operations ?? 0) + measured.operations,
            elapsedS: (sum?.elapsedS ?? 0) + measured.elapsedS,
            cpuMicros: (sum?.cpuMicros ?? 0) + measured.cpuMicros,
          })
        }
      }
      const first = tallies.get(removals[0] as Removal) as Tally
      for (const removal of removals) {
        const tally = tallies.get(removal) as Tally
        table.push([
          `${size >= 1024 * 1024 ? `${size / 1024 / 1024} MiB` : `${size / 1024} KiB`} ${removal}`,
          (tally.operations / tally.elapsedS).toFixed(1),
          ((tally.cpuMicros / tally.operations) * 1e-3).toFixed(3),
          (tally.operations / tally.elapsedS / (first.operations / first.elapsedS)).toFixed(2),
          (first.cpuMicros / first.operations / (tally.cpuMicros / tally.operations)).toFixed(2),
        ])
      }
    }
    printTable(
      [
        'size, removal',
        'replacements/s',
        'CPU ms/op',
        `rate / ${removals[0]}`,
        `CPU ${removals[0]} / it`,
      ],
      table,
    )
    return 0
  } finally {
    for (const variant of variants) await variant.close()
    await rm(root, { recursive: true, force: true })
  }
}

async function openVariant(root: string, removal: Removal): Promise<Variant> {
  const directory = path.join(root, removal)
  await mkdir(directory, { recursive: true })
  const database = openDatabase({ kind: 'sqlite', file: path.join(directory, 'index.sqlite') })
  await migrateToLatest(database.db)
  const store = await createFsObjectStore({
    directory: path.join(directory, 'objects'),
    db: database.db,
    removal,
  })
  await store.createBucket('bench')
  return {
    removal,
    store,
    async close() {
      await store.close()
      await database.close()
    },
  }
}

/** Replaces keys for `ms`, then waits for the removals it caused: all of it is measured. */
async function replaceFor(variant: Variant, body: Buffer, ms: number): Promise<Tally> {
  const cpuBefore = process.cpuUsage()
  const started = performance.now()
  let operations = 0
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, writer) => {
      for (let round = 0; performance.now() - started < ms; round++) {
        const key = `k${(writer + round * WRITERS) % KEYS}`
        await variant.store.putObject(
          'bench',
          key,
          { stream: Readable.from([body]), checksum: () => undefined },
          owned,
        )
        operations++
      }
    }),
  )
  const elapsedS = (performance.now() - started) / 1000
  await variant.store.settle()
  const cpu = process.cpuUsage(cpuBefore)
  return { operations, elapsedS, cpuMicros: cpu.user + cpu.system }
}

function fileSystemOf(directory: string): string {
  return execFileSync('findmnt', [
    '--noheadings',
    '--output',
    'FSTYPE,SOURCE',
    '--target',
    directory,
  ])
    .toString()
    .trim()
}

runBench(main)
