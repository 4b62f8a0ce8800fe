import { randomBytes } from 'node:crypto'
import { readdir, stat } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { crc32 } from 'node:zlib'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  DeleteBucketCommand,
  GetObjectAttributesCommand,
  GetObjectCommand,
  ListMultipartUploadsCommand,
  PutObjectCommand,
  UploadPartCommand,
  UploadPartCopyCommand,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import {
  BUCKET,
  expectS3Error,
  type Person,
  root,
  signedFetch,
  signedInUser,
  startStorageServer,
} from './support.ts'

// The second round of S3 operations and behaviours through the AWS SDK v3 (tests/boto3 has boto3's side).

let server: TestServer
let user: Person
let other: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
  other = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const PART = 5 * 1024 * 1024

/** Bytes in the disk backend's files being written (STORAGE_DIR/tmp). */
async function bytesBeingWritten(running: TestServer): Promise<number> {
  const directory = path.join(running.dataDir, 'storage', 'tmp')
  const sizes = await Promise.all(
    (await readdir(directory)).map(async (name) => (await stat(path.join(directory, name))).size),
  )
  return sizes.reduce((sum, size) => sum + size, 0)
}
const own = (person: Person, name: string) => `private/${person.identityId}/${name}`

/** A two-part upload of `key` by `person` with CRC32 part checksums; not completed. */
async function twoParts(person: Person, key: string) {
  const { UploadId } = await person.s3.send(
    new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key, ChecksumAlgorithm: 'CRC32' }),
  )
  const bodies = [randomBytes(PART), randomBytes(1000)]
  const parts = []
  for (const [index, body] of bodies.entries()) {
    const answer = await person.s3.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumber: index + 1,
        Body: body,
        ChecksumAlgorithm: 'CRC32',
      }),
    )
    parts.push({ PartNumber: index + 1, ETag: answer.ETag, ChecksumCRC32: answer.ChecksumCRC32 })
  }
  return { uploadId: UploadId as string, parts, bodies }
}

const complete = (
  person: Person,
  key: string,
  uploadId: string,
  parts: (object | undefined)[],
  extra = {},
) =>
  person.s3.send(
    new CompleteMultipartUploadCommand({
      Bucket: BUCKET,
      Key: key,
      UploadId: uploadId,
      MultipartUpload: { Parts: parts as object[] },
      ...extra,
    }),
  )

/** S3's composite CRC32: the CRC32 of the parts' binary CRC32s. */
function compositeCrc32(parts: { ChecksumCRC32?: string }[]) {
  const digest = Buffer.alloc(4)
  digest.writeUInt32BE(
    crc32(Buffer.concat(parts.map((part) => Buffer.from(part.ChecksumCRC32 ?? '', 'base64')))),
  )
  return digest.toString('base64')
}

describe('CompleteMultipartUpload retried and strict (item 1)', () => {
  it('answers a repeated Complete 200 with the same ETag; others and a replaced object get errors', async () => {
    const key = own(user, 'retried.bin')
    const { uploadId, parts } = await twoParts(user, key)
    const first = await complete(user, key, uploadId, parts)
    const again = await complete(user, key, uploadId, parts)
    expect(again.ETag).toBe(first.ETag)
    expect(again.ChecksumCRC32).toBe(first.ChecksumCRC32)
    await expectS3Error(complete(other, key, uploadId, parts), 'AccessDenied', 403)
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'replaced' }))
    await expectS3Error(complete(user, key, uploadId, parts), 'NoSuchUpload', 404)
  })

  it('refuses a part number listed twice as S3 does (InvalidPartOrder)', async () => {
    const key = own(user, 'twice.bin')
    const { uploadId, parts } = await twoParts(user, key)
    await expectS3Error(
      complete(user, key, uploadId, [parts[0], parts[0], parts[1]]),
      'InvalidPartOrder',
      400,
    )
    const done = await complete(user, key, uploadId, parts)
    expect(done.ETag).toMatch(/-2"$/)
  })
})

