import { createHash, type Hash, type KeyObject } from 'node:crypto'
import { Transform, type TransformCallback } from 'node:stream'
import { S3Error } from './s3-error.ts'
import {
  EMPTY_SHA256,
  type Scope,
  scopeString,
  sha256Hex,
  signaturesEqual,
  signString,
} from './sigv4.ts'

/**
 * Decodes `Content-Encoding: aws-chunked` bodies (the STREAMING-* payload hashes):
 * `hex-size[;chunk-signature=sig]\r\n data \r\n` … `0[;chunk-signature=sig]\r\n`, then trailer
 * lines `name:value\r\n` (with `x-amz-trailer-signature` when signed) and an empty line.
 * Signed chunks chain their signatures from the request's seed signature.
 */

export type ChunkSigning = {
  key: KeyObject
  datetime: string
  scope: Scope
  seedSignature: string
}

export type AwsChunkedOptions = {
  /** Present for STREAMING-AWS4-HMAC-SHA256-PAYLOAD(-TRAILER): every chunk must be signed. */
  signing: ChunkSigning | undefined
  /** Whether trailer lines follow the last chunk (the -TRAILER forms). */
  trailer: boolean
  /** x-amz-decoded-content-length. */
  decodedLength: number
  /** Receives the trailer's fields (names lowercase) once they are read and verified. */
  onTrailer?: (fields: Map<string, string>) => void
}

const MAX_LINE = 4096

export const incompleteBody = () =>
  new S3Error(
    'IncompleteBody',
    'You did not provide the number of bytes specified by the Content-Length HTTP header.',
  )
const tooLong = () =>
  new S3Error(
    'InvalidRequest',
    'The decoded body is longer than x-amz-decoded-content-length declared.',
  )
const badChunk = (message: string) => new S3Error('InvalidChunkSizeError', message)
const chunkSignatureMismatch = () =>
  new S3Error(
    'SignatureDoesNotMatch',
    'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    403,
  )

type State = 'size' | 'data' | 'data-end' | 'trailer' | 'done'

export class AwsChunkedDecoder extends Transform {
  private readonly options: AwsChunkedOptions
  private pending: Buffer = Buffer.alloc(0)
  private state: State = 'size'
  private remaining = 0
  private chunkSignature = ''
  private chunkHash: Hash | undefined
  private previousSignature: string
  private decoded = 0
  private readonly trailerFields = new Map<string, string>()
  private readonly trailerLines: string[] = []

  constructor(options: AwsChunkedOptions) {
    super()
    this.options = options
    this.previousSignature = options.signing?.seedSignature ?? ''
  }

  override _transform(data: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      this.pending = this.pending.length ? Buffer.concat([this.pending, data]) : data
      this.consume()
      callback()
    } catch (error) {
      callback(error as Error)
    }
  }

  override _flush(callback: TransformCallback): void {
    const complete = this.state === 'done' && this.decoded === this.options.decodedLength
    callback(complete ? null : incompleteBody())
  }

  private consume(): void {
    while (this.pending.length > 0) {
      if (this.state === 'done') throw tooLong()
      if (this.state === 'data') {
        const take = Math.min(this.remaining, this.pending.length)
        const piece = this.pending.subarray(0, take)
        this.pending = this.pending.subarray(take)
        this.remaining -= take
        this.decoded += take
        if (this.decoded > this.options.decodedLength) throw tooLong()
        this.chunkHash?.update(piece)
        this.push(piece)
        if (this.remaining === 0) this.state = 'data-end'
        continue
      }
      if (this.state === 'data-end') {
        if (this.pending.length < 2) return
        if (this.pending[0] !== 0x0d || this.pending[1] !== 0x0a) {
          throw badChunk('Chunk data is not followed by CRLF.')
        }
        this.pending = this.pending.subarray(2)
        this.verifyChunk(this.chunkHash?.digest('hex') ?? '')
        this.state = 'size'
        continue
      }
      const line = this.takeLine()
      if (line === undefined) return
      if (this.state === 'size') this.readSizeLine(line)
      else this.readTrailerLine(line)
    }
  }

  private takeLine(): string | undefined {
    const end = this.pending.indexOf('\r\n')
    if (end < 0) {
      if (this.pending.length > MAX_LINE)
        throw badChunk('A chunk header or trailer line is too long.')
      return undefined
    }
    const line = this.pending.subarray(0, end).toString('latin1')
    this.pending = this.pending.subarray(end + 2)
    return line
  }

  private readSizeLine(line: string): void {
    const [sizeText = '', ...extensions] = line.split(';')
    if (!/^[0-9a-fA-F]{1,16}$/.test(sizeText)) throw badChunk(`Invalid chunk size: "${sizeText}".`)
    const size = Number.parseInt(sizeText, 16)
    const signature = extensions
      .map((extension) => /^chunk-signature=([0-9a-f]{64})$/.exec(extension)?.[1])
      .find(Boolean)
    if (this.options.signing && !signature) {
      throw new S3Error('IncompleteSignature', 'A signed chunk has no chunk-signature.', 403)
    }
    this.chunkSignature = signature ?? ''
    if (size > 0) {
      if (this.decoded + size > this.options.decodedLength) throw tooLong()
      this.remaining = size
      this.chunkHash = this.options.signing ? createHash('sha256') : undefined
      this.state = 'data'
      return
    }
    this.verifyChunk(EMPTY_SHA256)
    this.state = 'trailer'
  }

  private verifyChunk(dataHash: string): void {
    const signing = this.options.signing
    if (!signing) return
    const toSign = [
      'AWS4-HMAC-SHA256-PAYLOAD',
      signing.datetime,
      scopeString(signing.scope),
      this.previousSignature,
      EMPTY_SHA256,
      dataHash,
    ].join('\n')
    const expected = signString(signing.key, toSign)
    if (!signaturesEqual(expected, this.chunkSignature)) throw chunkSignatureMismatch()
    this.previousSignature = expected
  }

  private readTrailerLine(line: string): void {
    if (line === '') {
      this.finishTrailer()
      return
    }
    if (!this.options.trailer) throw badChunk('The final chunk must be followed by an empty line.')
    const colon = line.indexOf(':')
    if (colon <= 0)
      throw new S3Error(
        'MalformedTrailerError',
        'The request contained trailing data that was not well-formed or did not conform to our published schema.',
      )
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    if (name === 'x-amz-trailer-signature') {
      this.verifyTrailer(value)
      return
    }
    this.trailerFields.set(name, value)
    this.trailerLines.push(`${name}:${value}\n`)
  }

  private verifyTrailer(signature: string): void {
    const signing = this.options.signing
    if (!signing) return
    const toSign = [
      'AWS4-HMAC-SHA256-TRAILER',
      signing.datetime,
      scopeString(signing.scope),
      this.previousSignature,
      sha256Hex(this.trailerLines.join('')),
    ].join('\n')
    if (!signaturesEqual(signString(signing.key, toSign), signature)) throw chunkSignatureMismatch()
    this.previousSignature = signature
    this.trailerSigned = true
  }

  private trailerSigned = false

  private finishTrailer(): void {
    if (this.options.trailer && this.options.signing && !this.trailerSigned) {
      throw new S3Error(
        'IncompleteSignature',
        'The signed trailer has no x-amz-trailer-signature.',
        403,
      )
    }
    this.options.onTrailer?.(this.trailerFields)
    this.state = 'done'
  }
}
