import type { FastifyReply } from 'fastify'
import type {
  NewObject,
  ObjectHeaders,
  ObjectInfo,
  StoredChecksum,
} from '../backends/object-store.ts'
import { checksumHeader } from '../checksums.ts'
import { S3Error } from '../s3-error.ts'
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

/** GetObject's `response-*` parameters: the headers they override. */
export const RESPONSE_OVERRIDES: [string, string][] = [
  ['response-content-type', 'content-type'],
  ['response-content-language', 'content-language'],
  ['response-expires', 'expires'],
  ['response-cache-control', 'cache-control'],
  ['response-content-disposition', 'content-disposition'],
  ['response-content-encoding', 'content-encoding'],
]
