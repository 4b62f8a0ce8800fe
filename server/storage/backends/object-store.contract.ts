import { createHash, randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import { text } from 'node:stream/consumers'
import { crc32 } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { S3Error } from '#server/storage/s3-error.ts'
import {
  type CompletedPart,
  type IncomingBody,
  type ListEntry,
  type ListQuery,
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  type NewObject,
  type ObjectStore,
  type StoredChecksum,
  type UploadsPage,
} from './object-store.ts'

/**
 * How long a store under test lets removals gather: longer than any test, so that only
 * `settle()` removes, and a test can see what waits.
 */
export const CONTRACT_REMOVAL_DELAY_MS = 10 * 60_000

/** What a backend's test gives the conformance suite. */
export type ObjectStoreUnderTest = {
  store: ObjectStore
  /**
   * What the backend keeps that no object or upload accounts for (temporary and unreferenced
   * files): must be empty after every operation, failed or not.
   */
  leftovers(): Promise<string[]>
  dispose(): Promise<void>
}

/**
 * The behaviour every `ObjectStore` must show, as the interface documents it. Each backend's
 * test runs it (`fs` on SQLite and PostgreSQL; `s3` against a running endpoint).
 */
export function describeObjectStoreContract(
  name: string,
  open: () => Promise<ObjectStoreUnderTest>,
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let subject: ObjectStoreUnderTest
    let store: ObjectStore
    beforeAll(async () => {
      subject = await open()
      store = subject.store
    })
    afterAll(async () => {
      await subject?.dispose()
    })
    async function newBucket(): Promise<string> {
      const bucket = `contract-${randomBytes(5).toString('hex')}`
      await store.createBucket(bucket)
      return bucket
    }
    const expectNoLeftovers = async () => {
      await store.settle()
      expect(await subject.leftovers()).toEqual([])
    }
    /** A copy of `source` into a bucket that does not exist fails with NoSuchBucket. */
    const expectCopyIntoMissingBucketRefused = (
      source: { bucket: string; key: string },
      targetKey: string,
      owner: string,
    ) =>
      expectS3Error(
        store.copyObject(
          source,
          { bucket: `missing-${randomBytes(4).toString('hex')}`, key: targetKey },
          { metadata: 'COPY', owner },
        ),
        'NoSuchBucket',
        404,
      )

    describe('buckets', () => {
      it('creates, lists, reports and deletes a bucket', async () => {
        const bucket = await newBucket()
        expect(await store.bucketExists(bucket)).toBe(true)
        const listed = await store.listBuckets()
        expect(listed.find((b) => b.name === bucket)?.createdAt).toBeInstanceOf(Date)
        await store.deleteBucket(bucket)
        expect(await store.bucketExists(bucket)).toBe(false)
        expect((await store.listBuckets()).map((b) => b.name)).not.toContain(bucket)
      })

      it('refuses to create a bucket twice', async () => {
        const bucket = await newBucket()
        await expectS3Error(store.createBucket(bucket), 'BucketAlreadyOwnedByYou', 409)
      })

      it('answers NoSuchBucket for a missing bucket, on every operation that names one', async () => {
        const missing = `missing-${randomBytes(5).toString('hex')}`
        await expectS3Error(store.deleteBucket(missing), 'NoSuchBucket', 404)
        await expectS3Error(store.putObject(missing, 'k', bodyOf('x'), owned), 'NoSuchBucket', 404)
        await expectS3Error(store.headObject(missing, 'k'), 'NoSuchBucket', 404)
        await expectS3Error(store.openObject(missing, 'k'), 'NoSuchBucket', 404)
        await expectS3Error(store.listObjects(missing, { maxKeys: 10 }), 'NoSuchBucket', 404)
        await expectS3Error(store.deleteObject(missing, 'k'), 'NoSuchBucket', 404)
        await expectS3Error(store.createMultipartUpload(missing, 'k', owned), 'NoSuchBucket', 404)
        await expectNoLeftovers()
      })

      it('keeps a bucket that still holds an object or an upload (BucketNotEmpty)', async () => {
        const bucket = await newBucket()
        await store.putObject(bucket, 'a', bodyOf('a'), owned)
        await expectS3Error(store.deleteBucket(bucket), 'BucketNotEmpty', 409)
        await store.deleteObject(bucket, 'a')
        const upload = await store.createMultipartUpload(bucket, 'b', owned)
        await expectS3Error(store.deleteBucket(bucket), 'BucketNotEmpty', 409)
        await store.abortMultipartUpload(bucket, 'b', upload.uploadId)
        await store.deleteBucket(bucket)
        expect(await store.bucketExists(bucket)).toBe(false)
      })
    })

    describe('objects', () => {
      let bucket: string
      beforeAll(async () => {
        bucket = await newBucket()
      })

      it('stores bytes with their ETag, size, headers, metadata, owner and checksum', async () => {
        const bytes = randomBytes(100_000)
        const checksum: StoredChecksum = {
          algorithm: 'CRC32',
          value: 'AAAAAA==',
          type: 'FULL_OBJECT',
        }
        const object: NewObject = {
          headers: {
            contentType: 'image/png',
            cacheControl: 'max-age=60',
            contentDisposition: 'inline',
          },
          metadata: { purpose: 'アバター', 'x-y': '1' },
          owner: 'ap-northeast-1:owner',
        }
        const put = await store.putObject(bucket, 'public/a.png', bodyOf(bytes, checksum), object)
        expect(put).toMatchObject({
          ...object,
          bucket,
          key: 'public/a.png',
          size: bytes.length,
          etag: `"${md5(bytes)}"`,
          checksum,
        })
        expect(put.partSizes).toBeUndefined()
        const head = await store.headObject(bucket, 'public/a.png')
        expect(head).toEqual(put)
        expect(head?.lastModified).toBeInstanceOf(Date)
        const opened = await store.openObject(bucket, 'public/a.png')
        expect(opened?.info).toEqual(put)
        expectSameBytes(await bytesOf(opened?.read()), bytes)
      })

      it('stores an empty object', async () => {
        const put = await store.putObject(bucket, 'empty', bodyOf(''), owned)
        expect(put).toMatchObject({ size: 0, etag: `"${md5('')}"` })
        expect((await bytesOf((await store.openObject(bucket, 'empty'))?.read())).length).toBe(0)
      })

      it('answers undefined for a missing key', async () => {
        expect(await store.headObject(bucket, 'nothing-here')).toBeUndefined()
        expect(await store.openObject(bucket, 'nothing-here')).toBeUndefined()
      })

      it('replaces an object whole', async () => {
        await store.putObject(bucket, 'replaced', bodyOf('first version'), owned)
        const second = await store.putObject(bucket, 'replaced', bodyOf('second'), {
          ...owned,
          metadata: { v: '2' },
        })
        expect(await store.headObject(bucket, 'replaced')).toEqual(second)
        expect(await text(required(await store.openObject(bucket, 'replaced')).read())).toBe(
          'second',
        )
        await expectNoLeftovers()
      })

      it('removes what a write replaced once the index is durable, and the writer does not wait', async () => {
        await store.settle()
        await store.putObject(bucket, 'deferred', bodyOf('first'), owned)
        await store.putObject(bucket, 'deferred', bodyOf('second'), owned)
        await store.deleteObject(bucket, 'deferred')
        expect(await subject.leftovers()).toHaveLength(2)
        await expectNoLeftovers()
      })

      it('reads inclusive byte ranges', async () => {
        const bytes = randomBytes(10_000)
        await store.putObject(bucket, 'ranged', bodyOf(bytes), owned)
        const read = async (start: number, end: number) =>
          bytesOf(required(await store.openObject(bucket, 'ranged')).read({ start, end }))
        expectSameBytes(await read(0, 0), bytes.subarray(0, 1))
        expectSameBytes(await read(100, 5_099), bytes.subarray(100, 5_100))
        expectSameBytes(await read(9_999, 9_999), bytes.subarray(9_999))
      })

      it('reads a snapshot: replacing or deleting after open does not change the bytes read', async () => {
        const old = randomBytes(300_000)
        await store.putObject(bucket, 'snapshot', bodyOf(old), owned)
        const whole = required(await store.openObject(bucket, 'snapshot'))
        const ranged = required(await store.openObject(bucket, 'snapshot'))
        await store.putObject(bucket, 'snapshot', bodyOf(randomBytes(300_000)), owned)
        await store.deleteObject(bucket, 'snapshot')
        expectSameBytes(await bytesOf(whole.read()), old)
        expect(await bytesOf(ranged.read({ start: 1000, end: 1999 }))).toEqual(
          old.subarray(1000, 2000),
        )
        expect(whole.info.etag).toBe(`"${md5(old)}"`)
        expect(await store.headObject(bucket, 'snapshot')).toBeUndefined()
        await expectNoLeftovers()
      })

      it('deletes, and deleting a missing key succeeds', async () => {
        await store.putObject(bucket, 'doomed', bodyOf('x'), owned)
        await store.deleteObject(bucket, 'doomed')
        expect(await store.headObject(bucket, 'doomed')).toBeUndefined()
        await store.deleteObject(bucket, 'doomed')
        await expectNoLeftovers()
      })

      it('keeps keys that look like paths as plain names', async () => {
        const keys = ['../../escape', 'a//b', './.', '/leading', 'ends/', '..']
        for (const [i, key] of keys.entries()) {
          await store.putObject(bucket, key, bodyOf(`value ${i}`), owned)
        }
        for (const [i, key] of keys.entries()) {
          expect(await text(required(await store.openObject(bucket, key)).read())).toBe(
            `value ${i}`,
          )
        }
        for (const key of keys) await store.deleteObject(bucket, key)
      })

      it('stores nothing when the body stream fails, and keeps the previous object', async () => {
        const kept = await store.putObject(bucket, 'kept', bodyOf('the old value'), owned)
        const failure = new S3Error(
          'IncompleteBody',
          'You did not provide the number of bytes specified by the Content-Length HTTP header.',
        )
        await expect(
          store.putObject(bucket, 'kept', failingBody(randomBytes(200_000), failure), owned),
        ).rejects.toBe(failure)
        await expect(
          store.putObject(bucket, 'never', failingBody(randomBytes(10), failure), owned),
        ).rejects.toBe(failure)
        expect(await store.headObject(bucket, 'kept')).toEqual(kept)
        expect(await text(required(await store.openObject(bucket, 'kept')).read())).toBe(
          'the old value',
        )
        expect(await store.headObject(bucket, 'never')).toBeUndefined()
        await expectNoLeftovers()
      })

      it('ends concurrent puts to one key with one complete value', async () => {
        const values = Array.from({ length: 8 }, () => randomBytes(64 * 1024 + 17))
        const results = await Promise.all(
          values.map((value) =>
            store.putObject(bucket, 'contended', bodyOf(value, undefined, 4096), owned),
          ),
        )
        const head = required(await store.headObject(bucket, 'contended'))
        const stored = await bytesOf(required(await store.openObject(bucket, 'contended')).read())
        expect(values.some((value) => value.equals(stored))).toBe(true)
        expect(head.etag).toBe(`"${md5(stored)}"`)
        expect(results.map((r) => r.etag)).toContain(head.etag)
        await expectNoLeftovers()
      })
    })

    describe('listing', () => {
      let bucket: string
      const keys = [
        'photos/2026/january/a.jpg',
        'photos/2026/february/b.jpg',
        'photos/2025/c.jpg',
        'photos/index.html',
        'notes/日本語のメモ.md',
        'notes/ひらがな/深い.txt',
        'notes/with space.txt',
        'notes/100%.txt',
        'notes/%2F encoded',
        // Byte order puts U+FF21 before U+1F600; UTF-16 code unit order would not.
        'order/\uFF21',
        'order/\u{1F600}',
        'order/z',
        'order/Z',
        'top',
        `long/${'あ'.repeat(339)}/${'k'.repeat(1)}`,
        `long/${'x'.repeat(1019)}`,
      ]
      const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
      const sorted = [...keys].sort(byteOrder)
      const names = (entries: ListEntry[]) =>
        entries.map((e) => ('commonPrefix' in e ? `prefix:${e.commonPrefix}` : e.object.key))
      async function listAll(query: Omit<ListQuery, 'startAfter'>): Promise<string[]> {
        const all: string[] = []
        let startAfter: string | undefined
        for (let pages = 0; pages < 100; pages++) {
          const page = await store.listObjects(bucket, { ...query, startAfter })
          all.push(...names(page.entries))
          expect(page.entries.length).toBeLessThanOrEqual(query.maxKeys)
          if (!page.isTruncated) return all
          startAfter = page.nextStartAfter
          expect(startAfter).toBeDefined()
        }
        throw new Error('listing did not end')
      }

      beforeAll(async () => {
        bucket = await newBucket()
        for (const key of keys) await store.putObject(bucket, key, bodyOf(key), owned)
      })

      it('has 1024-byte keys in the set', () => {
        expect(keys.filter((key) => Buffer.byteLength(key) === 1024)).toHaveLength(2)
      })

      it('lists every key in UTF-8 byte order with its information', async () => {
        const page = await store.listObjects(bucket, { maxKeys: 1000 })
        expect(names(page.entries)).toEqual(sorted)
        expect(page.isTruncated).toBe(false)
        const first = page.entries[0]
        expect(first && 'object' in first && first.object).toMatchObject({
          key: sorted[0],
          size: Buffer.byteLength(sorted[0] ?? ''),
          etag: `"${md5(sorted[0] ?? '')}"`,
          owner: owned.owner,
        })
      })

      it('pages with maxKeys and startAfter, in every page size', async () => {
        for (const maxKeys of [1, 2, 3, 7]) {
          expect(await listAll({ maxKeys })).toEqual(sorted)
        }
      })

      it('starts after any string, present as a key or not', async () => {
        const page = await store.listObjects(bucket, { maxKeys: 1000, startAfter: 'order/\uFF21' })
        expect(names(page.entries)).toEqual(
          sorted.filter((key) => byteOrder(key, 'order/\uFF21') > 0),
        )
        const between = await store.listObjects(bucket, { maxKeys: 2, startAfter: 'p' })
        expect(names(between.entries)).toEqual(
          sorted.filter((key) => byteOrder(key, 'p') > 0).slice(0, 2),
        )
        expect(between.isTruncated).toBe(true)
      })

      it('filters by prefix, including multibyte and % prefixes', async () => {
        for (const prefix of [
          'notes/',
          'notes/ひ',
          'notes/1',
          'notes/%',
          'photos/2026/',
          'nothing/',
        ]) {
          const page = await store.listObjects(bucket, { prefix, maxKeys: 1000 })
          expect(names(page.entries)).toEqual(sorted.filter((key) => key.startsWith(prefix)))
        }
      })

      it('rolls keys up to common prefixes with a delimiter, one entry each', async () => {
        const root = await store.listObjects(bucket, { delimiter: '/', maxKeys: 1000 })
        expect(names(root.entries)).toEqual([
          'prefix:long/',
          'prefix:notes/',
          'prefix:order/',
          'prefix:photos/',
          'top',
        ])
        const photos = await store.listObjects(bucket, {
          prefix: 'photos/',
          delimiter: '/',
          maxKeys: 1000,
        })
        expect(names(photos.entries)).toEqual([
          'prefix:photos/2025/',
          'prefix:photos/2026/',
          'photos/index.html',
        ])
        const notes = await store.listObjects(bucket, {
          prefix: 'notes/',
          delimiter: '/',
          maxKeys: 1000,
        })
        expect(names(notes.entries)).toEqual([
          'notes/%2F encoded',
          'notes/100%.txt',
          'notes/with space.txt',
          'prefix:notes/ひらがな/',
          'notes/日本語のメモ.md',
        ])
        const spaces = await store.listObjects(bucket, { delimiter: ' ', maxKeys: 1000 })
        expect(names(spaces.entries)).toContain('prefix:notes/%2F ')
        expect(names(spaces.entries)).toContain('prefix:notes/with ')
      })

      it('pages through common prefixes, which count toward maxKeys', async () => {
        const first = await store.listObjects(bucket, { delimiter: '/', maxKeys: 2 })
        expect(names(first.entries)).toEqual(['prefix:long/', 'prefix:notes/'])
        expect(first).toMatchObject({ isTruncated: true, nextStartAfter: 'notes/' })
        for (const maxKeys of [1, 2, 3]) {
          expect(await listAll({ delimiter: '/', maxKeys })).toEqual([
            'prefix:long/',
            'prefix:notes/',
            'prefix:order/',
            'prefix:photos/',
            'top',
          ])
          expect(await listAll({ prefix: 'photos/', delimiter: '/', maxKeys })).toEqual([
            'prefix:photos/2025/',
            'prefix:photos/2026/',
            'photos/index.html',
          ])
        }
      })

      it('is not truncated when the last page is exactly full', async () => {
        const page = await store.listObjects(bucket, { prefix: 'order/', maxKeys: 4 })
        expect(page.entries).toHaveLength(4)
        expect(page.isTruncated).toBe(false)
      })

      it('lists an empty bucket', async () => {
        const empty = await newBucket()
        expect(await store.listObjects(empty, { maxKeys: 1000 })).toEqual({
          entries: [],
          isTruncated: false,
        })
      })
    })

    describe('copy', () => {
      let bucket: string
      const source: NewObject = {
        headers: { contentType: 'text/plain; charset=utf-8', contentLanguage: 'ja' },
        metadata: { original: 'yes' },
        owner: 'source-owner',
      }
      beforeAll(async () => {
        bucket = await newBucket()
        await store.putObject(bucket, 'source', bodyOf('コピーされる内容'), source)
      })

      it('copies bytes, headers and metadata with COPY, under the new owner', async () => {
        const copied = await store.copyObject(
          { bucket, key: 'source' },
          { bucket, key: 'copy' },
          { metadata: 'COPY', owner: 'copier' },
        )
        expect(copied).toMatchObject({
          headers: source.headers,
          metadata: source.metadata,
          owner: 'copier',
          key: 'copy',
          etag: `"${md5('コピーされる内容')}"`,
        })
        expect(await text(required(await store.openObject(bucket, 'copy')).read())).toBe(
          'コピーされる内容',
        )
      })

      it('replaces headers and metadata with REPLACE, also across buckets', async () => {
        const other = await newBucket()
        const replacement: NewObject = {
          headers: { contentType: 'application/json' },
          metadata: {},
          owner: 'o',
        }
        const copied = await store.copyObject(
          { bucket, key: 'source' },
          { bucket: other, key: 'copy' },
          { metadata: 'REPLACE', object: replacement },
        )
        expect(copied).toMatchObject({
          ...replacement,
          bucket: other,
          size: Buffer.byteLength('コピーされる内容'),
        })
        expect(await store.headObject(other, 'copy')).toEqual(copied)
      })

      it('copies an object onto itself with new metadata', async () => {
        await store.putObject(bucket, 'self', bodyOf('same bytes'), source)
        const copied = await store.copyObject(
          { bucket, key: 'self' },
          { bucket, key: 'self' },
          { metadata: 'REPLACE', object: { ...source, metadata: { changed: '1' } } },
        )
        expect(copied.metadata).toEqual({ changed: '1' })
        expect(await text(required(await store.openObject(bucket, 'self')).read())).toBe(
          'same bytes',
        )
        await expectNoLeftovers()
      })

      it('leaves the copy unchanged when the source changes later', async () => {
        await store.putObject(bucket, 'moving', bodyOf('before'), source)
        await store.copyObject(
          { bucket, key: 'moving' },
          { bucket, key: 'frozen' },
          { metadata: 'COPY', owner: 'o' },
        )
        await store.putObject(bucket, 'moving', bodyOf('after'), source)
        expect(await text(required(await store.openObject(bucket, 'frozen')).read())).toBe('before')
      })

      it('answers NoSuchKey for a missing source and NoSuchBucket for a missing target bucket', async () => {
        await expectS3Error(
          store.copyObject(
            { bucket, key: 'absent' },
            { bucket, key: 'x' },
            { metadata: 'COPY', owner: 'o' },
          ),
          'NoSuchKey',
          404,
        )
        await expectCopyIntoMissingBucketRefused({ bucket, key: 'source' }, 'x', 'o')
        expect(await store.headObject(bucket, 'x')).toBeUndefined()
        await expectNoLeftovers()
      })
    })

    describe('multipart uploads', { timeout: 30_000 }, () => {
      let bucket: string
      const big = () => randomBytes(MIN_PART_SIZE)
      beforeAll(async () => {
        bucket = await newBucket()
      })
      /** Uploads `bodies` as the parts of one upload of `key`, in order, and completes it. */
      async function completeFrom(key: string, bodies: (Buffer | string)[]) {
        const upload = await store.createMultipartUpload(bucket, key, owned)
        const parts = []
        for (const [index, bytes] of bodies.entries()) {
          parts.push(await store.uploadPart(bucket, key, upload.uploadId, index + 1, bodyOf(bytes)))
        }
        return store.completeMultipartUpload(bucket, key, upload.uploadId, parts)
      }

      it('uploads parts, lists them in pages, and completes into one object', async () => {
        const object: NewObject = {
          headers: { contentType: 'video/mp4' },
          metadata: { m: '1' },
          owner: 'uploader',
        }
        const upload = await store.createMultipartUpload(bucket, 'movies/大きな.mp4', object)
        expect(upload).toMatchObject({ ...object, bucket, key: 'movies/大きな.mp4' })
        expect(upload.initiated).toBeInstanceOf(Date)
        expect(
          await store.getMultipartUpload(bucket, 'movies/大きな.mp4', upload.uploadId),
        ).toEqual(upload)
        expect(await store.headObject(bucket, 'movies/大きな.mp4')).toBeUndefined()

        const bodies = [big(), big(), randomBytes(1234)]
        const parts = []
        for (const [index, bytes] of bodies.entries()) {
          const part = await store.uploadPart(
            bucket,
            upload.key,
            upload.uploadId,
            index + 1,
            bodyOf(bytes),
          )
          expect(part).toMatchObject({
            partNumber: index + 1,
            size: bytes.length,
            etag: `"${md5(bytes)}"`,
          })
          parts.push(part)
        }
        // Parts stay apart from objects until Complete.
        expect(await store.headObject(bucket, upload.key)).toBeUndefined()
        expect((await store.listObjects(bucket, { maxKeys: 100 })).entries).toEqual([])

        const firstPage = await store.listParts(bucket, upload.key, upload.uploadId, {
          maxParts: 2,
        })
        expect(firstPage.parts.map((p) => p.partNumber)).toEqual([1, 2])
        expect(firstPage.isTruncated).toBe(true)
        expect(firstPage.upload).toEqual(upload)
        const secondPage = await store.listParts(bucket, upload.key, upload.uploadId, {
          maxParts: 2,
          partNumberMarker: 2,
        })
        expect(secondPage.parts).toEqual([parts[2]])
        expect(secondPage.isTruncated).toBe(false)

        const completed = await store.completeMultipartUpload(
          bucket,
          upload.key,
          upload.uploadId,
          parts.map(({ partNumber, etag }) => ({ partNumber, etag })),
        )
        const whole = Buffer.concat(bodies)
        const multipartEtag = `"${createHash('md5')
          .update(Buffer.concat(bodies.map((b) => createHash('md5').update(b).digest())))
          .digest('hex')}-3"`
        expect(completed).toMatchObject({
          ...object,
          size: whole.length,
          etag: multipartEtag,
          partSizes: bodies.map((b) => b.length),
        })
        expect(await store.headObject(bucket, upload.key)).toEqual(completed)
        const opened = required(await store.openObject(bucket, upload.key))
        expect(md5(await bytesOf(opened.read()))).toBe(md5(whole))
        const across = { start: MIN_PART_SIZE - 10, end: MIN_PART_SIZE * 2 + 10 }
        const ranged = await bytesOf(
          required(await store.openObject(bucket, upload.key)).read(across),
        )
        expectSameBytes(ranged, whole.subarray(across.start, across.end + 1))

        // The upload is gone once completed.
        expect(await store.getMultipartUpload(bucket, upload.key, upload.uploadId)).toBeUndefined()
        await expectS3Error(
          store.listParts(bucket, upload.key, upload.uploadId, { maxParts: 10 }),
          'NoSuchUpload',
          404,
        )
        await expectNoLeftovers()
      })

      it('replaces a part uploaded again with the same number, and completes a single part', async () => {
        const upload = await store.createMultipartUpload(bucket, 'again', owned)
        const first = await store.uploadPart(bucket, 'again', upload.uploadId, 1, bodyOf('first'))
        const second = await store.uploadPart(bucket, 'again', upload.uploadId, 1, bodyOf('second'))
        const page = await store.listParts(bucket, 'again', upload.uploadId, { maxParts: 10 })
        expect(page.parts).toEqual([second])
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'again', upload.uploadId, [
            { partNumber: 1, etag: first.etag },
          ]),
          'InvalidPart',
          400,
        )
        // ETags are compared with or without their quotes, as S3 does.
        const done = await store.completeMultipartUpload(bucket, 'again', upload.uploadId, [
          { partNumber: 1, etag: second.etag.replaceAll('"', '') },
        ])
        expect(done.size).toBe(6)
        expect(done.etag).toMatch(/^"[0-9a-f]{32}-1"$/)
        expect(await text(required(await store.openObject(bucket, 'again')).read())).toBe('second')
        await expectNoLeftovers()
      })

      it('keeps only the listed parts, and replaces an existing object on complete', async () => {
        await store.putObject(bucket, 'chosen', bodyOf('old object'), owned)
        const upload = await store.createMultipartUpload(bucket, 'chosen', owned)
        const one = await store.uploadPart(bucket, 'chosen', upload.uploadId, 1, bodyOf(big()))
        await store.uploadPart(bucket, 'chosen', upload.uploadId, 2, bodyOf('left out'))
        const three = await store.uploadPart(bucket, 'chosen', upload.uploadId, 3, bodyOf('end'))
        const done = await store.completeMultipartUpload(bucket, 'chosen', upload.uploadId, [
          { partNumber: 1, etag: one.etag },
          { partNumber: 3, etag: three.etag },
        ])
        expect(done.partSizes).toEqual([MIN_PART_SIZE, 3])
        const bytes = await bytesOf(required(await store.openObject(bucket, 'chosen')).read())
        expect(bytes.subarray(MIN_PART_SIZE).toString()).toBe('end')
        await expectNoLeftovers()
      })

      it('reads a completed object from its parts as a snapshot, and removes replaced parts once read', async () => {
        const bodies = [big(), randomBytes(70_000)]
        await completeFrom('parts-snapshot', bodies)
        const old = Buffer.concat(bodies)
        const whole = required(await store.openObject(bucket, 'parts-snapshot'))
        const ranged = required(await store.openObject(bucket, 'parts-snapshot'))
        const unread = required(await store.openObject(bucket, 'parts-snapshot'))
        await store.putObject(bucket, 'parts-snapshot', bodyOf('replaced'), owned)
        await store.deleteObject(bucket, 'parts-snapshot')
        expectSameBytes(await bytesOf(whole.read()), old)
        const across = { start: MIN_PART_SIZE - 3, end: MIN_PART_SIZE + 2 }
        expectSameBytes(
          await bytesOf(ranged.read(across)),
          old.subarray(across.start, across.end + 1),
        )
        // Answering without the bytes (HEAD, 304) destroys the stream unread.
        unread.read().destroy()
        await vi.waitFor(expectNoLeftovers)

        // A reader still holding the parts keeps them; the object is gone meanwhile.
        await completeFrom('parts-snapshot', bodies)
        const held = required(await store.openObject(bucket, 'parts-snapshot'))
        await store.deleteObject(bucket, 'parts-snapshot')
        await store.settle()
        expect(await subject.leftovers()).toHaveLength(2)
        expect(md5(await bytesOf(held.read()))).toBe(md5(old))
        await vi.waitFor(expectNoLeftovers)
      })

      it('lets go of a completed source when a copy fails, so that deleting it leaves nothing', async () => {
        await completeFrom('copy-source', [big(), 'end'])
        await expectCopyIntoMissingBucketRefused({ bucket, key: 'copy-source' }, 'copy', 'copier')
        await store.deleteObject(bucket, 'copy-source')
        await vi.waitFor(expectNoLeftovers)
      })

      it('rejects a bad part list with S3 error codes and keeps the upload usable', async () => {
        const upload = await store.createMultipartUpload(bucket, 'strict', owned)
        const small1 = await store.uploadPart(
          bucket,
          'strict',
          upload.uploadId,
          1,
          bodyOf('small one'),
        )
        const small2 = await store.uploadPart(
          bucket,
          'strict',
          upload.uploadId,
          2,
          bodyOf('small two'),
        )
        const complete = (parts: { partNumber: number; etag: string }[]) =>
          store.completeMultipartUpload(bucket, 'strict', upload.uploadId, parts)
        await expectS3Error(complete([]), 'MalformedXML', 400)
        await expectS3Error(
          complete([
            { partNumber: 2, etag: small2.etag },
            { partNumber: 1, etag: small1.etag },
          ]),
          'InvalidPartOrder',
          400,
        )
        await expectS3Error(
          complete([
            { partNumber: 1, etag: small1.etag },
            { partNumber: 1, etag: small1.etag },
          ]),
          'InvalidPartOrder',
          400,
        )
        await expectS3Error(complete([{ partNumber: 3, etag: small1.etag }]), 'InvalidPart', 400)
        await expectS3Error(complete([{ partNumber: 1, etag: small2.etag }]), 'InvalidPart', 400)
        const tooSmall = await expectS3Error(
          complete([
            { partNumber: 1, etag: small1.etag },
            { partNumber: 2, etag: small2.etag },
          ]),
          'EntityTooSmall',
          400,
        )
        expect(tooSmall.details).toMatchObject({
          PartNumber: '1',
          MinSizeAllowed: String(MIN_PART_SIZE),
        })
        expect(await store.headObject(bucket, 'strict')).toBeUndefined()
        expect(await store.getMultipartUpload(bucket, 'strict', upload.uploadId)).toBeDefined()
        await expectNoLeftovers()

        const done = await complete([{ partNumber: 2, etag: small2.etag }])
        expect(done.size).toBe('small two'.length)
      })

      it('combines part checksums into a composite checksum', async () => {
        const upload = await store.createMultipartUpload(bucket, 'checked', owned)
        const crc = (value: string): StoredChecksum => ({
          algorithm: 'CRC32',
          value,
          type: 'FULL_OBJECT',
        })
        const one = await store.uploadPart(
          bucket,
          'checked',
          upload.uploadId,
          1,
          bodyOf(big(), crc('AAAAAQ==')),
        )
        const two = await store.uploadPart(
          bucket,
          'checked',
          upload.uploadId,
          2,
          bodyOf('x', crc('AAAAAg==')),
        )
        expect(one.checksum).toEqual(crc('AAAAAQ=='))
        const done = await store.completeMultipartUpload(bucket, 'checked', upload.uploadId, [
          { partNumber: 1, etag: one.etag },
          { partNumber: 2, etag: two.etag },
        ])
        expect(done.checksum).toMatchObject({ algorithm: 'CRC32', type: 'COMPOSITE' })
        expect(done.checksum?.value).toMatch(/^[A-Za-z0-9+/]{6}==-2$/)
      })

      it('answers NoSuchUpload for an unknown, aborted or other-key upload id', async () => {
        await expectS3Error(
          store.uploadPart(bucket, 'k', 'no-such-upload', 1, bodyOf('x')),
          'NoSuchUpload',
          404,
        )
        const upload = await store.createMultipartUpload(bucket, 'k', owned)
        expect(await store.getMultipartUpload(bucket, 'other-key', upload.uploadId)).toBeUndefined()
        await expectS3Error(
          store.uploadPart(bucket, 'other-key', upload.uploadId, 1, bodyOf('x')),
          'NoSuchUpload',
          404,
        )
        const part = await store.uploadPart(bucket, 'k', upload.uploadId, 1, bodyOf('x'))
        await store.abortMultipartUpload(bucket, 'k', upload.uploadId)
        expect(await store.getMultipartUpload(bucket, 'k', upload.uploadId)).toBeUndefined()
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'k', upload.uploadId, [
            { partNumber: 1, etag: part.etag },
          ]),
          'NoSuchUpload',
          404,
        )
        await expectS3Error(
          store.abortMultipartUpload(bucket, 'k', upload.uploadId),
          'NoSuchUpload',
          404,
        )
        await expectS3Error(
          store.uploadPart(bucket, 'k', upload.uploadId, 2, bodyOf('x')),
          'NoSuchUpload',
          404,
        )
        expect(await store.headObject(bucket, 'k')).toBeUndefined()
        await expectNoLeftovers()
      })

      it('an abort racing part uploads ends them cleanly: stored then removed, or NoSuchUpload', async () => {
        for (let round = 0; round < 10; round++) {
          const upload = await store.createMultipartUpload(bucket, 'raced', owned)
          const parts = [1, 2, 3, 4].map((number) =>
            store.uploadPart(bucket, 'raced', upload.uploadId, number, bodyOf(randomBytes(4096))),
          )
          const aborted = store.abortMultipartUpload(bucket, 'raced', upload.uploadId)
          for (const settled of await Promise.allSettled([...parts, aborted])) {
            if (settled.status === 'rejected') {
              expect(settled.reason).toMatchObject({ code: 'NoSuchUpload' })
            }
          }
          await expectS3Error(
            store.listParts(bucket, 'raced', upload.uploadId, { maxParts: 10 }),
            'NoSuchUpload',
            404,
          )
        }
        await expectNoLeftovers()
      })

      it('accepts part numbers 1 to 10000 only (InvalidArgument)', async () => {
        const upload = await store.createMultipartUpload(bucket, 'numbered', owned)
        for (const partNumber of [0, -1, MAX_PART_NUMBER + 1, 1.5]) {
          await expectS3Error(
            store.uploadPart(bucket, 'numbered', upload.uploadId, partNumber, bodyOf('x')),
            'InvalidArgument',
            400,
          )
        }
        const last = await store.uploadPart(
          bucket,
          'numbered',
          upload.uploadId,
          MAX_PART_NUMBER,
          bodyOf('x'),
        )
        expect(last.partNumber).toBe(MAX_PART_NUMBER)
        await store.abortMultipartUpload(bucket, 'numbered', upload.uploadId)
        await expectNoLeftovers()
      })

      it('stores no part when the part body fails', async () => {
        const upload = await store.createMultipartUpload(bucket, 'failing', owned)
        const failure = new S3Error(
          'BadDigest',
          'The Content-MD5 you specified did not match what we received.',
        )
        await expect(
          store.uploadPart(
            bucket,
            'failing',
            upload.uploadId,
            1,
            failingBody(randomBytes(100_000), failure),
          ),
        ).rejects.toBe(failure)
        expect(
          (await store.listParts(bucket, 'failing', upload.uploadId, { maxParts: 10 })).parts,
        ).toEqual([])
        await expectNoLeftovers()
        await store.abortMultipartUpload(bucket, 'failing', upload.uploadId)
      })

      it('expires uploads started before a time, with their parts', async () => {
        const own = await newBucket()
        const old = await store.createMultipartUpload(own, 'old', owned)
        await store.uploadPart(own, 'old', old.uploadId, 1, bodyOf('abandoned'))
        const cutoff = new Date(old.initiated.getTime() + 1)
        expect(await store.expireUploads(cutoff)).toBeGreaterThanOrEqual(1)
        expect(await store.getMultipartUpload(own, 'old', old.uploadId)).toBeUndefined()
        const recent = await store.createMultipartUpload(own, 'recent', owned)
        expect(await store.expireUploads(new Date(recent.initiated.getTime() - 60_000))).toBe(0)
        expect(await store.getMultipartUpload(own, 'recent', recent.uploadId)).toEqual(recent)
        await expectNoLeftovers()
      })
    })

    describe('multipart, round two (issue 20)', { timeout: 30_000 }, () => {
      let bucket: string
      beforeAll(async () => {
        bucket = await newBucket()
      })
      const crc = (value: string): StoredChecksum => ({
        algorithm: 'CRC32',
        value,
        type: 'FULL_OBJECT',
      })
      async function twoParts(key: string) {
        const upload = await store.createMultipartUpload(bucket, key, owned)
        const one = await store.uploadPart(
          bucket,
          key,
          upload.uploadId,
          1,
          bodyOf(randomBytes(MIN_PART_SIZE), crc('AAAAAQ==')),
        )
        const two = await store.uploadPart(
          bucket,
          key,
          upload.uploadId,
          2,
          bodyOf('tail', crc('AAAAAg==')),
        )
        return { upload, parts: [one, two] }
      }

      it('answers a repeated Complete with the same object while it is still the upload’s', async () => {
        const { upload, parts } = await twoParts('retried')
        const first = await store.completeMultipartUpload(bucket, 'retried', upload.uploadId, parts)
        expect(first.uploadId).toBe(upload.uploadId)
        expect(first.partChecksums).toEqual([crc('AAAAAQ=='), crc('AAAAAg==')])
        const again = await store.completeMultipartUpload(bucket, 'retried', upload.uploadId, parts)
        expect(again).toEqual(first)
        expect(await store.headObject(bucket, 'retried')).toEqual(first)
        // Replaced since: the upload's object is gone, so the upload is no more.
        await store.putObject(bucket, 'retried', bodyOf('new'), owned)
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'retried', upload.uploadId, parts),
          'NoSuchUpload',
          404,
        )
        await expectNoLeftovers()
      })

      it('checks the whole object’s checksum (composite, with or without -N) and each part’s', async () => {
        const { upload, parts } = await twoParts('summed')
        const listed = parts.map((part) => ({
          partNumber: part.partNumber,
          etag: part.etag,
        }))
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'summed', upload.uploadId, listed, {
            checksum: { algorithm: 'CRC32', value: 'AAAAAA==-2' },
          }),
          'BadDigest',
          400,
        )
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'summed', upload.uploadId, [
            listed[0] as CompletedPart,
            {
              ...(listed[1] as CompletedPart),
              checksum: { algorithm: 'CRC32', value: 'AAAAAw==' },
            },
          ]),
          'InvalidPart',
          400,
        )
        expect(await store.headObject(bucket, 'summed')).toBeUndefined()
        // The composite of the two part checksums, computed independently.
        const joined = Buffer.from([0, 0, 0, 1, 0, 0, 0, 2])
        const composite = Buffer.alloc(4)
        composite.writeUInt32BE(crc32(joined))
        const value = composite.toString('base64')
        const done = await store.completeMultipartUpload(
          bucket,
          'summed',
          upload.uploadId,
          [
            {
              ...(listed[0] as CompletedPart),
              checksum: { algorithm: 'CRC32', value: 'AAAAAQ==' },
            },
            listed[1] as CompletedPart,
          ],
          { checksum: { algorithm: 'CRC32', value } },
        )
        expect(done.checksum).toEqual({
          algorithm: 'CRC32',
          value: `${value}-2`,
          type: 'COMPOSITE',
        })
        const other = await twoParts('summed-n')
        const withCount = await store.completeMultipartUpload(
          bucket,
          'summed-n',
          other.upload.uploadId,
          other.parts,
          { checksum: { algorithm: 'CRC32', value: `${value}-2` } },
        )
        expect(withCount.checksum?.value).toBe(`${value}-2`)
        await expectNoLeftovers()
      })

      it('commits a conditional write only if the object is still as the condition says (409)', async () => {
        await expectS3Error(
          store.putObject(bucket, 'guarded', bodyOf('v0'), owned, { ifMatch: '"nope"' }),
          'ConditionalRequestConflict',
          409,
        )
        const first = await store.putObject(bucket, 'guarded', bodyOf('v1'), owned, {
          ifNoneMatch: '*',
        })
        await expectS3Error(
          store.putObject(bucket, 'guarded', bodyOf('v2'), owned, { ifNoneMatch: '*' }),
          'ConditionalRequestConflict',
          409,
        )
        const second = await store.putObject(bucket, 'guarded', bodyOf('v2'), owned, {
          ifMatch: first.etag,
        })
        await expectS3Error(
          store.putObject(bucket, 'guarded', bodyOf('v3'), owned, { ifMatch: first.etag }),
          'ConditionalRequestConflict',
          409,
        )
        expect((await store.headObject(bucket, 'guarded'))?.etag).toBe(second.etag)
        const { upload, parts } = await twoParts('guarded')
        await expectS3Error(
          store.completeMultipartUpload(bucket, 'guarded', upload.uploadId, parts, {
            condition: { ifNoneMatch: '*' },
          }),
          'ConditionalRequestConflict',
          409,
        )
        const done = await store.completeMultipartUpload(
          bucket,
          'guarded',
          upload.uploadId,
          parts,
          {
            condition: { ifMatch: second.etag },
          },
        )
        expect(done.etag).toMatch(/-2"$/)
        await expectNoLeftovers()
      })

      it('lists unfinished uploads by key and id, with prefix, delimiter, markers and pages', async () => {
        const own = await newBucket()
        const keys = ['a/1', 'a/2', 'b', 'b', 'c/d/e', 'ä', 'z']
        const uploads = []
        for (const key of keys) uploads.push(await store.createMultipartUpload(own, key, owned))
        const order = [...uploads].sort((x, y) =>
          x.key === y.key
            ? x.uploadId < y.uploadId
              ? -1
              : 1
            : Buffer.compare(Buffer.from(x.key), Buffer.from(y.key)),
        )
        const names = (page: UploadsPage) =>
          page.entries.map((entry) =>
            'commonPrefix' in entry
              ? entry.commonPrefix
              : `${entry.upload.key} ${entry.upload.uploadId}`,
          )
        const all = await store.listMultipartUploads(own, { maxUploads: 1000 })
        expect(names(all)).toEqual(order.map((upload) => `${upload.key} ${upload.uploadId}`))
        expect(all.isTruncated).toBe(false)
        const first = all.entries[0]
        expect(first && 'upload' in first && first.upload).toEqual(order[0])

        // Every page size pages through the same list, markers naming the last upload.
        for (const size of [1, 2, 3]) {
          const seen: string[] = []
          let marker: { keyMarker?: string; uploadIdMarker?: string } = {}
          for (;;) {
            const page = await store.listMultipartUploads(own, { maxUploads: size, ...marker })
            seen.push(...names(page))
            if (!page.isTruncated) break
            marker = { keyMarker: page.nextKeyMarker, uploadIdMarker: page.nextUploadIdMarker }
          }
          expect(seen).toEqual(names(all))
        }
        const b = order.filter((upload) => upload.key === 'b')
        const afterFirstB = await store.listMultipartUploads(own, {
          maxUploads: 1000,
          keyMarker: 'b',
          uploadIdMarker: b[0]?.uploadId,
        })
        expect(names(afterFirstB)[0]).toBe(`b ${b[1]?.uploadId}`)
        const afterB = await store.listMultipartUploads(own, { maxUploads: 1000, keyMarker: 'b' })
        expect(names(afterB)[0]).toMatch(/^c\/d\/e /)

        const rolled = await store.listMultipartUploads(own, { maxUploads: 1000, delimiter: '/' })
        expect(names(rolled).map((name) => name.split(' ')[0])).toEqual([
          'a/',
          'b',
          'b',
          'c/',
          'z',
          'ä',
        ])
        const pagedPrefixes = await store.listMultipartUploads(own, {
          maxUploads: 1,
          delimiter: '/',
        })
        expect(names(pagedPrefixes)).toEqual(['a/'])
        expect(pagedPrefixes).toMatchObject({ isTruncated: true, nextKeyMarker: 'a/' })
        const next = await store.listMultipartUploads(own, {
          maxUploads: 1,
          delimiter: '/',
          keyMarker: 'a/',
        })
        expect(names(next)[0]).toMatch(/^b /)
        const inA = await store.listMultipartUploads(own, {
          maxUploads: 1000,
          prefix: 'c/',
          delimiter: '/',
        })
        expect(names(inA)).toEqual(['c/d/'])
        expect((await store.listMultipartUploads(own, { maxUploads: 0 })).entries).toEqual([])
        await expectS3Error(
          store.listMultipartUploads(`missing-${randomBytes(4).toString('hex')}`, {
            maxUploads: 1,
          }),
          'NoSuchBucket',
          404,
        )
      })
    })
  })
}

