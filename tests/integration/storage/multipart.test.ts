import { createHash, randomBytes } from 'node:crypto'
import { Readable } from 'node:stream'
import {
  AbortMultipartUploadCommand,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListPartsCommand,
  UploadPartCommand,
} from '@aws-sdk/client-s3'
import { Upload } from '@aws-sdk/lib-storage'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, expectS3Error, type Person, signedInUser, startStorageServer } from './support.ts'

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

const MiB = 1024 * 1024
const PART = 5 * MiB
const md5 = (data: Buffer) => createHash('md5').update(data).digest()
const multipartEtag = (parts: Buffer[]) =>
  `"${createHash('md5')
    .update(Buffer.concat(parts.map(md5)))
    .digest('hex')}-${parts.length}"`
const own = (name: string) => `private/${user.identityId}/${name}`

describe('multipart uploads through @aws-sdk/lib-storage', () => {
  it('uploads 12 MiB in 5 MiB parts, four at a time, with the multipart ETag', async () => {
    const data = randomBytes(12 * MiB)
    const progress: number[] = []
    const upload = new Upload({
      client: user.s3,
      params: {
        Bucket: BUCKET,
        Key: own('big.bin'),
        Body: data,
        ContentType: 'application/octet-stream',
      },
      partSize: PART,
      queueSize: 4,
    })
    upload.on('httpUploadProgress', (event) => progress.push(event.loaded ?? 0))
    const result = await upload.done()
    const parts = [data.subarray(0, PART), data.subarray(PART, 2 * PART), data.subarray(2 * PART)]
    expect(result.ETag).toBe(multipartEtag(parts))
    expect(Math.max(...progress)).toBe(data.length)
    const head = await user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('big.bin') }))
    expect(head.ContentLength).toBe(data.length)
    const second = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: own('big.bin'), PartNumber: 2 }),
    )
    expect(second.PartsCount).toBe(3)
    expect(
      Buffer.from((await second.Body?.transformToByteArray()) ?? []).equals(parts[1] as Buffer),
    ).toBe(true)
    const whole = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('big.bin') }))
    expect(
      md5(Buffer.from((await whole.Body?.transformToByteArray()) ?? [])).equals(md5(data)),
    ).toBe(true)
  })

  it('cancels: aborting the Upload aborts the multipart upload and leaves no parts or object', async () => {
    const controller = new AbortController()
    const upload = new Upload({
      client: user.s3,
      params: { Bucket: BUCKET, Key: own('cancelled.bin'), Body: randomBytes(11 * MiB) },
      partSize: PART,
      queueSize: 1,
      abortController: controller,
    })
    upload.on('httpUploadProgress', (event) => {
      if ((event.loaded ?? 0) >= PART) controller.abort()
    })
    await expect(upload.done()).rejects.toThrow()
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('cancelled.bin') })),
      'NotFound',
      404,
    )
  })
})

/**
 * A part body that gives its first bytes and then stalls: once the HTTP client has taken them and
 * asks for more, `onStalled` runs (the test aborts the request there, half-way through the body).
 */
function stalledBody(firstBytes: Buffer, onStalled: () => void): Readable {
  let reads = 0
  return new Readable({
    read() {
      reads += 1
      if (reads === 1) this.push(firstBytes)
      else if (reads === 2) setImmediate(onStalled)
    },
  })
}

