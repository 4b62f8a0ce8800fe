import { createHash, type Hash, type KeyObject } from 'node:crypto'
import type { IncomingMessage } from 'node:http'
import { Transform, type TransformCallback } from 'node:stream'
import { AwsChunkedDecoder, type ChunkSigning, incompleteBody } from './aws-chunked.ts'
import type { ChecksumAlgorithm, IncomingBody, StoredChecksum } from './backends/object-store.ts'
import {
  algorithmOfHeader,
  badDigest,
  CHECKSUM_ALGORITHMS,
  type Checksummer,
  checksumHeader,
  createChecksummer,
  isChecksumValue,
} from './checksums.ts'
import { S3Error } from './s3-error.ts'
import type { SignedRequest } from './sigv4.ts'

/**
 * Turns a request's body into the verified stream a store reads: aws-chunked framing removed
 * (chunk signatures checked), and at its end the length, x-amz-content-sha256, Content-MD5 and
 * x-amz-checksum-* (header or trailer) compared with what arrived. Any mismatch errors the
 * stream with the S3 error, so the store keeps nothing.
 */

export type PayloadAuth = { signed: SignedRequest | undefined; key: KeyObject | undefined }

const STREAMING_SIGNED = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD'
const STREAMING_SIGNED_TRAILER = 'STREAMING-AWS4-HMAC-SHA256-PAYLOAD-TRAILER'
const STREAMING_UNSIGNED_TRAILER = 'STREAMING-UNSIGNED-PAYLOAD-TRAILER'

type ExpectedChecksum =
  | { algorithm: ChecksumAlgorithm; from: 'header'; value: string }
  | { algorithm: ChecksumAlgorithm; from: 'trailer' }

const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}

const invalidArgument = (message: string, name: string, value: string) =>
  new S3Error('InvalidArgument', message, 400, { ArgumentName: name, ArgumentValue: value })

/** The declared size of the object the body carries (decoded length for aws-chunked). */
export function declaredLength(request: IncomingMessage): number {
  const chunked = isAwsChunked(request)
  const text = header(request, chunked ? 'x-amz-decoded-content-length' : 'content-length')
  if (text === undefined) {
    throw new S3Error(
      'MissingContentLength',
      'You must provide the Content-Length HTTP header.',
      411,
    )
  }
  if (!/^\d{1,16}$/.test(text)) {
    throw invalidArgument(
      `${chunked ? 'x-amz-decoded-content-length' : 'Content-Length'} is not a valid number`,
      chunked ? 'x-amz-decoded-content-length' : 'Content-Length',
      text,
    )
  }
  return Number(text)
}

/** S3's limit for one PUT and for one part. */
export const MAX_UPLOAD_BYTES = 5 * 1024 ** 3

export function checkDeclaredSize(request: IncomingMessage): void {
  const length = declaredLength(request)
  if (length > MAX_UPLOAD_BYTES) {
    throw new S3Error(
      'EntityTooLarge',
      'Your proposed upload exceeds the maximum allowed size',
      400,
      {
        ProposedSize: String(length),
        MaxSizeAllowed: String(MAX_UPLOAD_BYTES),
      },
    )
  }
}

function isAwsChunked(request: IncomingMessage): boolean {
  const payloadHash = header(request, 'x-amz-content-sha256') ?? ''
  return payloadHash.startsWith('STREAMING-')
}

function expectedChecksum(request: IncomingMessage): ExpectedChecksum | undefined {
  const present = CHECKSUM_ALGORITHMS.filter((algorithm) =>
    header(request, checksumHeader(algorithm)),
  )
  const trailer = header(request, 'x-amz-trailer')
  if (present.length + (trailer ? 1 : 0) > 1) {
    throw new S3Error(
      'InvalidRequest',
      'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.',
    )
  }
  const [algorithm] = present
  if (algorithm) {
    const value = header(request, checksumHeader(algorithm)) ?? ''
    if (!isChecksumValue(algorithm, value)) {
      throw new S3Error(
        'InvalidRequest',
        `Value for ${checksumHeader(algorithm)} header is invalid.`,
      )
    }
    return { algorithm, from: 'header', value }
  }
  if (trailer) {
    const fromTrailer = algorithmOfHeader(trailer.trim())
    if (!fromTrailer) {
      throw new S3Error(
        'InvalidRequest',
        `The value specified in the x-amz-trailer header is not supported`,
      )
    }
    return { algorithm: fromTrailer, from: 'trailer' }
  }
  return undefined
}

