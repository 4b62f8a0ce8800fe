import { text } from 'node:stream/consumers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewObject } from '#server/storage/backends/object-store.ts'
import { bodyOf, type Contract, expectS3Error, md5, required } from './support.ts'

export function describeCopy(contract: Contract): void {
  describe('copy', () => {
    const { newBucket, expectNoLeftovers, expectCopyIntoMissingBucketRefused } = contract
    let bucket: string
    const source: NewObject = {
      headers: { contentType: 'text/plain; charset=utf-8', contentLanguage: 'ja' },
      metadata: { original: 'yes' },
      owner: 'source-owner',
    }
    beforeAll(async () => {
      bucket = await newBucket()
      await contract.store.putObject(bucket, 'source', bodyOf('コピーされる内容'), source)
    })

    it('copies bytes, headers and metadata with COPY, under the new owner', async () => {
      const copied = await contract.store.copyObject(
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
      expect(await text(required(await contract.store.openObject(bucket, 'copy')).read())).toBe(
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
      const copied = await contract.store.copyObject(
        { bucket, key: 'source' },
        { bucket: other, key: 'copy' },
        { metadata: 'REPLACE', object: replacement },
      )
      expect(copied).toMatchObject({
        ...replacement,
        bucket: other,
        size: Buffer.byteLength('コピーされる内容'),
      })
      expect(await contract.store.headObject(other, 'copy')).toEqual(copied)
    })

    it('copies an object onto itself with new metadata', async () => {
      await contract.store.putObject(bucket, 'self', bodyOf('same bytes'), source)
      const copied = await contract.store.copyObject(
        { bucket, key: 'self' },
        { bucket, key: 'self' },
        { metadata: 'REPLACE', object: { ...source, metadata: { changed: '1' } } },
      )
      expect(copied.metadata).toEqual({ changed: '1' })
      expect(await text(required(await contract.store.openObject(bucket, 'self')).read())).toBe(
        'same bytes',
      )
      await expectNoLeftovers()
    })

    it('leaves the copy unchanged when the source changes later', async () => {
      await contract.store.putObject(bucket, 'moving', bodyOf('before'), source)
      await contract.store.copyObject(
        { bucket, key: 'moving' },
        { bucket, key: 'frozen' },
        { metadata: 'COPY', owner: 'o' },
      )
      await contract.store.putObject(bucket, 'moving', bodyOf('after'), source)
      expect(await text(required(await contract.store.openObject(bucket, 'frozen')).read())).toBe(
        'before',
      )
    })

    it('answers NoSuchKey for a missing source and NoSuchBucket for a missing target bucket', async () => {
      await expectS3Error(
        contract.store.copyObject(
          { bucket, key: 'absent' },
          { bucket, key: 'x' },
          { metadata: 'COPY', owner: 'o' },
        ),
        'NoSuchKey',
        404,
      )
      await expectCopyIntoMissingBucketRefused({ bucket, key: 'source' }, 'x', 'o')
      expect(await contract.store.headObject(bucket, 'x')).toBeUndefined()
      await expectNoLeftovers()
    })
  })
}