describe('multipart protocol: pause and resume, errors', () => {
  it('resumes after an aborted part request: ListParts shows only whole parts, and the rest completes', async () => {
    const key = own('resumed.bin')
    const parts = [randomBytes(PART), randomBytes(PART), randomBytes(1000)]
    const { UploadId } = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }),
    )
    const first = await user.s3.send(
      new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: parts[0] }),
    )
    // "Pause": the second part's request is aborted half-way through its body.
    const controller = new AbortController()
    const pending = user.s3.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumber: 2,
        Body: stalledBody((parts[1] as Buffer).subarray(0, MiB), () => controller.abort()),
        ContentLength: PART,
      }),
      { abortSignal: controller.signal },
    )
    await expect(pending).rejects.toThrow()

    // "Resume": ask the server which parts it has, send the rest, complete.
    const listed = await user.s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId }))
    expect(listed.Parts?.map((part) => [part.PartNumber, part.ETag, part.Size])).toEqual([
      [1, first.ETag, PART],
    ])
    const etags = [first.ETag]
    for (const number of [2, 3]) {
      const answer = await user.s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId,
          PartNumber: number,
          Body: parts[number - 1],
        }),
      )
      etags.push(answer.ETag)
    }
    const done = await user.s3.send(
      new CompleteMultipartUploadCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, index) => ({ ETag, PartNumber: index + 1 })) },
      }),
    )
    expect(done).toMatchObject({ Bucket: BUCKET, Key: key, ETag: multipartEtag(parts) })
    expect(done.Location).toContain(`/s3/${BUCKET}/private/`)
    await expectS3Error(
      user.s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId })),
      'NoSuchUpload',
      404,
    )
  })

  it('pages ListParts with max-parts and part-number-marker', async () => {
    const key = own('paged.bin')
    const { UploadId } = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }),
    )
    for (const number of [1, 2, 3]) {
      await user.s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId,
          PartNumber: number,
          Body: `part ${number}`,
        }),
      )
    }
    const first = await user.s3.send(
      new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId, MaxParts: 2 }),
    )
    expect(first.Parts?.map((part) => part.PartNumber)).toEqual([1, 2])
    expect(first).toMatchObject({ IsTruncated: true, NextPartNumberMarker: '2', MaxParts: 2 })
    const second = await user.s3.send(
      new ListPartsCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumberMarker: first.NextPartNumberMarker,
      }),
    )
    expect(second.Parts?.map((part) => part.PartNumber)).toEqual([3])
    expect(second.IsTruncated).toBe(false)
    await expectS3Error(
      other.s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId })),
      'AccessDenied',
      403,
    )
    await user.s3.send(new AbortMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId }))
    await expectS3Error(
      user.s3.send(new ListPartsCommand({ Bucket: BUCKET, Key: key, UploadId })),
      'NoSuchUpload',
      404,
    )
  })

  it('refuses wrong part ETags, parts out of order, small parts and part numbers over 10000, storing nothing', async () => {
    const key = own('refused.bin')
    const { UploadId } = await user.s3.send(
      new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }),
    )
    const one = await user.s3.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumber: 1,
        Body: 'small one',
      }),
    )
    const two = await user.s3.send(
      new UploadPartCommand({
        Bucket: BUCKET,
        Key: key,
        UploadId,
        PartNumber: 2,
        Body: 'small two',
      }),
    )
    const complete = (Parts: { ETag?: string; PartNumber: number }[]) =>
      user.s3.send(
        new CompleteMultipartUploadCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId,
          MultipartUpload: { Parts },
        }),
      )

    await expectS3Error(
      complete([{ ETag: '"0123456789abcdef0123456789abcdef"', PartNumber: 1 }]),
      'InvalidPart',
      400,
    )
    await expectS3Error(complete([{ ETag: one.ETag, PartNumber: 3 }]), 'InvalidPart', 400)
    await expectS3Error(
      complete([
        { ETag: two.ETag, PartNumber: 2 },
        { ETag: one.ETag, PartNumber: 1 },
      ]),
      'InvalidPartOrder',
      400,
    )
    await expectS3Error(
      complete([
        { ETag: one.ETag, PartNumber: 1 },
        { ETag: two.ETag, PartNumber: 2 },
      ]),
      'EntityTooSmall',
      400,
    )
    const tooMany = Array.from({ length: 10_001 }, (_, index) => ({
      ETag: one.ETag,
      PartNumber: index + 1,
    }))
    await expectS3Error(complete(tooMany), 'InvalidArgument', 400)
    await expectS3Error(
      user.s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId,
          PartNumber: 10_001,
          Body: 'x',
        }),
      ),
      'InvalidArgument',
      400,
    )
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key })),
      'NotFound',
      404,
    )
    // The upload survives a refused Complete, as in S3: the one valid part list still completes it.
    const done = await complete([{ ETag: two.ETag, PartNumber: 2 }])
    expect(done.ETag).toMatch(/-1"$/)
    await expectS3Error(
      user.s3.send(
        new UploadPartCommand({
          Bucket: BUCKET,
          Key: key,
          UploadId: 'no-such-upload',
          PartNumber: 1,
          Body: 'x',
        }),
      ),
      'NoSuchUpload',
      404,
    )
  })
})
