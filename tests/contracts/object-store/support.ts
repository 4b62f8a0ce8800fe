import { createHash } from 'node:crypto'
import { Readable } from 'node:stream'
import { expect } from 'vitest'
import type {
  IncomingBody,
  NewObject,
  ObjectStore,
  StoredChecksum,
} from '#server/storage/backends/object-store.ts'
import { S3Error } from '#server/storage/s3-error.ts'

/** What the conformance suite's areas are given: the store under test once it is open. */
export type Contract = {
  readonly store: ObjectStore
  /** What the backend keeps that no object or upload accounts for. */
  leftovers(): Promise<string[]>
  /** A new, empty bucket. */
  newBucket(): Promise<string>
  /** After the store settles, the backend keeps nothing unaccounted for. */
  expectNoLeftovers(): Promise<void>
  /** A copy of `source` into a bucket that does not exist fails with NoSuchBucket. */
  expectCopyIntoMissingBucketRefused(
    source: { bucket: string; key: string },
    targetKey: string,
    owner: string,
  ): Promise<S3Error>
}

export const owned: NewObject = { headers: {}, metadata: {}, owner: 'test-owner' }

export function bodyOf(
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
export function failingBody(bytes: Buffer, error: Error): IncomingBody {
  async function* chunks() {
    yield bytes
    await new Promise((resolve) => setImmediate(resolve))
    throw error
  }
  return { stream: Readable.from(chunks()), checksum: () => undefined }
}

export const md5 = (bytes: Buffer | string) => createHash('md5').update(bytes).digest('hex')

export async function bytesOf(stream: Readable | undefined): Promise<Buffer> {
  if (!stream) throw new Error('no stream')
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(Buffer.from(chunk))
  return Buffer.concat(chunks)
}

/** By length and digest: comparing large buffers element by element is slow in `toEqual`. */
export function expectSameBytes(actual: Buffer, expected: Buffer): void {
  expect({ size: actual.length, md5: md5(actual) }).toEqual({
    size: expected.length,
    md5: md5(expected),
  })
}

export function required<T>(value: T | undefined): T {
  if (value === undefined) throw new Error('expected a value')
  return value
}

export async function expectS3Error(
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