describe('the operations that were missing (item 2)', () => {
  it('lists unfinished uploads with prefix, delimiter, markers and paging', async () => {
    const base = own(user, 'listing/')
    const keys = [`${base}a/1`, `${base}a/2`, `${base}b`, `${base}b`, `${base}c`]
    const ids: string[] = []
    for (const key of keys) {
      const { UploadId } = await user.s3.send(
        new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }),
      )
      ids.push(UploadId as string)
    }
    const all = await user.s3.send(
      new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: base }),
    )
    expect(all.Uploads?.map((upload) => upload.Key)).toEqual(keys)
    expect(new Set(all.Uploads?.map((upload) => upload.UploadId))).toEqual(new Set(ids))
    expect(all.Uploads?.[0]?.Initiator?.ID).toBe(user.identityId)
    expect(all.Uploads?.[0]?.Initiated).toBeInstanceOf(Date)

    const seen: string[] = []
    let markers: { KeyMarker?: string; UploadIdMarker?: string } = {}
    for (let page = 0; page < 10; page++) {
      const answer = await user.s3.send(
        new ListMultipartUploadsCommand({
          Bucket: BUCKET,
          Prefix: base,
          MaxUploads: 2,
          ...markers,
        }),
      )
      seen.push(...(answer.Uploads ?? []).map((upload) => upload.UploadId as string))
      if (!answer.IsTruncated) break
      markers = { KeyMarker: answer.NextKeyMarker, UploadIdMarker: answer.NextUploadIdMarker }
    }
    expect(seen).toEqual(all.Uploads?.map((upload) => upload.UploadId))

    const rolled = await user.s3.send(
      new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: base, Delimiter: '/' }),
    )
    expect(rolled.CommonPrefixes?.map((prefix) => prefix.Prefix)).toEqual([`${base}a/`])
    expect(rolled.Uploads?.map((upload) => upload.Key)).toEqual(keys.slice(2))
    // Listing needs read on the whole prefix, as ListObjects does.
    await expectS3Error(
      other.s3.send(new ListMultipartUploadsCommand({ Bucket: BUCKET, Prefix: base })),
      'AccessDenied',
      403,
    )
  })

  it('refuses to delete a bucket holding only an unfinished upload, until it is found and aborted', async () => {
    const { s3 } = root(server)
    const bucket = `only-upload-${randomBytes(3).toString('hex')}`
    await s3.send(new CreateBucketCommand({ Bucket: bucket }))
    await s3.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'pending' }))
    await expectS3Error(s3.send(new DeleteBucketCommand({ Bucket: bucket })), 'BucketNotEmpty', 409)
    const { Uploads } = await s3.send(new ListMultipartUploadsCommand({ Bucket: bucket }))
    for (const upload of Uploads ?? []) {
      await s3.send(
        new AbortMultipartUploadCommand({
          Bucket: bucket,
          Key: upload.Key,
          UploadId: upload.UploadId,
        }),
      )
    }
    await s3.send(new DeleteBucketCommand({ Bucket: bucket }))
  })

  it('copies a range of an object the caller may read into a part (UploadPartCopy)', async () => {
    const source = randomBytes(PART + 100)
    const sourceKey = `public/copy-source-${randomBytes(3).toString('hex')}.bin`
    await other.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: sourceKey, Body: source }))
    const key = own(user, 'copied.bin')
    const { UploadId } = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }),
    )
    const copyPart = (PartNumber: number, CopySource: string, CopySourceRange?: string) =>
      user.s3.send(
        new UploadPartCopyCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId,
          PartNumber,
          CopySource,
          CopySourceRange,
        }),
      )
    const copySource = `${BUCKET}/${sourceKey}`
    const first = await copyPart(1, copySource, `bytes=0-${PART - 1}`)
    const second = await copyPart(2, copySource, `bytes=${PART}-${PART + 99}`)
    expect(first.CopyPartResult?.ETag).toMatch(/^"[0-9a-f]{32}"$/)
    expect(first.CopyPartResult?.LastModified).toBeInstanceOf(Date)
    await expectS3Error(copyPart(3, copySource, `bytes=0-${PART + 100}`), 'InvalidRange', 416)
    await expectS3Error(copyPart(3, copySource, 'bytes=9-1'), 'InvalidArgument', 400)
    // The source is read with the caller's rights: another user's private object is not theirs.
    const secret = own(other, 'secret.bin')
    await other.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: secret, Body: 'secret' }))
    await expectS3Error(copyPart(3, `${BUCKET}/${secret}`), 'AccessDenied', 403)
    await complete(user, key, UploadId as string, [
      { PartNumber: 1, ETag: first.CopyPartResult?.ETag },
      { PartNumber: 2, ETag: second.CopyPartResult?.ETag },
    ])
    const copied = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(Buffer.from((await copied.Body?.transformToByteArray()) ?? []).equals(source)).toBe(true)
  })

  it('answers GetObjectAttributes with ETag, checksum, parts in pages, storage class and size', async () => {
    const key = own(user, 'attributes.bin')
    const { uploadId, parts } = await twoParts(user, key)
    const done = await complete(user, key, uploadId, parts)
    const attributes = (more: object = {}) =>
      user.s3.send(
        new GetObjectAttributesCommand({
          Bucket: BUCKET,
          Key: key,
          ObjectAttributes: ['ETag', 'Checksum', 'ObjectParts', 'StorageClass', 'ObjectSize'],
          ...more,
        }),
      )
    const answer = await attributes()
    expect(answer.ETag).toBe(done.ETag?.replace(/"/g, ''))
    expect(answer.ObjectSize).toBe(PART + 1000)
    expect(answer.StorageClass).toBe('STANDARD')
    expect(answer.LastModified).toBeInstanceOf(Date)
    expect(answer.Checksum).toMatchObject({
      ChecksumCRC32: compositeCrc32(parts),
      ChecksumType: 'COMPOSITE',
    })
    expect(answer.ObjectParts).toMatchObject({ TotalPartsCount: 2, IsTruncated: false })
    expect(answer.ObjectParts?.Parts).toEqual([
      { PartNumber: 1, Size: PART, ChecksumCRC32: parts[0]?.ChecksumCRC32 },
      { PartNumber: 2, Size: 1000, ChecksumCRC32: parts[1]?.ChecksumCRC32 },
    ])
    const firstPage = await attributes({ MaxParts: 1 })
    expect(firstPage.ObjectParts).toMatchObject({ IsTruncated: true, NextPartNumberMarker: '1' })
    const secondPage = await attributes({ MaxParts: 1, PartNumberMarker: '1' })
    expect(secondPage.ObjectParts?.Parts?.map((part) => part.PartNumber)).toEqual([2])
    const onlySize = await user.s3.send(
      new GetObjectAttributesCommand({
        Bucket: BUCKET,
        Key: key,
        ObjectAttributes: ['ObjectSize'],
      }),
    )
    expect(onlySize.ETag).toBeUndefined()
    await expectS3Error(
      other.s3.send(
        new GetObjectAttributesCommand({ Bucket: BUCKET, Key: key, ObjectAttributes: ['ETag'] }),
      ),
      'AccessDenied',
      403,
    )
  })
})

