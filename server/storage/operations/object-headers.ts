import type { FastifyReply } from 'fastify'
import type {
  NewObject,
  ObjectHeaders,
  ObjectInfo,
  StoredChecksum,
} from '#server/storage/backends/object-store.ts'
import { checksumHeader } from '#server/storage/checksums.ts'
import { S3Error } from '#server/storage/s3-error.ts'
import { header, type S3Context } from './context.ts'

/** The stored headers and `x-amz-meta-*` of objects: read from requests, written to answers. */

const MAX_METADATA_BYTES = 2048

const STORED_HEADERS: [keyof ObjectHeaders, string][] = [
  ['contentType', 'content-type'],
  ['contentEncoding', 'content-encoding'],
  ['contentDisposition', 'content-disposition'],
  ['contentLanguage', 'content-language'],
  ['cacheControl', 'cache-control'],
  ['expires', 'expires'],
]

export function newObjectFrom(context: S3Context, owner: string): NewObject {
  const headers: ObjectHeaders = {}
  for (const [field, name] of STORED_HEADERS) {
    let value = header(context, name)
    // aws-chunked is how this request travelled, not how the object is encoded.
    if (name === 'content-encoding' && value !== undefined) {
      value = value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part && part !== 'aws-chunked')
        .join(',')
    }
    if (value) headers[field] = value
  }
  const metadata: Record<string, string> = {}
  let size = 0
  for (const [name, value] of Object.entries(context.request.headers)) {
    if (!name.startsWith('x-amz-meta-') || value === undefined) continue
    const text = Array.isArray(value) ? value.join(',') : value
    metadata[name.slice('x-amz-meta-'.length)] = text
    size += Buffer.byteLength(name.slice('x-amz-meta-'.length)) + Buffer.byteLength(text)
  }
  if (size > MAX_METADATA_BYTES) {
    throw new S3Error(
      'MetadataTooLarge',
      'Your metadata headers exceed the maximum allowed metadata size.',
      400,
      { Size: String(size), MaxSizeAllowed: String(MAX_METADATA_BYTES) },
    )
  }
  return { headers, metadata, owner }
}

export function writeChecksumHeaders(reply: FastifyReply, checksum: StoredChecksum | undefined) {
  if (!checksum) return
  reply.header(checksumHeader(checksum.algorithm), checksum.value)
  reply.header('x-amz-checksum-type', checksum.type)
}

/** A 304's headers: the validators and the caching headers stored with the object. */
export function writeValidatorHeaders(reply: FastifyReply, info: ObjectInfo) {
  reply.header('etag', info.etag)
  reply.header('last-modified', info.lastModified.toUTCString())
  if (info.headers.cacheControl !== undefined)
    reply.header('cache-control', info.headers.cacheControl)
  if (info.headers.expires !== undefined) reply.header('expires', info.headers.expires)
}

/** GET and HEAD: the object's headers, metadata and ETag. */
export function writeObjectHeaders(reply: FastifyReply, info: ObjectInfo) {
  reply.header('etag', info.etag)
  reply.header('last-modified', info.lastModified.toUTCString())
  reply.header('accept-ranges', 'bytes')
  reply.header('content-type', info.headers.contentType ?? 'binary/octet-stream')
  for (const [field, name] of STORED_HEADERS) {
    const value = info.headers[field]
    if (value !== undefined && field !== 'contentType') reply.header(name, value)
  }
  for (const [name, value] of Object.entries(info.metadata))
    reply.header(`x-amz-meta-${name}`, value)
}

const ENCRYPTION = 'x-amz-server-side-encryption'
const ENCRYPTION_METHODS = ['AES256', 'aws:kms', 'aws:kms:dsse']
const CUSTOMER_KEY = ['algorithm', 'key', 'key-md5']
const ENCRYPTION_OPTIONS = [
  ENCRYPTION,
  `${ENCRYPTION}-aws-kms-key-id`,
  `${ENCRYPTION}-context`,
  `${ENCRYPTION}-bucket-key-enabled`,
  ...CUSTOMER_KEY.map((part) => `${ENCRYPTION}-customer-${part}`),
]

/**
 * A write's encryption options (seed §7). This endpoint keeps bytes as they came (encrypting the
 * disk is the deployment's part), so a write that asks for server-side encryption is refused with
 * S3's NotImplemented rather than stored unencrypted against the client's wish.
 */
export function refuseEncryptionOptions(context: S3Context): void {
  const method = header(context, ENCRYPTION)
  if (method !== undefined && !ENCRYPTION_METHODS.includes(method)) {
    throw new S3Error('InvalidArgument', 'The encryption method specified is not supported', 400, {
      ArgumentName: ENCRYPTION,
      ArgumentValue: method,
    })
  }
  const asked = ENCRYPTION_OPTIONS.find((name) => header(context, name) !== undefined)
  if (asked) {
    throw new S3Error(
      'NotImplemented',
      'A header you provided implies functionality that is not implemented',
      501,
      { Header: asked },
    )
  }
}

/**
 * Customer-key parameters (SSE-C) where an object is read: on GET and HEAD, on an upload's parts,
 * or (`x-amz-copy-source-…`) on a copy's source. No object here was written with such a key.
 */
export function refuseCustomerKey(context: S3Context, forCopySource = false): void {
  const prefix = forCopySource ? 'x-amz-copy-source-server-side-encryption' : ENCRYPTION
  if (CUSTOMER_KEY.some((part) => header(context, `${prefix}-customer-${part}`) !== undefined)) {
    throw new S3Error(
      'InvalidRequest',
      'The encryption parameters are not applicable to this object.',
    )
  }
}

/** GetObject's `response-*` parameters: the headers they override. */
export const RESPONSE_OVERRIDES: [string, string][] = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
]
