import { createHmac, createSecretKey } from 'node:crypto'
import { Readable } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { AwsChunkedDecoder } from './aws-chunked.ts'
import { checksumOf } from './checksums.ts'
import { S3Error } from './s3-error.ts'
import { signedChunkFraming, unsignedChunkFraming as unsignedFraming } from './test-support.ts'

const scope = { date: '20261123', region: 'ap-northeast-1', service: 's3' }
const datetime = '20261123T090000Z'
const key = createSecretKey(createHmac('sha256', 'a signing key').update('x').digest())
const seed = 'a'.repeat(64)
const signer = {
  key,
  datetime,
  scope: '20261123/ap-northeast-1/s3/aws4_request',
  seedSignature: seed,
}
const signedFraming = (chunks: Buffer[], trailer?: string) =>
  signedChunkFraming(signer, chunks, { trailer })

async function decode(
  framed: Buffer,
  options: { signed: boolean; trailer: boolean; decodedLength: number },
  pieceSize = 7,
): Promise<{ data: Buffer; trailer: Map<string, string> | undefined }> {
  let trailer: Map<string, string> | undefined
  const decoder = new AwsChunkedDecoder({
    signing: options.signed ? { key, datetime, scope, seedSignature: seed } : undefined,
    trailer: options.trailer,
    decodedLength: options.decodedLength,
    onTrailer: (fields) => {
      trailer = fields
    },
  })
  const pieces: Buffer[] = []
  for (let offset = 0; offset < framed.length; offset += pieceSize)
    pieces.push(framed.subarray(offset, offset + pieceSize))
  const out: Buffer[] = []
  for await (const piece of Readable.from(pieces).pipe(decoder)) out.push(piece as Buffer)
  return { data: Buffer.concat(out), trailer }
}

async function decodeError(...args: Parameters<typeof decode>): Promise<S3Error> {
  try {
    await decode(...args)
  } catch (error) {
    expect(error).toBeInstanceOf(S3Error)
    return error as S3Error
  }
  throw new Error('expected the body to be refused')
}

const body = [Buffer.from('hello, '), Buffer.from('chunked '), Buffer.from('world')]
const whole = Buffer.concat(body)
const crcTrailer = `x-amz-checksum-crc32:${checksumOf('CRC32', whole)}`

describe('aws-chunked decoding', () => {
  it('decodes signed chunks (STREAMING-AWS4-HMAC-SHA256-PAYLOAD) fed in any piece size', async () => {
    for (const pieceSize of [1, 7, 4096]) {
      const { data } = await decode(
        signedFraming(body),
        { signed: true, trailer: false, decodedLength: whole.length },
        pieceSize,
      )
      expect(data.equals(whole)).toBe(true)
    }
  })

  it('decodes signed chunks with a signed trailer and hands over its fields', async () => {
    const result = await decode(signedFraming(body, crcTrailer), {
      signed: true,
      trailer: true,
      decodedLength: whole.length,
    })
    expect(result.data.equals(whole)).toBe(true)
    expect(result.trailer?.get('x-amz-checksum-crc32')).toBe(checksumOf('CRC32', whole))
  })

  it('decodes unsigned chunks with a trailer (STREAMING-UNSIGNED-PAYLOAD-TRAILER)', async () => {
    const result = await decode(unsignedFraming(body, crcTrailer), {
      signed: false,
      trailer: true,
      decodedLength: whole.length,
    })
    expect(result.data.equals(whole)).toBe(true)
    expect(result.trailer?.get('x-amz-checksum-crc32')).toBe(checksumOf('CRC32', whole))
  })

  it('refuses a chunk whose signature does not chain from the seed', async () => {
    const framed = signedFraming(body).toString('latin1')
    const tampered = Buffer.from(framed.replace('hello', 'HELLO'), 'latin1')
    expect(
      (await decodeError(tampered, { signed: true, trailer: false, decodedLength: whole.length }))
        .code,
    ).toBe('SignatureDoesNotMatch')
    const reordered = Buffer.from(framed.replace('chunked ', 'chunkes '), 'latin1')
    expect(
      (await decodeError(reordered, { signed: true, trailer: false, decodedLength: whole.length }))
        .code,
    ).toBe('SignatureDoesNotMatch')
  })

  it('refuses a trailer changed after signing', async () => {
    const framed = signedFraming(body, crcTrailer).toString('latin1')
    const changed = Buffer.from(
      framed.replace(crcTrailer, 'x-amz-checksum-crc32:AAAAAA=='),
      'latin1',
    )
    expect(
      (await decodeError(changed, { signed: true, trailer: true, decodedLength: whole.length }))
        .code,
    ).toBe('SignatureDoesNotMatch')
  })

  it('refuses unsigned chunks where signed ones are required', async () => {
    expect(
      (
        await decodeError(unsignedFraming(body, crcTrailer), {
          signed: true,
          trailer: true,
          decodedLength: whole.length,
        })
      ).code,
    ).toBe('IncompleteSignature')
  })

  it('answers IncompleteBody for a truncated body and InvalidRequest for one longer than declared', async () => {
    const framed = unsignedFraming(body, crcTrailer)
    const truncated = framed.subarray(0, framed.length - 10)
    expect(
      (await decodeError(truncated, { signed: false, trailer: true, decodedLength: whole.length }))
        .code,
    ).toBe('IncompleteBody')
    expect(
      (await decodeError(framed, { signed: false, trailer: true, decodedLength: whole.length - 1 }))
        .code,
    ).toBe('InvalidRequest')
    expect(
      (await decodeError(framed, { signed: false, trailer: true, decodedLength: whole.length + 1 }))
        .code,
    ).toBe('IncompleteBody')
    const extra = Buffer.concat([framed, Buffer.from('5\r\nextra\r\n')])
    expect(
      (await decodeError(extra, { signed: false, trailer: true, decodedLength: whole.length }))
        .code,
    ).toBe('InvalidRequest')
  })

  it('refuses a malformed chunk size', async () => {
    const framed = Buffer.from('zz\r\nhello\r\n0\r\n\r\n')
    expect(
      (await decodeError(framed, { signed: false, trailer: true, decodedLength: 5 })).code,
    ).toBe('InvalidChunkSizeError')
  })
})
