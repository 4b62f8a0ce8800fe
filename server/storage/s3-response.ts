import { randomFillSync } from 'node:crypto'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { CHECKSUM_ALGORITHMS, checksumHeader } from './checksums.ts'
import { S3Error } from './s3-error.ts'
import { type XmlElement, xmlDocument } from './xml.ts'

/** Request ids, the error document, XML answers and CORS: what every /s3 answer carries. */

export type RequestIds = { requestId: string; hostId: string }

const ID_BYTES = 8 + 24
// Random bytes drawn for 256 requests at once: two calls per request were 2% of the main
// thread's time in the 4 KiB rows of bench/s3.ts.
const randomPool = Buffer.alloc(ID_BYTES * 256)
let randomOffset = randomPool.length

export function newRequestIds(): RequestIds {
  if (randomOffset === randomPool.length) {
    randomFillSync(randomPool)
    randomOffset = 0
  }
  const start = randomOffset
  randomOffset += ID_BYTES
  return {
    requestId: randomPool.toString('hex', start, start + 8).toUpperCase(),
    hostId: randomPool.toString('base64', start + 8, start + ID_BYTES),
  }
}

/**
 * What keeps stored bytes from running as the site (docs/decisions/019): every answer is a
 * sandboxed document that may load nothing, whatever type its uploader declared.
 */
export function protectBrowsers(reply: FastifyReply) {
  reply.header('content-security-policy', "sandbox; default-src 'none'")
  reply.header('x-content-type-options', 'nosniff')
}

/** Types a browser shows without running anything: pictures (not SVG), sound, video, PDF, text. */
const INLINE_TYPE =
  /^(image\/(png|jpeg|gif|webp|avif|apng|bmp)|audio\/[\w.+-]+|video\/[\w.+-]+|application\/pdf|text\/plain)$/

export function rendersInline(contentType: string | undefined): boolean {
  const mediaType = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
  return INLINE_TYPE.test(mediaType)
}

/**
 * An object's answer: every other type (HTML, SVG, XML, scripts, unknown) is a download, also
 * when the stored Content-Disposition or a `response-*` override asked for inline. A
 * disposition that already says attachment is kept, with the file name it gives.
 */
export function downloadUnlessInline(reply: FastifyReply) {
  const type = reply.getHeader('content-type')
  if (rendersInline(typeof type === 'string' ? type : undefined)) return
  const disposition = reply.getHeader('content-disposition')
  if (typeof disposition === 'string' && /^\s*attachment\s*(;|$)/i.test(disposition)) return
  reply.header('content-disposition', 'attachment')
}

export function sendXml(reply: FastifyReply, root: string, content: XmlElement, status = 200) {
  return reply.code(status).type('application/xml').send(xmlDocument(root, content))
}

/** S3's error document; HEAD answers carry the status and headers only, as S3's do. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  error: S3Error,
  ids: RequestIds,
) {
  reply.code(error.status)
  if (request.method === 'HEAD' || error.status === 304) return reply.send()
  const body = xmlDocument(
    'Error',
    {
      Code: error.code,
      Message: error.message,
      ...error.details,
      RequestId: ids.requestId,
      HostId: ids.hostId,
    },
    false,
  )
  return reply.type('application/xml').send(body)
}

export const internalError = () =>
  new S3Error('InternalError', 'We encountered an internal error. Please try again.', 500)

/** What browser code may read: lib-storage needs ETag, the SDK the checksums and ids. */
const EXPOSED_HEADERS = [
  'ETag',
  'Content-Length',
  'Content-Range',
  'Content-Type',
  'Content-Disposition',
  'Content-Encoding',
  'Content-Language',
  'Cache-Control',
  'Expires',
  'Last-Modified',
  'Accept-Ranges',
  ...CHECKSUM_ALGORITHMS.map(checksumHeader),
  'x-amz-checksum-type',
  'x-amz-version-id',
  'x-amz-delete-marker',
  'x-amz-mp-parts-count',
  'x-amz-request-id',
  'x-amz-id-2',
  'x-amz-server-side-encryption',
].join(', ')

const ALLOWED_METHODS = 'GET, PUT, POST, DELETE, HEAD'

/**
 * CORS for every origin, answered before authentication: requests are authorised by their
 * signatures, never by cookies, so no origin gains anything a signature does not grant.
 */
export function applyCors(request: FastifyRequest, reply: FastifyReply): boolean {
  const origin = request.headers.origin
  if (!origin) return false
  reply.header('access-control-allow-origin', origin)
  reply.header('vary', 'Origin')
  reply.header('access-control-expose-headers', EXPOSED_HEADERS)
  if (request.method !== 'OPTIONS') return false
  const method = request.headers['access-control-request-method']
  if (!method) return false
  reply.header('access-control-allow-methods', ALLOWED_METHODS)
  const headers = request.headers['access-control-request-headers']
  if (headers) reply.header('access-control-allow-headers', headers)
  reply.header('access-control-max-age', '3000')
  return true
}
