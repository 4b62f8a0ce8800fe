import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import type { ObjectStore } from '#server/storage/backends/object-store.ts'
import { describeBuckets } from './object-store/buckets.ts'
import { describeCopy } from './object-store/copy.ts'
import { describeListing } from './object-store/listing.ts'
import { describeMultipartRoundTwo } from './object-store/multipart-round-two.ts'
import { describeMultipartUploads } from './object-store/multipart-uploads.ts'
import { describeObjects } from './object-store/objects.ts'
import { type Contract, expectS3Error } from './object-store/support.ts'

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
 * The behaviour every `ObjectStore` must show, as the interface documents it, one file per
 * area in object-store/. Each backend's test runs it (`fs` on SQLite and PostgreSQL;
 * `s3` against a running endpoint).
 */
export function describeObjectStoreContract(
  name: string,
  open: () => Promise<ObjectStoreUnderTest>,
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let subject: ObjectStoreUnderTest | undefined
    beforeAll(async () => {
      subject = await open()
    })
    afterAll(async () => {
      await subject?.dispose()
    })
    const opened = (): ObjectStoreUnderTest => {
      if (!subject) throw new Error('the store under test did not open')
      return subject
    }
    const contract: Contract = {
      get store(): ObjectStore {
        return opened().store
      },
      leftovers: () => opened().leftovers(),
      async newBucket() {
        const bucket = `contract-${randomBytes(5).toString('hex')}`
        await opened().store.createBucket(bucket)
        return bucket
      },
      async expectNoLeftovers() {
        await opened().store.settle()
        expect(await opened().leftovers()).toEqual([])
      },
      expectCopyIntoMissingBucketRefused: (source, targetKey, owner) =>
        expectS3Error(
          opened().store.copyObject(
            source,
            { bucket: `missing-${randomBytes(4).toString('hex')}`, key: targetKey },
            { metadata: 'COPY', owner },
          ),
          'NoSuchBucket',
          404,
        ),
    }
    describeBuckets(contract)
    describeObjects(contract)
    describeListing(contract)
    describeCopy(contract)
    describeMultipartUploads(contract)
    describeMultipartRoundTwo(contract)
  })
}
