import { randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase } from '#db/test-support.ts'
import { referencedFiles } from '#server/storage/backends/indexed/object-index.ts'
import {
  createS3ContentObjects,
  listS3Leftovers,
} from '#server/storage/backends/s3/s3-content-objects.ts'
import {
  createS3ObjectStore,
  S3_CONTENT_PREFIX,
} from '#server/storage/backends/s3/s3-object-store.ts'
import {
  CONTRACT_REMOVAL_DELAY_MS,
  describeObjectStoreContract,
} from '#tests/contracts/object-store.contract.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, ROOT, root, startStorageServer } from './support.ts'

// The s3 backend against a second running instance of our own endpoint, as the engine it would
// reach on AWS S3, MinIO or Ceph: the same conformance suite as the fs backend.
describeObjectStoreContract('s3 through our /s3 endpoint', async () => {
  const engine = await startStorageServer()
  const database = await openTemporaryDatabase()
  const location = { client: root(engine).s3, bucket: BUCKET, prefix: 'backend-content/' }
  const store = createS3ObjectStore({
    db: database.db,
    ...location,
    removalDelayMs: CONTRACT_REMOVAL_DELAY_MS,
  })
  return {
    store,
    async leftovers() {
      const { objects, uploads } = await listS3Leftovers(
        location,
        await referencedFiles(database.db),
      )
      return [...objects, ...uploads.map((upload) => `upload of ${upload.key}`)]
    },
    async dispose() {
      await store.close()
      location.client.destroy()
      await database.remove()
      await engine.close()
    },
  }
})

describe('content objects in an S3 engine', () => {
  it('removes a round of items a thousand keys per request, a missing one being no error', async () => {
    const engine = await startStorageServer()
    const location = { client: root(engine).s3, bucket: BUCKET, prefix: 'removal-round/' }
    try {
      const content = createS3ContentObjects(location)
      const ids: string[] = []
      while (ids.length < 1005) {
        const written = await Promise.all(
          Array.from({ length: 67 }, () => content.write(Readable.from([Buffer.from('x')]))),
        )
        ids.push(...written.map((item) => item.fileId))
      }
      await Promise.all([...ids, 'f'.repeat(32)].map(content.remove))
      const left = await location.client.send(
        new ListObjectsV2Command({ Bucket: BUCKET, Prefix: location.prefix }),
      )
      expect(left.KeyCount).toBe(0)
    } finally {
      location.client.destroy()
      await engine.close()
    }
  })
})

describe('a server configured with STORAGE_BACKEND=s3', () => {
  let engine: TestServer
  let site: TestServer
  beforeAll(async () => {
    engine = await startStorageServer()
    site = await startStorageServer({
      STORAGE_BACKEND: 's3',
      STORAGE_S3_ENDPOINT: `${engine.url}/s3`,
      STORAGE_S3_BUCKET: BUCKET,
      STORAGE_S3_ACCESS_KEY_ID: ROOT.accessKeyId,
      STORAGE_S3_SECRET_ACCESS_KEY: ROOT.secretAccessKey,
      STORAGE_S3_FORCE_PATH_STYLE: 'true',
    })
  })
  afterAll(async () => {
    await site?.close()
    await engine?.close()
  })

  it('keeps object bytes as content objects in the engine and serves them back whole', async () => {
    const bytes = randomBytes(300_000)
    const { s3 } = root(site)
    // The site's demo covers are in the engine already: only what this PUT adds counts.
    const contentKeys = async () =>
      (
        await root(engine).s3.send(
          new ListObjectsV2Command({ Bucket: BUCKET, Prefix: S3_CONTENT_PREFIX }),
        )
      ).Contents ?? []
    const before = new Set((await contentKeys()).map((object) => object.Key))
    await s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: 'public/via-engine.bin', Body: bytes }),
    )
    const got = await s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: 'public/via-engine.bin' }),
    )
    expect(Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(bytes)).toBe(true)

    const added = (await contentKeys()).filter((object) => !before.has(object.Key))
    expect(added.map((object) => object.Size)).toEqual([bytes.length])
    const direct = await root(engine).s3.send(
      new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'public/via-engine' }),
    )
    expect(direct.KeyCount).toBe(0)
  })
})
