import { randomBytes } from 'node:crypto'
import { crc32 } from 'node:zlib'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  type CompletedPart,
  MIN_PART_SIZE,
  type StoredChecksum,
  type UploadsPage,
} from '#server/storage/backends/object-store.ts'
import { bodyOf, type Contract, expectS3Error, owned } from './support.ts'

export function describeMultipartRoundTwo(contract: Contract): void {
  describe('multipart, round two', { timeout: 30_000 }, () => {
    const { newBucket, expectNoLeftovers } = contract
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
      const upload = await contract.store.createMultipartUpload(bucket, key, owned)
      const one = await contract.store.uploadPart(
        bucket,
        key,
        upload.uploadId,
        1,
        bodyOf(randomBytes(MIN_PART_SIZE), crc('AAAAAQ==')),
      )
      const two = await contract.store.uploadPart(
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
      const first = await contract.store.completeMultipartUpload(
        bucket,
        'retried',
        upload.uploadId,
        parts,
      )
      expect(first.uploadId).toBe(upload.uploadId)
      expect(first.partChecksums).toEqual([crc('AAAAAQ=='), crc('AAAAAg==')])
      const again = await contract.store.completeMultipartUpload(
        bucket,
        'retried',
        upload.uploadId,
        parts,
      )
      expect(again).toEqual(first)
      expect(await contract.store.headObject(bucket, 'retried')).toEqual(first)
      // Replaced since: the upload's object is gone, so the upload is no more.
      await contract.store.putObject(bucket, 'retried', bodyOf('new'), owned)
      await expectS3Error(
        contract.store.completeMultipartUpload(bucket, 'retried', upload.uploadId, parts),
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
        contract.store.completeMultipartUpload(bucket, 'summed', upload.uploadId, listed, {
          checksum: { algorithm: 'CRC32', value: 'AAAAAA==-2' },
        }),
        'BadDigest',
        400,
      )
      await expectS3Error(
        contract.store.completeMultipartUpload(bucket, 'summed', upload.uploadId, [
          listed[0] as CompletedPart,
          {
            ...(listed[1] as CompletedPart),
            checksum: { algorithm: 'CRC32', value: 'AAAAAw==' },
          },
        ]),
        'InvalidPart',
        400,
      )
      expect(await contract.store.headObject(bucket, 'summed')).toBeUndefined()
      // The composite of the two part checksums, computed independently.
      const joined = Buffer.from([0, 0, 0, 1, 0, 0, 0, 2])
      const composite = Buffer.alloc(4)
      composite.writeUInt32BE(crc32(joined))
      const value = composite.toString('base64')
      const done = await contract.store.completeMultipartUpload(
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
      const withCount = await contract.store.completeMultipartUpload(
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
        contract.store.putObject(bucket, 'guarded', bodyOf('v0'), owned, { ifMatch: '"nope"' }),
        'ConditionalRequestConflict',
        409,
      )
      const first = await contract.store.putObject(bucket, 'guarded', bodyOf('v1'), owned, {
        ifNoneMatch: '*',
      })
      await expectS3Error(
        contract.store.putObject(bucket, 'guarded', bodyOf('v2'), owned, { ifNoneMatch: '*' }),
        'ConditionalRequestConflict',
        409,
      )
      const second = await contract.store.putObject(bucket, 'guarded', bodyOf('v2'), owned, {
        ifMatch: first.etag,
      })
      await expectS3Error(
        contract.store.putObject(bucket, 'guarded', bodyOf('v3'), owned, { ifMatch: first.etag }),
        'ConditionalRequestConflict',
        409,
      )
      expect((await contract.store.headObject(bucket, 'guarded'))?.etag).toBe(second.etag)
      const { upload, parts } = await twoParts('guarded')
      await expectS3Error(
        contract.store.completeMultipartUpload(bucket, 'guarded', upload.uploadId, parts, {
          condition: { ifNoneMatch: '*' },
        }),
        'ConditionalRequestConflict',
        409,
      )
      const done = await contract.store.completeMultipartUpload(
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
      for (const key of keys)
        uploads.push(await contract.store.createMultipartUpload(own, key, owned))
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
      const all = await contract.store.listMultipartUploads(own, { maxUploads: 1000 })
      expect(names(all)).toEqual(order.map((upload) => `${upload.key} ${upload.uploadId}`))
      expect(all.isTruncated).toBe(false)
      const first = all.entries[0]
      expect(first && 'upload' in first && first.upload).toEqual(order[0])

      // Every page size pages through the same list, markers naming the last upload.
      for (const size of [1, 2, 3]) {
        const seen: string[] = []
        let marker: { keyMarker?: string; uploadIdMarker?: string } = {}
        for (;;) {
          const page = await contract.store.listMultipartUploads(own, {
            maxUploads: size,
            ...marker,
          })
          seen.push(...names(page))
          if (!page.isTruncated) break
          marker = { keyMarker: page.nextKeyMarker, uploadIdMarker: page.nextUploadIdMarker }
        }
        expect(seen).toEqual(names(all))
      }
      const b = order.filter((upload) => upload.key === 'b')
      const afterFirstB = await contract.store.listMultipartUploads(own, {
        maxUploads: 1000,
        keyMarker: 'b',
        uploadIdMarker: b[0]?.uploadId,
      })
      expect(names(afterFirstB)[0]).toBe(`b ${b[1]?.uploadId}`)
      const afterB = await contract.store.listMultipartUploads(own, {
        maxUploads: 1000,
        keyMarker: 'b',
      })
      expect(names(afterB)[0]).toMatch(/^c\/d\/e /)

      const rolled = await contract.store.listMultipartUploads(own, {
        maxUploads: 1000,
        delimiter: '/',
      })
      expect(names(rolled).map((name) => name.split(' ')[0])).toEqual([
        'a/',
        'b',
        'b',
        'c/',
        'z',
        'ä',
      ])
      const pagedPrefixes = await contract.store.listMultipartUploads(own, {
        maxUploads: 1,
        delimiter: '/',
      })
      expect(names(pagedPrefixes)).toEqual(['a/'])
      expect(pagedPrefixes).toMatchObject({ isTruncated: true, nextKeyMarker: 'a/' })
      const next = await contract.store.listMultipartUploads(own, {
        maxUploads: 1,
        delimiter: '/',
        keyMarker: 'a/',
      })
      expect(names(next)[0]).toMatch(/^b /)
      const inA = await contract.store.listMultipartUploads(own, {
        maxUploads: 1000,
        prefix: 'c/',
        delimiter: '/',
      })
      expect(names(inA)).toEqual(['c/d/'])
      expect((await contract.store.listMultipartUploads(own, { maxUploads: 0 })).entries).toEqual(
        [],
      )
      await expectS3Error(
        contract.store.listMultipartUploads(`missing-${randomBytes(4).toString('hex')}`, {
          maxUploads: 1,
        }),
        'NoSuchBucket',
        404,
      )
    })
  })
}