describe('conditional writes, 304s, tokens and checksums (item 3)', () => {
  it('writes with If-None-Match: * only where nothing is, and with If-Match only over that ETag', async () => {
    const key = own(user, 'conditional.txt')
    const put = (body: string, condition: object) =>
      user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: body, ...condition }))
    await expectS3Error(put('v0', { IfMatch: '"0123"' }), 'NoSuchKey', 404)
    const first = await put('v1', { IfNoneMatch: '*' })
    await expectS3Error(put('v2', { IfNoneMatch: '*' }), 'PreconditionFailed', 412)
    await expectS3Error(put('v2', { IfMatch: '"0123"' }), 'PreconditionFailed', 412)
    await put('v2', { IfMatch: first.ETag })
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await got.Body?.transformToString()).toBe('v2')
  })

  it('answers 409 ConditionalRequestConflict when the object changes while the body arrives', async () => {
    const key = own(user, 'raced.txt')
    let finish: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      finish = resolve
    })
    const head = randomBytes(1024 * 1024)
    async function* slowBody() {
      yield head
      await gate
      yield Buffer.from('the end')
    }
    const conditional = user.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: Readable.from(slowBody()),
        ContentLength: head.length + 7,
        IfNoneMatch: '*',
      }),
    )
    // Bytes reaching a file under tmp/ mean the first check passed and the body is being
    // stored; another write lands before it ends.
    await vi.waitFor(async () => expect(await bytesBeingWritten(server)).toBeGreaterThan(0), {
      timeout: 20_000,
    })
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'the winner' }))
    finish()
    await expectS3Error(conditional, 'ConditionalRequestConflict', 409)
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    expect(await got.Body?.transformToString()).toBe('the winner')
  })

  it('completes with If-None-Match: * only where nothing is', async () => {
    const key = own(user, 'conditional-multipart.bin')
    await user.s3.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'there' }))
    const { uploadId, parts } = await twoParts(user, key)
    await expectS3Error(
      complete(user, key, uploadId, parts, { IfNoneMatch: '*' }),
      'PreconditionFailed',
      412,
    )
    const head = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key }))
    await head.Body?.transformToString()
    const done = await complete(user, key, uploadId, parts, { IfMatch: head.ETag })
    expect(done.ETag).toMatch(/-2"$/)
  })

  it('checks the whole-object checksum sent at Complete: the composite (…-N) passes, a wrong one is BadDigest', async () => {
    const key = own(user, 'composite.bin')
    const { uploadId, parts } = await twoParts(user, key)
    await expectS3Error(
      complete(user, key, uploadId, parts, { ChecksumCRC32: 'AAAAAA==-2' }),
      'BadDigest',
      400,
    )
    const composite = `${compositeCrc32(parts)}-2`
    const done = await complete(user, key, uploadId, parts, { ChecksumCRC32: composite })
    expect(done.ChecksumCRC32).toBe(composite)
  })

  it('sends a 304 with the validators and caching headers', async () => {
    const key = own(user, 'cached.txt')
    const put = await user.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: 'cached',
        CacheControl: 'max-age=60',
        Expires: new Date('2030-01-01T00:00:00Z'),
      }),
    )
    const answer = await signedFetch(server, {
      method: 'GET',
      path: `/${BUCKET}/${key}`,
      headers: { 'if-none-match': put.ETag as string },
      credentials: user.credentials,
    })
    expect(answer.status).toBe(304)
    expect(answer.headers.get('etag')).toBe(put.ETag)
    expect(answer.headers.get('last-modified')).toMatch(/GMT$/)
    expect(answer.headers.get('cache-control')).toBe('max-age=60')
    expect(answer.headers.get('expires')).toBe('Tue, 01 Jan 2030 00:00:00 GMT')
  })

  it('treats an empty continuation-token as none', async () => {
    const answer = await signedFetch(server, {
      method: 'GET',
      path: `/${BUCKET}?list-type=2&continuation-token=&prefix=public%2F`,
    })
    expect(answer.status).toBe(200)
    expect(answer.text).toContain('<ListBucketResult')
    expect(answer.text).not.toContain('<ContinuationToken>')
  })
})
