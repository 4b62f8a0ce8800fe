import { createHmac } from 'node:crypto'
import { GetObjectCommand, HeadObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checksumOf } from '#server/storage/checksums.ts'
import { signedChunkFraming } from '#server/storage/test-support.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import {
  BUCKET,
  expectS3Error,
  type Person,
  REGION,
  signedInUser,
  signRequest,
  startStorageServer,
} from './support.ts'

/**
 * STREAMING-AWS4-HMAC-SHA256-PAYLOAD(-TRAILER), which SDK v3 does not send by default but other
 * S3 clients do: each chunk signed, chained from the request's signature (AWS's documented format).
 */

let server: TestServer
let user: Person

beforeAll(async () => {
  server = await startStorageServer()
  user = await signedInUser(server)
})
afterAll(async () => {
  await server?.close()
})

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest()

async function putSignedChunks(
  key: string,
  chunks: Buffer[],
  options: { trailer: boolean; tamper?: boolean },
) {
  const decoded = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const payloadHash = options.trailer
    ? 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER'
    : 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD'
  const { url, headers } = await signRequest(server, {
    method: 'PUT',
    path: `/${BUCKET}/${key.split('/').map(encodeURIComponent).join('/')}`,
    payloadHash,
    headers: {
      'content-encoding': 'aws-chunked',
      'x-amz-decoded-content-length': String(decoded),
      ...(options.trailer ? { 'x-amz-trailer': 'x-amz-checksum-crc32' } : {}),
    },
    credentials: user.credentials,
  })
  const datetime = headers['x-amz-date'] ?? ''
  const date = datetime.slice(0, 8)
  const signer = {
    key: hmac(
      hmac(hmac(hmac(`AWS4${user.credentials.secretAccessKey}`, date), REGION), 's3'),
      'aws4_request',
    ),
    datetime,
    scope: `${date}/${REGION}/s3/aws4_request`,
    seedSignature: /Signature=([0-9a-f]{64})/.exec(headers.authorization ?? '')?.[1] ?? '',
  }
  const trailer = options.trailer
    ? `x-amz-checksum-crc32:${checksumOf('CRC32', Buffer.concat(chunks))}`
    : undefined
  const body = signedChunkFraming(signer, chunks, { trailer, tamper: options.tamper })
  const { host: _, ...sendable } = headers
  const response = await fetch(url, {
    method: 'PUT',
    headers: { ...sendable, 'content-length': String(body.length) },
    body: new Uint8Array(body),
  })
  const text = await response.text()
  return {
    status: response.status,
    code: /<Code>(\w+)<\/Code>/.exec(text)?.[1],
    checksum: response.headers.get('x-amz-checksum-crc32'),
  }
}

const chunks = [Buffer.alloc(70_000, 'a'), Buffer.alloc(70_000, 'b'), Buffer.from('the end')]
const own = (name: string) => `private/${user.identityId}/${name}`

describe('signed aws-chunked uploads', () => {
  it('stores the decoded bytes of signed chunks', async () => {
    expect(await putSignedChunks(own('signed.bin'), chunks, { trailer: false })).toMatchObject({
      status: 200,
    })
    const got = await user.s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: own('signed.bin') }))
    expect(
      Buffer.from((await got.Body?.transformToByteArray()) ?? []).equals(Buffer.concat(chunks)),
    ).toBe(true)
  })

  it('stores signed chunks with a signed checksum trailer, and echoes the checksum', async () => {
    const answer = await putSignedChunks(own('trailer.bin'), chunks, { trailer: true })
    expect(answer).toEqual({
      status: 200,
      code: undefined,
      checksum: checksumOf('CRC32', Buffer.concat(chunks)),
    })
  })

  it('answers SignatureDoesNotMatch for a chunk changed in transit, storing nothing', async () => {
    const answer = await putSignedChunks(own('tampered.bin'), chunks, {
      trailer: true,
      tamper: true,
    })
    expect([answer.status, answer.code]).toEqual([403, 'SignatureDoesNotMatch'])
    await expectS3Error(
      user.s3.send(new HeadObjectCommand({ Bucket: BUCKET, Key: own('tampered.bin') })),
      'NotFound',
      404,
    )
  })
})
