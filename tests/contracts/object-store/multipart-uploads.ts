import { createHash, randomBytes } from 'node:crypto'
import { text } from 'node:stream/consumers'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import {
  MAX_PART_NUMBER,
  MIN_PART_SIZE,
  type NewObject,
  type StoredChecksum,
} from '#server/storage/backends/object-store.ts'
import { S3Error } from '#server/storage/s3-error.ts'
import {
  bodyOf,
  bytesOf,
  type Contract,
  expectS3Error,
  expectSameBytes,
  failingBody,
  md5,
  owned,
  required,
} from './support.ts'

export function describeMultipartUploads(contract: Contract): void {
  describe('multipart uploads', { timeout: 30_000 }, () => {
    const { newBucket, expectNoLeftovers, expectCopyIntoMissingBucketRefused } = contract
    let bucket: string
    const big = () => randomBytes(MIN_PART_SIZE)
    beforeAll(async () => {
      bucket = await newBucket()
    })
    /** Uploads `bodies` as the parts of one upload of `key`, in order, and completes it. */
    async function completeFrom(key: string, bodies: (Buffer | string)[]) {
      const upload = await contract.store.createMultipartUpload(bucket, key, owned)
      const parts = []
      for (const [index, bytes] of bodies.entries()) {
        parts.push(
          await contract.store.uploadPart(bucket, key, upload.uploadId, index + 1, bodyOf(bytes)),
        )
      }
      return contract.store.completeMultipartUpload(bucket, key, upload.uploadId, parts)
    }

    it('uploads parts, lists them in pages, and completes into one object', async () => {
      const object: NewObject = {
        headers: { contentType: 'video/mp4' },
        metadata: { m: '1' },
        owner: 'uploader',
      }
      const upload = await contract.store.createMultipartUpload(bucket, 'movies/大きな.mp4', object)
      expect(upload).toMatchObject({ ...object, bucket, key: 'movies/大きな.mp4' })
      expect(upload.initiated).toBeInstanceOf(Date)
      expect(
        await contract.store.getMultipartUpload(bucket, 'movies/大きな.mp4', upload.uploadId),
      ).toEqual(upload)
      expect(await contract.store.headObject(bucket, 'movies/大きな.mp4')).toBeUndefined()

      const bodies = [big(), big(), randomBytes(1234)]
      const parts = []
      for (const [index, bytes] of bodies.entries()) {
        const part = await contract.store.uploadPart(
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
      expect(await contract.store.headObject(bucket, upload.key)).toBeUndefined()
      expect((await contract.store.listObjects(bucket, { maxKeys: 100 })).entries).toEqual([])

      const firstPage = await contract.store.listParts(bucket, upload.key, upload.uploadId, {
        maxParts: 2,
      })
      expect(firstPage.parts.map((p) => p.partNumber)).toEqual([1, 2])
      expect(firstPage.isTruncated).toBe(true)
      expect(firstPage.upload).toEqual(upload)
      const secondPage = await contract.store.listParts(bucket, upload.key, upload.uploadId, {
        maxParts: 2,
        partNumberMarker: 2,
      })
      expect(secondPage.parts).toEqual([parts[2]])
      expect(secondPage.isTruncated).toBe(false)

      const completed = await contract.store.completeMultipartUpload(
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
      expect(await contract.store.headObject(bucket, upload.key)).toEqual(completed)
      const opened = required(await contract.store.openObject(bucket, upload.key))
      expect(md5(await bytesOf(opened.read()))).toBe(md5(whole))
      const across = { start: MIN_PART_SIZE - 10, end: MIN_PART_SIZE * 2 + 10 }
      const ranged = await bytesOf(
        required(await contract.store.openObject(bucket, upload.key)).read(across),
      )
      expectSameBytes(ranged, whole.subarray(across.start, across.end + 1))

      // The upload is gone once completed.
      expect(
        await contract.store.getMultipartUpload(bucket, upload.key, upload.uploadId),
      ).toBeUndefined()
      await expectS3Error(
        contract.store.listParts(bucket, upload.key, upload.uploadId, { maxParts: 10 }),
        'NoSuchUpload',
        404,
      )
      await expectNoLeftovers()
    })

    it('replaces a part uploaded again with the same number, and completes a single part', async () => {
      const upload = await contract.store.createMultipartUpload(bucket, 'again', owned)
      const first = await contract.store.uploadPart(
        bucket,
        'again',
        upload.uploadId,
        1,
        bodyOf('first'),
      )
      const second = await contract.store.uploadPart(
        bucket,
        'again',
        upload.uploadId,
        1,
        bodyOf('second'),
      )
      const page = await contract.store.listParts(bucket, 'again', upload.uploadId, {
        maxParts: 10,
      })
      expect(page.parts).toEqual([second])
      await expectS3Error(
        contract.store.completeMultipartUpload(bucket, 'again', upload.uploadId, [
          { partNumber: 1, etag: first.etag },
        ]),
        'InvalidPart',
        400,
      )
      // ETags are compared with or without their quotes, as S3 does.
      const done = await contract.store.completeMultipartUpload(bucket, 'again', upload.uploadId, [
        { partNumber: 1, etag: second.etag.replaceAll('"', '') },
      ])
      expect(done.size).toBe(6)
      expect(done.etag).toMatch(/^"[0-9a-f]{32}-1"$/)
      expect(await text(required(await contract.store.openObject(bucket, 'again')).read())).toBe(
        'second',
      )
      await expectNoLeftovers()
    })

    it('keeps only the listed parts, and replaces an existing object on complete', async () => {
      await contract.store.putObject(bucket, 'chosen', bodyOf('old object'), owned)
      const upload = await contract.store.createMultipartUpload(bucket, 'chosen', owned)
      const one = await contract.store.uploadPart(
        bucket,
        'chosen',
        upload.uploadId,
        1,
        bodyOf(big()),
      )
      await contract.store.uploadPart(bucket, 'chosen', upload.uploadId, 2, bodyOf('left out'))
      const three = await contract.store.uploadPart(
        bucket,
        'chosen',
        upload.uploadId,
        3,
        bodyOf('end'),
      )
      const done = await contract.store.completeMultipartUpload(bucket, 'chosen', upload.uploadId, [
        { partNumber: 1, etag: one.etag },
        { partNumber: 3, etag: three.etag },
      ])
      expect(done.partSizes).toEqual([MIN_PART_SIZE, 3])
      const bytes = await bytesOf(
        required(await contract.store.openObject(bucket, 'chosen')).read(),
      )
      expect(bytes.subarray(MIN_PART_SIZE).toString()).toBe('end')
      await expectNoLeftovers()
    })

    it('reads a completed object from its parts as a snapshot, and removes replaced parts once read', async () => {
      const bodies = [big(), randomBytes(70_000)]
      await completeFrom('parts-snapshot', bodies)
      const old = Buffer.concat(bodies)
      const whole = required(await contract.store.openObject(bucket, 'parts-snapshot'))
      const ranged = required(await contract.store.openObject(bucket, 'parts-snapshot'))
      const unread = required(await contract.store.openObject(bucket, 'parts-snapshot'))
      await contract.store.putObject(bucket, 'parts-snapshot', bodyOf('replaced'), owned)
      await contract.store.deleteObject(bucket, 'parts-snapshot')
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
      const held = required(await contract.store.openObject(bucket, 'parts-snapshot'))
      await contract.store.deleteObject(bucket, 'parts-snapshot')
      await contract.store.settle()
      expect(await contract.leftovers()).toHaveLength(2)
      expect(md5(await bytesOf(held.read()))).toBe(md5(old))
      await vi.waitFor(expectNoLeftovers)
    })

    it('lets go of a completed source when a copy fails, so that deleting it leaves nothing', async () => {
      await completeFrom('copy-source', [big(), 'end'])
      await expectCopyIntoMissingBucketRefused({ bucket, key: 'copy-source' }, 'copy', 'copier')
      await contract.store.deleteObject(bucket, 'copy-source')
      await vi.waitFor(expectNoLeftovers)
    })

    it('rejects a bad part list with S3 error codes and keeps the upload usable', async () => {
      const upload = await contract.store.createMultipartUpload(bucket, 'strict', owned)
      const small1 = await contract.store.uploadPart(
        bucket,
        'strict',
        upload.uploadId,
        1,
        bodyOf('small one'),
      )
      const small2 = await contract.store.uploadPart(
        bucket,
        'strict',
        upload.uploadId,
        2,
        bodyOf('small two'),
      )
      const complete = (parts: { partNumber: number; etag: string }[]) =>
        contract.store.completeMultipartUpload(bucket, 'strict', upload.uploadId, parts)
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
      expect(await contract.store.headObject(bucket, 'strict')).toBeUndefined()
      expect(
        await contract.store.getMultipartUpload(bucket, 'strict', upload.uploadId),
      ).toBeDefined()
      await expectNoLeftovers()

      const done = await complete([{ partNumber: 2, etag: small2.etag }])
      expect(done.size).toBe('small two'.length)
    })

    it('combines part checksums into a composite checksum', async () => {
      const upload = await contract.store.createMultipartUpload(bucket, 'checked', owned)
      const crc = (value: string): StoredChecksum => ({
        algorithm: 'CRC32',
        value,
        type: 'FULL_OBJECT',
      })
      const one = await contract.store.uploadPart(
        bucket,
        'checked',
        upload.uploadId,
        1,
        bodyOf(big(), crc('AAAAAQ==')),
      )
      const two = await contract.store.uploadPart(
        bucket,
        'checked',
        upload.uploadId,
        2,
        bodyOf('x', crc('AAAAAg==')),
      )
      expect(one.checksum).toEqual(crc('AAAAAQ=='))
      const done = await contract.store.completeMultipartUpload(
        bucket,
        'checked',
        upload.uploadId,
        [
          { partNumber: 1, etag: one.etag },
          { partNumber: 2, etag: two.etag },
        ],
      )
      expect(done.checksum).toMatchObject({ algorithm: 'CRC32', type: 'COMPOSITE' })
      expect(done.checksum?.value).toMatch(/^[A-Za-z0-9+/]{6}==-2$/)
    })

    it('answers NoSuchUpload for an unknown, aborted or other-key upload id', async () => {
      await expectS3Error(
        contract.store.uploadPart(bucket, 'k', 'no-such-upload', 1, bodyOf('x')),
        'NoSuchUpload',
        404,
      )
      const upload = await contract.store.createMultipartUpload(bucket, 'k', owned)
      expect(
        await contract.store.getMultipartUpload(bucket, 'other-key', upload.uploadId),
      ).toBeUndefined()
      await expectS3Error(
        contract.store.uploadPart(bucket, 'other-key', upload.uploadId, 1, bodyOf('x')),
        'NoSuchUpload',
        404,
      )
      const part = await contract.store.uploadPart(bucket, 'k', upload.uploadId, 1, bodyOf('x'))
      await contract.store.abortMultipartUpload(bucket, 'k', upload.uploadId)
      expect(await contract.store.getMultipartUpload(bucket, 'k', upload.uploadId)).toBeUndefined()
      await expectS3Error(
        contract.store.completeMultipartUpload(bucket, 'k', upload.uploadId, [
          { partNumber: 1, etag: part.etag },
        ]),
        'NoSuchUpload',
        404,
      )
      await expectS3Error(
        contract.store.abortMultipartUpload(bucket, 'k', upload.uploadId),
        'NoSuchUpload',
        404,
      )
      await expectS3Error(
        contract.store.uploadPart(bucket, 'k', upload.uploadId, 2, bodyOf('x')),
        'NoSuchUpload',
        404,
      )
      expect(await contract.store.headObject(bucket, 'k')).toBeUndefined()
      await expectNoLeftovers()
    })

    it('an abort racing part uploads ends them cleanly: stored then removed, or NoSuchUpload', async () => {
      for (let round = 0; round < 10; round++) {
        const upload = await contract.store.createMultipartUpload(bucket, 'raced', owned)
        const parts = [1, 2, 3, 4].map((number) =>
          contract.store.uploadPart(
            bucket,
            'raced',
            upload.uploadId,
            number,
            bodyOf(randomBytes(4096)),
          ),
        )
        const aborted = contract.store.abortMultipartUpload(bucket, 'raced', upload.uploadId)
        for (const settled of await Promise.allSettled([...parts, aborted])) {
          if (settled.status === 'rejected') {
            expect(settled.reason).toMatchObject({ code: 'NoSuchUpload' })
          }
        }
        await expectS3Error(
          contract.store.listParts(bucket, 'raced', upload.uploadId, { maxParts: 10 }),
          'NoSuchUpload',
          404,
        )
      }
      await expectNoLeftovers()
    })

    it('accepts part numbers 1 to 10000 only (InvalidArgument)', async () => {
      const upload = await contract.store.createMultipartUpload(bucket, 'numbered', owned)
      for (const partNumber of [0, -1, MAX_PART_NUMBER + 1, 1.5]) {
        await expectS3Error(
          contract.store.uploadPart(bucket, 'numbered', upload.uploadId, partNumber, bodyOf('x')),
          'InvalidArgument',
          400,
        )
      }
      const last = await contract.store.uploadPart(
        bucket,
        'numbered',
        upload.uploadId,
        MAX_PART_NUMBER,
        bodyOf('x'),
      )
      expect(last.partNumber).toBe(MAX_PART_NUMBER)
      await contract.store.abortMultipartUpload(bucket, 'numbered', upload.uploadId)
      await expectNoLeftovers()
    })

    it('stores no part when the part body fails', async () => {
      const upload = await contract.store.createMultipartUpload(bucket, 'failing', owned)
      const failure = new S3Error(
        'BadDigest',
        'The Content-MD5 you specified did not match what we received.',
      )
      await expect(
        contract.store.uploadPart(
          bucket,
          'failing',
          upload.uploadId,
          1,
          failingBody(randomBytes(100_000), failure),
        ),
      ).rejects.toBe(failure)
      expect(
        (await contract.store.listParts(bucket, 'failing', upload.uploadId, { maxParts: 10 }))
          .parts,
      ).toEqual([])
      await expectNoLeftovers()
      await contract.store.abortMultipartUpload(bucket, 'failing', upload.uploadId)
    })

    it('expires uploads started before a time, with their parts', async () => {
      const own = await newBucket()
      const old = await contract.store.createMultipartUpload(own, 'old', owned)
      await contract.store.uploadPart(own, 'old', old.uploadId, 1, bodyOf('abandoned'))
      const cutoff = new Date(old.initiated.getTime() + 1)
      expect(await contract.store.expireUploads(cutoff)).toBeGreaterThanOrEqual(1)
      expect(await contract.store.getMultipartUpload(own, 'old', old.uploadId)).toBeUndefined()
      const recent = await contract.store.createMultipartUpload(own, 'recent', owned)
      expect(
        await contract.store.expireUploads(new Date(recent.initiated.getTime() - 60_000)),
      ).toBe(0)
      expect(await contract.store.getMultipartUpload(own, 'recent', recent.uploadId)).toEqual(
        recent,
      )
      await expectNoLeftovers()
    })
  })
}