function expectedMd5(request: IncomingMessage): Buffer | undefined {
  const value = header(request, 'content-md5')
  if (value === undefined) return undefined
  const md5 = Buffer.from(value, 'base64')
  if (md5.length !== 16 || md5.toString('base64') !== value) {
    throw new S3Error('InvalidDigest', 'The Content-MD5 you specified was invalid.')
  }
  return md5
}

/**
 * The verified body. `checksumOfBody` false: the `x-amz-checksum-*` headers describe something
 * else (at CompleteMultipartUpload, the object), so they are not checked against these bytes.
 */
export function incomingBody(
  request: IncomingMessage,
  auth: PayloadAuth,
  checksumOfBody = true,
): IncomingBody {
  // Long by design: one pipeline of checks (length, hash, checksum, MD5) sharing their result.
  const length = declaredLength(request)
  const payloadHash = auth.signed?.payloadHash ?? 'UNSIGNED-PAYLOAD'
  const checksum = checksumOfBody ? expectedChecksum(request) : undefined
  const md5 = expectedMd5(request)
  let trailerValue: string | undefined
  let verified: StoredChecksum | undefined

  const stages: Transform[] = []
  if (payloadHash.startsWith('STREAMING-')) {
    const signed = payloadHash === STREAMING_SIGNED || payloadHash === STREAMING_SIGNED_TRAILER
    if (!signed && payloadHash !== STREAMING_UNSIGNED_TRAILER) {
      throw new S3Error(
        'NotImplemented',
        `The payload hash ${payloadHash} is not supported here.`,
        501,
      )
    }
    if (payloadHash !== STREAMING_SIGNED && checksum?.from !== 'trailer') {
      throw new S3Error(
        'InvalidRequest',
        'A trailing payload needs an x-amz-trailer header naming the checksum.',
      )
    }
    if (signed && (!auth.signed || !auth.key || auth.signed.kind !== 'header')) {
      throw new S3Error(
        'InvalidRequest',
        'Signed chunks need a request signed in the Authorization header.',
      )
    }
    const signing: ChunkSigning | undefined =
      signed && auth.signed && auth.key
        ? {
            key: auth.key,
            datetime: auth.signed.datetime,
            scope: auth.signed.scope,
            seedSignature: auth.signed.signature,
          }
        : undefined
    stages.push(
      new AwsChunkedDecoder({
        signing,
        trailer: payloadHash !== STREAMING_SIGNED,
        decodedLength: length,
        onTrailer: (fields) => {
          trailerValue = checksum ? fields.get(checksumHeader(checksum.algorithm)) : undefined
        },
      }),
    )
  } else if (payloadHash !== 'UNSIGNED-PAYLOAD' && !/^[0-9a-f]{64}$/.test(payloadHash)) {
    throw new S3Error(
      'InvalidArgument',
      'x-amz-content-sha256 must be UNSIGNED-PAYLOAD, STREAMING-… or a SHA-256 hex digest',
      400,
      {
        ArgumentName: 'x-amz-content-sha256',
        ArgumentValue: payloadHash,
      },
    )
  }

  stages.push(
    new VerifyingStream({
      length,
      sha256: /^[0-9a-f]{64}$/.test(payloadHash) ? payloadHash : undefined,
      md5,
      checksum: checksum?.algorithm,
      onEnd: (digest) => {
        if (!checksum || !digest) return
        const value = checksum.from === 'header' ? checksum.value : trailerValue
        if (value === undefined) {
          throw new S3Error(
            'InvalidRequest',
            `The trailer did not carry ${checksumHeader(checksum.algorithm)}.`,
          )
        }
        if (!isChecksumValue(checksum.algorithm, value) || value !== digest)
          throw badDigest(checksum.algorithm)
        verified = { algorithm: checksum.algorithm, value, type: 'FULL_OBJECT' }
      },
    }),
  )
  return { stream: chain(request, stages), checksum: () => verified }
}

