import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bodyOf, type Contract, expectS3Error, owned } from './support.ts'

export function describeBuckets(contract: Contract): void {
  describe('buckets', () => {
    const { newBucket, expectNoLeftovers } = contract
    it('creates, lists, reports and deletes a bucket', async () => {
      const bucket = await newBucket()
      expect(await contract.store.bucketExists(bucket)).toBe(true)
      const listed = await contract.store.listBuckets()
      expect(listed.find((b) => b.name === bucket)?.createdAt).toBeInstanceOf(Date)
      await contract.store.deleteBucket(bucket)
      expect(await contract.store.bucketExists(bucket)).toBe(false)
      expect((await contract.store.listBuckets()).map((b) => b.name)).not.toContain(bucket)
    })

    it('refuses to create a bucket twice', async () => {
      const bucket = await newBucket()
      await expectS3Error(contract.store.createBucket(bucket), 'BucketAlreadyOwnedByYou', 409)
    })

    it('answers NoSuchBucket for a missing bucket, on every operation that names one', async () => {
      const missing = `missing-${randomBytes(5).toString('hex')}`
      await expectS3Error(contract.store.deleteBucket(missing), 'NoSuchBucket', 404)
      await expectS3Error(
        contract.store.putObject(missing, 'k', bodyOf('x'), owned),
        'NoSuchBucket',
        404,
      )
      await expectS3Error(contract.store.headObject(missing, 'k'), 'NoSuchBucket', 404)
      await expectS3Error(contract.store.openObject(missing, 'k'), 'NoSuchBucket', 404)
      await expectS3Error(contract.store.listObjects(missing, { maxKeys: 10 }), 'NoSuchBucket', 404)
      await expectS3Error(contract.store.deleteObject(missing, 'k'), 'NoSuchBucket', 404)
      await expectS3Error(
        contract.store.createMultipartUpload(missing, 'k', owned),
        'NoSuchBucket',
        404,
      )
      await expectNoLeftovers()
    })

    it('keeps a bucket that still holds an object or an upload (BucketNotEmpty)', async () => {
      const bucket = await newBucket()
      await contract.store.putObject(bucket, 'a', bodyOf('a'), owned)
      await expectS3Error(contract.store.deleteBucket(bucket), 'BucketNotEmpty', 409)
      await contract.store.deleteObject(bucket, 'a')
      const upload = await contract.store.createMultipartUpload(bucket, 'b', owned)
      await expectS3Error(contract.store.deleteBucket(bucket), 'BucketNotEmpty', 409)
      await contract.store.abortMultipartUpload(bucket, 'b', upload.uploadId)
      await contract.store.deleteBucket(bucket)
      expect(await contract.store.bucketExists(bucket)).toBe(false)
    })
  })
}
