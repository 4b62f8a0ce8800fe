import { randomBytes } from 'node:crypto'
import { text } from 'node:stream/consumers'
import { beforeAll, describe, expect, it } from 'vitest'
import type { NewObject, StoredChecksum } from '#server/storage/backends/object-store.ts'
import { S3Error } from '#server/storage/s3-error.ts'
import {
  bodyOf,
  bytesOf,
  type Contract,
  expectSameBytes,
  failingBody,
  md5,
  owned,
  required,
} from './support.ts'

export function describeObjects(contract: Contract): void {
  describe('objects', () => {
    const { newBucket, expectNoLeftovers } = contract
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
      const put = await contract.store.putObject(
        bucket,
        'public/a.png',
        bodyOf(bytes, checksum),
        object,
      )
      expect(put).toMatchObject({
        ...object,
        bucket,
        key: 'public/a.png',
        size: bytes.length,
        etag: `"${md5(bytes)}"`,
        checksum,
      })
      expect(put.partSizes).toBeUndefined()
      const head = await contract.store.headObject(bucket, 'public/a.png')
      expect(head).toEqual(put)
      expect(head?.lastModified).toBeInstanceOf(Date)
      const opened = await contract.store.openObject(bucket, 'public/a.png')
      expect(opened?.info).toEqual(put)
      expectSameBytes(await bytesOf(opened?.read()), bytes)
    })

    it('stores an empty object', async () => {
      const put = await contract.store.putObject(bucket, 'empty', bodyOf(''), owned)
      expect(put).toMatchObject({ size: 0, etag: `"${md5('')}"` })
      expect(
        (await bytesOf((await contract.store.openObject(bucket, 'empty'))?.read())).length,
      ).toBe(0)
    })

    it('answers undefined for a missing key', async () => {
      expect(await contract.store.headObject(bucket, 'nothing-here')).toBeUndefined()
      expect(await contract.store.openObject(bucket, 'nothing-here')).toBeUndefined()
    })

    it('replaces an object whole', async () => {
      await contract.store.putObject(bucket, 'replaced', bodyOf('first version'), owned)
      const second = await contract.store.putObject(bucket, 'replaced', bodyOf('second'), {
        ...owned,
        metadata: { v: '2' },
      })
      expect(await contract.store.headObject(bucket, 'replaced')).toEqual(second)
      expect(await text(required(await contract.store.openObject(bucket, 'replaced')).read())).toBe(
        'second',
      )
      await expectNoLeftovers()
    })

    it('removes what a write replaced once the index is durable, and the writer does not wait', async () => {
      await contract.store.settle()
      await contract.store.putObject(bucket, 'deferred', bodyOf('first'), owned)
      await contract.store.putObject(bucket, 'deferred', bodyOf('second'), owned)
      await contract.store.deleteObject(bucket, 'deferred')
      expect(await contract.leftovers()).toHaveLength(2)
      await expectNoLeftovers()
    })

    it('reads inclusive byte ranges', async () => {
      const bytes = randomBytes(10_000)
      await contract.store.putObject(bucket, 'ranged', bodyOf(bytes), owned)
      const read = async (start: number, end: number) =>
        bytesOf(required(await contract.store.openObject(bucket, 'ranged')).read({ start, end }))
      expectSameBytes(await read(0, 0), bytes.subarray(0, 1))
      expectSameBytes(await read(100, 5_099), bytes.subarray(100, 5_100))
      expectSameBytes(await read(9_999, 9_999), bytes.subarray(9_999))
    })

    it('reads a snapshot: replacing or deleting after open does not change the bytes read', async () => {
      const old = randomBytes(300_000)
      await contract.store.putObject(bucket, 'snapshot', bodyOf(old), owned)
      const whole = required(await contract.store.openObject(bucket, 'snapshot'))
      const ranged = required(await contract.store.openObject(bucket, 'snapshot'))
      await contract.store.putObject(bucket, 'snapshot', bodyOf(randomBytes(300_000)), owned)
      await contract.store.deleteObject(bucket, 'snapshot')
      expectSameBytes(await bytesOf(whole.read()), old)
      expect(await bytesOf(ranged.read({ start: 1000, end: 1999 }))).toEqual(
        old.subarray(1000, 2000),
      )
      expect(whole.info.etag).toBe(`"${md5(old)}"`)
      expect(await contract.store.headObject(bucket, 'snapshot')).toBeUndefined()
      await expectNoLeftovers()
    })

    it('deletes, and deleting a missing key succeeds', async () => {
      await contract.store.putObject(bucket, 'doomed', bodyOf('x'), owned)
      await contract.store.deleteObject(bucket, 'doomed')
      expect(await contract.store.headObject(bucket, 'doomed')).toBeUndefined()
      await contract.store.deleteObject(bucket, 'doomed')
      await expectNoLeftovers()
    })

    it('keeps keys that look like paths as plain names', async () => {
      const keys = ['../../escape', 'a//b', './.', '/leading', 'ends/', '..']
      for (const [i, key] of keys.entries()) {
        await contract.store.putObject(bucket, key, bodyOf(`value ${i}`), owned)
      }
      for (const [i, key] of keys.entries()) {
        expect(await text(required(await contract.store.openObject(bucket, key)).read())).toBe(
          `value ${i}`,
        )
      }
      for (const key of keys) await contract.store.deleteObject(bucket, key)
    })

    it('stores nothing when the body stream fails, and keeps the previous object', async () => {
      const kept = await contract.store.putObject(bucket, 'kept', bodyOf('the old value'), owned)
      const failure = new S3Error(
        'IncompleteBody',
        'You did not provide the number of bytes specified by the Content-Length HTTP header.',
      )
      await expect(
        contract.store.putObject(bucket, 'kept', failingBody(randomBytes(200_000), failure), owned),
      ).rejects.toBe(failure)
      await expect(
        contract.store.putObject(bucket, 'never', failingBody(randomBytes(10), failure), owned),
      ).rejects.toBe(failure)
      expect(await contract.store.headObject(bucket, 'kept')).toEqual(kept)
      expect(await text(required(await contract.store.openObject(bucket, 'kept')).read())).toBe(
        'the old value',
      )
      expect(await contract.store.headObject(bucket, 'never')).toBeUndefined()
      await expectNoLeftovers()
    })

    it('ends concurrent puts to one key with one complete value', async () => {
      const values = Array.from({ length: 8 }, () => randomBytes(64 * 1024 + 17))
      const results = await Promise.all(
        values.map((value) =>
          contract.store.putObject(bucket, 'contended', bodyOf(value, undefined, 4096), owned),
        ),
      )
      const head = required(await contract.store.headObject(bucket, 'contended'))
      const stored = await bytesOf(
        required(await contract.store.openObject(bucket, 'contended')).read(),
      )
      expect(values.some((value) => value.equals(stored))).toBe(true)
      expect(head.etag).toBe(`"${md5(stored)}"`)
      expect(results.map((r) => r.etag)).toContain(head.etag)
      await expectNoLeftovers()
    })
  })
}