/**
 * Pipes the request through the stages, passing errors downstream. Unlike `pipeline`, a failing
 * stage does not destroy the request: its socket must still carry the error answer.
 */
function chain(request: IncomingMessage, stages: Transform[]): Transform {
  let upstream: NodeJS.ReadableStream = request
  for (const stage of stages) {
    upstream.pipe(stage)
    upstream = stage
  }
  const last = stages[stages.length - 1] as Transform
  const fail = (error: Error) => {
    request.unpipe()
    for (const stage of stages) if (!stage.destroyed) stage.destroy(error)
  }
  // The verdict can come before the store starts reading (a small body ends while the store
  // still checks the bucket): the stream keeps the error for its reader, so this listener only
  // keeps an early 'error' event from counting as unhandled.
  last.on('error', () => {})
  request.once('aborted', () => fail(incompleteBody()))
  request.once('error', () => fail(incompleteBody()))
  for (const stage of stages.slice(0, -1)) stage.once('error', fail)
  return last
}

/** The whole body of a small request (the XML of Complete and DeleteObjects), verified. */
export async function readSmallBody(
  request: IncomingMessage,
  auth: PayloadAuth,
  limit: number,
  checksumOfBody = true,
): Promise<{ data: Buffer; checksum: StoredChecksum | undefined }> {
  const length = declaredLength(request)
  if (length > limit) {
    throw new S3Error('MaxMessageLengthExceeded', 'Your request was too big.')
  }
  const body = incomingBody(request, auth, checksumOfBody)
  const pieces: Buffer[] = []
  for await (const piece of body.stream) pieces.push(piece as Buffer)
  return { data: Buffer.concat(pieces), checksum: body.checksum() }
}

type VerifyOptions = {
  length: number
  sha256: string | undefined
  md5: Buffer | undefined
  checksum: ChecksumAlgorithm | undefined
  /** Called at the end with the computed checksum (base64); throws an S3Error on mismatch. */
  onEnd: (digest: string | undefined) => void
}

class VerifyingStream extends Transform {
  private readonly options: VerifyOptions
  private received = 0
  private readonly sha256: Hash | undefined
  private readonly md5: Hash | undefined
  private readonly checksummer: Checksummer | undefined

  constructor(options: VerifyOptions) {
    super()
    this.options = options
    this.sha256 = options.sha256 ? createHash('sha256') : undefined
    this.md5 = options.md5 ? createHash('md5') : undefined
    this.checksummer = options.checksum ? createChecksummer(options.checksum) : undefined
  }

  override _transform(data: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.received += data.length
    if (this.received > this.options.length) {
      callback(new S3Error('InvalidRequest', 'The body is longer than its declared length.'))
      return
    }
    this.sha256?.update(data)
    this.md5?.update(data)
    this.checksummer?.update(data)
    callback(null, data)
  }

  override _flush(callback: TransformCallback): void {
    try {
      if (this.received !== this.options.length) throw incompleteBody()
      if (this.sha256 && this.sha256.digest('hex') !== this.options.sha256) {
        throw new S3Error(
          'XAmzContentSHA256Mismatch',
          "The provided 'x-amz-content-sha256' header does not match what was computed.",
        )
      }
      if (this.md5 && this.options.md5 && !this.md5.digest().equals(this.options.md5)) {
        throw new S3Error(
          'BadDigest',
          'The Content-MD5 you specified did not match what we received.',
        )
      }
      this.options.onEnd(this.checksummer?.digest().toString('base64'))
      callback()
    } catch (error) {
      callback(error as Error)
    }
  }
}
