import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checksumOf } from '#server/storage/checksums.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import {
  BUCKET,
  bodyText,
  expectS3Error,
  type Person,
  signedInUser,
  startStorageServer,
} from './support.ts'

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

const md5 = (data: Buffer | string) => createHash('md5').update(data).digest('hex')
const own = (name: string) => `private/${user.identityId}/${name}`

describe('objects through @aws-sdk/client-s3 with default checksum settings', () => {
  it('puts a buffer body (x-amz-checksum-crc32 verified and echoed) and reads it back', async () => {
    const body = Buffer.from('こんにちは、S3')
    const put = await user.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: own('hello.txt'),
        Body: body,
        ContentType: 'text/plain; charset=utf-8',
        Metadata: { lesson: 'one' },
      }),
    )
    expect(put.ETag).toBe(`"${md5(body)}"`)
    expect(put.ChecksumCRC32).toBeTruthy()
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('hello.txt') }))
    expect(await bodyText(got.Body)).toBe('こんにちは、S3')
    expect(got).toMatchObject({
      ContentType: 'text/plain; charset=utf-8',
      ContentLength: body.length,
      ETag: put.ETag,
      Metadata: { lesson: 'one' },
      ChecksumCRC32: put.ChecksumCRC32,
    })
    expect(got.$metadata.requestId).toMatch(/^[0-9A-F]{16}$/)
  })

  it('puts a stream body (aws-chunked, STREAMING-UNSIGNED-PAYLOAD-TRAILER) and stores the bytes, not the framing', async () => {
    const file = path.join(server.dataDir, 'stream-body.bin')
    const data = Buffer.alloc(300_000, 'abcdefghij')
    await writeFile(file, data)
    const sent: Record<string, string>[] = []
    user.s3.middlewareStack.add(
      (next) => async (args) => {
        sent.push({ ...(args.request as { headers: Record<string, string> }).headers })
        return next(args)
      },
      { step: 'deserialize', name: 'recordSentHeaders' },
    )
    const put = await user.s3
      .send(
        new PutObjectCommand({
          Bucket: BUCKET,
          Key: own('stream.bin'),
          Body: createReadStream(file),
        }),
      )
      .finally(() => user.s3.middlewareStack.remove('recordSentHeaders'))
    expect(sent[0]).toMatchObject({
      'x-amz-content-sha256': 'STREAMING-UNSIGNED-PAYLOAD-TRAILER',
      'content-encoding': 'aws-chunked',
      'x-amz-trailer': 'x-amz-checksum-crc32',
      'x-amz-decoded-content-length': String(data.length),
    })
    expect(put.ETag).toBe(`"${md5(data)}"`)
    const head = await user.s3.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: own('stream.bin') }),
    )
    expect(head.ContentLength).toBe(data.length)
    expect(head.ContentEncoding).toBeUndefined()
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('stream.bin') }))
    expect(md5(Buffer.from((await got.Body?.transformToByteArray()) ?? []))).toBe(md5(data))
  })

  it.each([
    ['CRC32', 'ChecksumCRC32'],
    ['CRC32C', 'ChecksumCRC32C'],
    ['CRC64NVME', 'ChecksumCRC64NVME'],
    ['SHA1', 'ChecksumSHA1'],
    ['SHA256', 'ChecksumSHA256'],
  ] as const)('verifies and echoes %s when the SDK is asked for it', async (algorithm, field) => {
    const key = own(`checksum-${algorithm}.txt`)
    const put = await user.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: key,
        Body: 'checked bytes',
        ChecksumAlgorithm: algorithm,
      }),
    )
    expect(put[field]).toBe(checksumOf(algorithm, Buffer.from('checked bytes')))
    const got = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: key, ChecksumMode: 'ENABLED' }),
    )
    expect(got[field]).toBe(put[field])
    expect(await bodyText(got.Body)).toBe('checked bytes')
  })

  it('answers conditional reads: 304 for a matching If-None-Match, 412 PreconditionFailed for a stale If-Match', async () => {
    const key = own('conditional.txt')
    const { ETag } = await user.s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'v1' }),
    )
    await expectS3Error(
      user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: key, IfNoneMatch: ETag })),
      undefined,
      304,
    )
    await expectS3Error(
      user.s3.send(
        new GetObjectCommand({
          Bucket: BUCKET,
          Key: key,
          IfMatch: '"0123456789abcdef0123456789abcdef"',
        }),
      ),
      'PreconditionFailed',
      412,
    )
    const matched = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: key, IfMatch: ETag }),
    )
    expect(await bodyText(matched.Body)).toBe('v1')
  })

  it('reads ranges, answering 416 InvalidRange beyond the end', async () => {
    await user.s3.send(
      new PutObjectCommand({ Bucket: BUCKET, Key: own('digits'), Body: '0123456789' }),
    )
    const read = async (Range: string) => {
      const answer = await user.s3.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: own('digits'), Range }),
      )
      return {
        text: await bodyText(answer.Body),
        range: answer.ContentRange,
        length: answer.ContentLength,
      }
    }
    expect(await read('bytes=2-4')).toEqual({ text: '234', range: 'bytes 2-4/10', length: 3 })
    expect(await read('bytes=7-')).toEqual({ text: '789', range: 'bytes 7-9/10', length: 3 })
    expect(await read('bytes=-2')).toEqual({ text: '89', range: 'bytes 8-9/10', length: 2 })
    expect(await read('bytes=8-100')).toEqual({ text: '89', range: 'bytes 8-9/10', length: 2 })
    await expectS3Error(
      user.s3.send(
        new GetObjectCommand({ Bucket: BUCKET, Key: own('digits'), Range: 'bytes=10-' }),
      ),
      'InvalidRange',
      416,
    )
  })

  it('reads partNumber 1 of a single-part object, and refuses part 2', async () => {
    const answer = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: own('digits'), PartNumber: 1 }),
    )
    expect(await bodyText(answer.Body)).toBe('0123456789')
    expect(answer.PartsCount).toBe(1)
    await expectS3Error(
      user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('digits'), PartNumber: 2 })),
      'InvalidPartNumber',
      416,
    )
  })

  it('applies the response-* overrides', async () => {
    const answer = await user.s3.send(
      new GetObjectCommand({
        Bucket: BUCKET,
        Key: own('digits'),
        ResponseContentType: 'application/x-digits',
        ResponseContentDisposition: 'attachment; filename="digits.txt"',
        ResponseCacheControl: 'no-store',
        ResponseContentLanguage: 'ja',
        ResponseContentEncoding: 'identity',
        ResponseExpires: new Date(Date.UTC(2030, 0, 1)),
      }),
    )
    expect(answer).toMatchObject({
      ContentType: 'application/x-digits',
      ContentDisposition: 'attachment; filename="digits.txt"',
      CacheControl: 'no-store',
      ContentLanguage: 'ja',
      ContentEncoding: 'identity',
    })
    expect(answer.Expires?.toISOString()).toBe('2030-01-01T00:00:00.000Z')
  })

  it('answers HeadObject with the headers and NotFound without a body for a missing key', async () => {
    const head = await user.s3.send(
      new HeadObjectCommand({ Bucket: BUCKET, Key: own('hello.txt') }),
    )
    expect(head).toMatchObject({
      ContentType: 'text/plain; charset=utf-8',
      Metadata: { lesson: 'one' },
    })
    const missing = await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('missing') })),
      'NotFound',
      404,
    )
    expect(missing.$metadata.requestId).toMatch(/^[0-9A-F]{16}$/)
    await expectS3Error(
      user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('missing') })),
      'NoSuchKey',
      404,
    )
  })

  it('copies with the COPY directive (metadata kept) and REPLACE (metadata from the request)', async () => {
    const copied = await user.s3.send(
      new CopyObjectCommand({
        Bucket: BUCKET,
        Key: own('copy.txt'),
        CopySource: `${BUCKET}/${own('hello.txt')}`,
      }),
    )
    expect(copied.CopyObjectResult?.ETag).toBe(`"${md5('こんにちは、S3')}"`)
    expect(
      await user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('copy.txt') })),
    ).toMatchObject({
      ContentType: 'text/plain; charset=utf-8',
      Metadata: { lesson: 'one' },
    })
    await user.s3.send(
      new CopyObjectCommand({
        Bucket: BUCKET,
        Key: own('replaced.txt'),
        CopySource: encodeURI(`${BUCKET}/${own('hello.txt')}`),
        MetadataDirective: 'REPLACE',
        ContentType: 'text/markdown',
        Metadata: { lesson: 'two' },
      }),
    )
    const replaced = await user.s3.send(
      new GetObjectCommand({ Bucket: BUCKET, Key: own('replaced.txt') }),
    )
    expect(replaced).toMatchObject({ ContentType: 'text/markdown', Metadata: { lesson: 'two' } })
    expect(await bodyText(replaced.Body)).toBe('こんにちは、S3')
    await expectS3Error(
      user.s3.send(
        new CopyObjectCommand({
          Bucket: BUCKET,
          Key: own('copy.txt'),
          CopySource: `${BUCKET}/${own('copy.txt')}`,
        }),
      ),
      'InvalidRequest',
      400,
    )
  })

  it('deletes one object (missing keys too) and several, reporting each key', async () => {
    await user.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: own('copy.txt') }))
    await user.s3.send(new DeleteObjectCommand({ Bucket: BUCKET, Key: own('never-existed') }))
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('copy.txt') })),
      'NotFound',
    )
    const answer = await user.s3.send(
      new DeleteObjectsCommand({
        Bucket: BUCKET,
        Delete: {
          Objects: [
            { Key: own('replaced.txt') },
            { Key: own('digits') },
            { Key: `private/${other.identityId}/x` },
          ],
        },
      }),
    )
    expect(answer.Deleted?.map((entry) => entry.Key).sort()).toEqual([
      own('digits'),
      own('replaced.txt'),
    ])
    expect(answer.Errors).toEqual([
      { Key: `private/${other.identityId}/x`, Code: 'AccessDenied', Message: 'Access Denied' },
    ])
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('digits') })),
      'NotFound',
    )
  })
})