const owned: NewObject = { headers: {}, metadata: {}, owner: 'test-owner' }

function bodyOf(
  bytes: Buffer | string,
  checksum?: StoredChecksum,
  chunkSize = 65_536,
): IncomingBody {
  const buffer = Buffer.from(bytes)
  const chunks: Buffer[] = []
  for (let offset = 0; offset < buffer.length; offset += chunkSize) {
    chunks.push(buffer.subarray(offset, offset + chunkSize))
  }
  return { stream: Readable.from(chunks), checksum: () => checksum }
}

/** A body that delivers some bytes and then fails, as the protocol layer fails a bad payload. */
function failingBody(bytes: Buffer, error: Error): IncomingBody {
  async function* chunks() {
    yield bytes
    await new Promise((resolve) => setImmediate(resolve))
    throw error
  }
  return { stream: Readable.from(chunks()), checksum: () => undefined }
}

const md5 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex')

async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('no stream')
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** By length and digest: comparing large buffers element by element is slow in `toEqual`. */
function expectSameBytes(actual: Buffer, expected: Buffer): void {
  expect({ size: actual.length, md5: md5(actual) }).toEqual({
    size: expected.length,
    md5: md5(expected),
  })
}

function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value')
  return value
}

async function expectS3Error(
  promise: Promise<unknown>,
  code: string,
  status: number,
): Promise<S3Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(S3Error)
  expect(error).toMatchObject({ code, status })
  return error as S3Error
}
