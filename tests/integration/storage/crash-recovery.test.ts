import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createInterface } from 'node:readline'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type DatabaseSettings, openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { createPostgresDatabase } from '#db/test-support.ts'
import { createFsObjectStore } from '#server/storage/backends/fs/fs-object-store.ts'
import { findLeftovers } from '#server/storage/backends/fs/leftovers.ts'

const WRITER = path.join(import.meta.dirname, 'crash-writer.ts')
const BUCKET = 'crash'
const KILLS = 6
/** A key never written yet. */
const ABSENT = 'absent'

describe('the disk object store after SIGKILL', () => {
  let directory: string
  let settings: DatabaseSettings
  let dropDatabase = async () => {}

  beforeAll(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'techlab-crash-'))
    if (process.env.TEST_DATABASE_URL) {
      const created = await createPostgresDatabase(process.env.TEST_DATABASE_URL)
      settings = { kind: 'postgres', url: created.url }
      dropDatabase = created.drop
    } else {
      settings = { kind: 'sqlite', file: path.join(directory, 'index.sqlite') }
    }
    await withStore(async (store, database) => {
      await migrateToLatest(database.db)
      await store.createBucket(BUCKET)
    })
  })
  afterAll(async () => {
    await dropDatabase()
    await rm(directory, { recursive: true, force: true })
  })

  async function withStore<T>(
    work: (
      store: Awaited<ReturnType<typeof createFsObjectStore>>,
      database: ReturnType<typeof openDatabase>,
    ) => Promise<T>,
  ): Promise<T> {
    const database = openDatabase(settings)
    try {
      const store = await createFsObjectStore({
        directory: path.join(directory, 'store'),
        db: database.db,
      })
      try {
        return await work(store, database)
      } finally {
        await store.close()
      }
    } finally {
      await database.close()
    }
  }

  it('leaves every key whole with its old or its new content, and no leftovers after recovery', async () => {
    // What each key held when last verified: its content's MD5, or ABSENT.
    const verified = new Map<string, string>()
    let completedMultipart = 0
    for (let kill = 0; kill < KILLS; kill++) {
      const { ended, pending } = await runWriterUntilKilled(settings, directory, kill)
      completedMultipart += ended.filter((line) => line.key.startsWith('multipart/')).length

      await withStore(async (store, database) => {
        await store.recover()
        expect(await findLeftovers(path.join(directory, 'store'), database.db)).toEqual([])
        const keys = new Set([
          ...verified.keys(),
          ...ended.map((e) => e.key),
          ...(pending ? [pending.key] : []),
        ])
        for (const key of keys) {
          const lastEnded = ended.filter((e) => e.key === key).at(-1)?.md5
          const allowed = new Set([lastEnded ?? verified.get(key) ?? ABSENT])
          if (pending?.key === key) allowed.add(pending.md5)

          const opened = await store.openObject(BUCKET, key)
          let actual = ABSENT
          if (opened) {
            const hash = createHash('md5')
            let size = 0
            for await (const chunk of opened.read()) {
              hash.update(chunk)
              size += chunk.length
            }
            actual = hash.digest('hex')
            expect(size).toBe(opened.info.size)
            if (!opened.info.partSizes) expect(opened.info.etag).toBe(`"${actual}"`)
          }
          expect([...allowed], `key ${key} after kill ${kill + 1}`).toContain(actual)
          verified.set(key, actual)
        }
      })
    }
    // Uploads the writer left open are abandoned: expiring them leaves nothing behind either.
    await withStore(async (store, database) => {
      await store.expireUploads(new Date(Date.now() + 1000))
      await store.settle()
      expect(await findLeftovers(path.join(directory, 'store'), database.db)).toEqual([])
      expect(await database.db.selectFrom('storage_parts').select('file_id').execute()).toEqual([])
    })
    expect(completedMultipart).toBeGreaterThan(0)
  }, 60_000)
})

type Line = { key: string; md5: string }

/**
 * Runs the writer and SIGKILLs it at a random moment after it has finished a few writes.
 * Answers the writes it finished, in order, and the one it had begun, if any.
 */
async function runWriterUntilKilled(
  settings: DatabaseSettings,
  directory: string,
  kill: number,
): Promise<{ ended: Line[]; pending?: Line }> {
  const child = spawn(
    process.execPath,
    [WRITER, JSON.stringify(settings), path.join(directory, 'store'), BUCKET],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const ended: Line[] = []
  let pending: Line | undefined
  const writesBeforeKill = 1 + Math.floor(Math.random() * 4)
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  let killTimer: NodeJS.Timeout | undefined
  for await (const text of createInterface({ input: child.stdout })) {
    const [event, key, md5] = text.split(' ')
    if (!key || !md5) throw new Error(`unexpected writer output: ${text}`)
    if (event === 'begin') pending = { key, md5 }
    else {
      ended.push({ key, md5 })
      pending = undefined
    }
    // Odd kills aim at a multipart completion (concatenating, flushing, committing); the
    // others at any moment of the loop.
    const aimed = kill % 2 === 1 ? pending?.key.startsWith('multipart/') : true
    if (ended.length >= writesBeforeKill && aimed && !killTimer) {
      killTimer = setTimeout(
        () => child.kill('SIGKILL'),
        Math.random() * (kill % 2 === 1 ? 40 : 150),
      )
    }
  }
  await exited
  expect(child.signalCode, 'the writer ran until it was killed').toBe('SIGKILL')
  return { ended, pending }
}
