import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { type Database, openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { createPostgresDatabase, openTemporaryDatabase } from '#db/test-support.ts'
import { MIN_PART_SIZE, type ObjectStore } from '#server/storage/backends/object-store.ts'
import {
  CONTRACT_REMOVAL_DELAY_MS,
  describeObjectStoreContract,
  type ObjectStoreUnderTest,
} from '#tests/contracts/object-store.contract.ts'
import { createFsObjectStore } from './fs-object-store.ts'
import { findLeftovers } from './leftovers.ts'

/** A disk store over a migrated database, for the conformance suite. */
async function storeUnderTest(
  directory: string,
  database: Database,
  remove: () => Promise<void>,
): Promise<ObjectStoreUnderTest> {
  await migrateToLatest(database.db)
  const store = await createFsObjectStore({
    directory,
    db: database.db,
    removalDelayMs: CONTRACT_REMOVAL_DELAY_MS,
  })
  return {
    store,
    leftovers: () => findLeftovers(directory, database.db),
    async dispose() {
      await store.close()
      await database.close()
      await remove()
    },
  }
}

describeObjectStoreContract('fs on SQLite', async () => {
  const database = await openTemporaryDatabase({ migrate: false })
  return storeUnderTest(path.join(database.dir, 'objects'), database, database.remove)
})

const adminUrl = process.env.TEST_DATABASE_URL
if (adminUrl) {
  describeObjectStoreContract('fs on PostgreSQL', async () => {
    const created = await createPostgresDatabase(adminUrl)
    const directory = await mkdtemp(path.join(tmpdir(), 'techlab-objects-'))
    return storeUnderTest(
      directory,
      openDatabase({ kind: 'postgres', url: created.url }),
      async () => {
        await created.drop()
        await rm(directory, { recursive: true, force: true })
      },
    )
  })
}

describe('the disk object store', () => {
  const body = (value: string | Buffer) => ({
    stream: Readable.from([Buffer.from(value)]),
    checksum: () => undefined,
  })
  const owned = { headers: {}, metadata: {}, owner: 'o' }

  /** Runs a test on a fresh store and database, closing both however it ends. */
  async function withStore(
    options: { fsync?: boolean },
    run: (
      store: ObjectStore,
      directory: string,
      database: Awaited<ReturnType<typeof openTemporaryDatabase>>,
    ) => Promise<void>,
  ) {
    const database = await openTemporaryDatabase()
    const directory = path.join(database.dir, 'objects')
    let store: ObjectStore | undefined
    try {
      store = await createFsObjectStore({ directory, db: database.db, ...options })
      await run(store, directory, database)
    } finally {
      await store?.close()
      await database.remove()
    }
  }

  it('names content files by random ids, never by keys', async () => {
    await withStore({}, async (store, directory, database) => {
      await store.createBucket('b')
      await store.putObject('b', '../../outside', body('x'), owned)
      await store.putObject('b', `${'長'.repeat(341)}a`, body('y'), owned)
      // Nothing anywhere under the store's directory is named after a key.
      const paths = await readdir(directory, { recursive: true })
      const files = paths.filter((name) => name.startsWith(`content${path.sep}`))
      expect(paths.sort()).toEqual(['content', ...files, 'tmp'].sort())
      expect(files).toHaveLength(2)
      for (const file of files) expect(path.basename(file)).toMatch(/^[0-9a-f]{32}$/)
      expect(await readdir(database.dir)).not.toContain('outside')
    })
  })

  it('leaves no file behind when a write fails after creating its file, small or large', async () => {
    await withStore({}, async (store, directory) => {
      await store.createBucket('b')
      // Without the content directory, each body is written to tmp/ and its rename fails.
      await rm(path.join(directory, 'content'), { recursive: true })
      for (const bytes of [randomBytes(4096), randomBytes(3 * 1024 * 1024)]) {
        await expect(store.putObject('b', 'k', body(bytes), owned)).rejects.toMatchObject({
          code: 'ENOENT',
        })
        expect(await readdir(path.join(directory, 'tmp'))).toEqual([])
      }
      expect(await store.openObject('b', 'k')).toBeUndefined()
    })
  })

  async function completeFromParts(store: ObjectStore, key: string, bodies: Buffer[]) {
    const upload = await store.createMultipartUpload('b', key, owned)
    const parts = []
    for (const [index, bytes] of bodies.entries()) {
      parts.push(await store.uploadPart('b', key, upload.uploadId, index + 1, body(bytes)))
    }
    return store.completeMultipartUpload('b', key, upload.uploadId, parts)
  }

  it("completes a multipart upload without copying: the object is read from its parts' files", async () => {
    // What is tested is which files exist, not their durability.
    await withStore({ fsync: false }, async (store, directory) => {
      const contentFiles = () => readdir(path.join(directory, 'content'))
      await store.createBucket('b')
      const bodies = [randomBytes(MIN_PART_SIZE), randomBytes(99)]
      const upload = await store.createMultipartUpload('b', 'video', owned)
      const parts = []
      for (const [index, bytes] of bodies.entries()) {
        parts.push(await store.uploadPart('b', 'video', upload.uploadId, index + 1, body(bytes)))
      }
      const partFiles = (await contentFiles()).sort()
      expect(partFiles).toHaveLength(2)
      await store.completeMultipartUpload('b', 'video', upload.uploadId, parts)
      expect((await contentFiles()).sort()).toEqual(partFiles)
      const opened = await store.openObject('b', 'video')
      // Buffer.equals: toEqual compares 5 MiB element by element, far slower.
      const read = Buffer.concat((await opened?.read().toArray()) ?? [])
      expect(read.equals(Buffer.concat(bodies))).toBe(true)
      await store.deleteObject('b', 'video')
      await store.settle()
      expect(await contentFiles()).toEqual([])
    })
  })

  it('recovers by removing temporary and unreferenced content files, and nothing else', async () => {
    await withStore({}, async (store, directory, database) => {
      await store.createBucket('b')
      await store.putObject('b', 'kept', body('kept'), owned)
      const whole = [randomBytes(MIN_PART_SIZE), randomBytes(10)]
      await completeFromParts(store, 'whole', whole)
      const upload = await store.createMultipartUpload('b', 'pending', owned)
      await store.uploadPart('b', 'pending', upload.uploadId, 1, body('part'))
      // What an interrupted put leaves: a temporary file, or a renamed file never committed;
      // and an empty spare such as versions before decision 041 kept for reuse.
      await writeFile(path.join(directory, 'tmp', `${'a'.repeat(32)}.tmp`), 'half')
      await writeFile(path.join(directory, 'tmp', `${'c'.repeat(32)}.spare`), '')
      await writeFile(path.join(directory, 'content', 'b'.repeat(32)), 'uncommitted')
      // Not the store's: left alone.
      await writeFile(path.join(directory, 'content', 'README'), 'someone else’s')
      await writeFile(path.join(directory, 'tmp', 'other.txt'), 'someone else’s')
      expect(await findLeftovers(directory, database.db)).toHaveLength(3)

      await store.recover()
      expect(await findLeftovers(directory, database.db)).toEqual([])
      expect(await readdir(path.join(directory, 'tmp'))).toEqual(['other.txt'])
      expect(await readdir(path.join(directory, 'content'))).toContain('README')
      const opened = await store.openObject('b', 'kept')
      expect((await opened?.read().toArray())?.join('')).toBe('kept')
      const completed = await store.openObject('b', 'whole')
      const read = Buffer.concat((await completed?.read().toArray()) ?? [])
      expect(read.equals(Buffer.concat(whole))).toBe(true)
      expect(
        (await store.listParts('b', 'pending', upload.uploadId, { maxParts: 10 })).parts,
      ).toHaveLength(1)
    })
  })
})
