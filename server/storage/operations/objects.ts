import { ownerOf } from '#server/storage/access-policy.ts'
import type { ObjectInfo } from '#server/storage/backends/object-store.ts'
import { checkDeclaredSize, incomingBody } from '#server/storage/payload.ts'
import { noSuchKey, S3Error } from '#server/storage/s3-error.ts'
import { checkBucketName, checkKey } from '#server/storage/s3-request.ts'
import { downloadUnlessInline, sendXml } from '#server/storage/s3-response.ts'
import { authorize, callerOwner, header, type ObjectContext } from './context.ts'
import {
  newObjectFrom,
  RESPONSE_OVERRIDES,
  refuseCustomerKey,
  refuseEncryptionOptions,
  writeChecksumHeaders,
  writeObjectHeaders,
  writeValidatorHeaders,
} from './object-headers.ts'
import { checkWriteCondition, writeCondition } from './write-conditions.ts'

export async function putObject(context: ObjectContext) {
  const { bucket, key, store, reply } = context
  await authorize(context, 'write', key)
  checkDeclaredSize(context.request.raw)
  refuseEncryptionOptions(context)
  const condition = writeCondition(context)
  await checkWriteCondition(context, condition)
  const object = newObjectFrom(context, callerOwner(context))
  const body = incomingBody(context.request.raw, context.auth)
  const info = await store.putObject(bucket, key, body, object, condition)
  reply.header('etag', info.etag)
  writeChecksumHeaders(reply, body.checksum())
  return reply.code(200).send()
}

export async function headObject(context: ObjectContext) {
  return getObject(context, true)
}

type ByteRange = { start: number; end: number }

/** GetObject (and HeadObject): Range, partNumber, response-* overrides and conditions. */
export async function getObject(context: ObjectContext, headOnly = false) {
  const { bucket, key, store, reply, query } = context
  await authorize(context, 'read', key)
  checkVersionId(query.get('versionId'))
  refuseCustomerKey(context)
  const overrides = RESPONSE_OVERRIDES.filter(([parameter]) => query.has(parameter))
  if (overrides.length > 0 && context.caller.kind === 'anonymous') {
    throw new S3Error(
      'InvalidRequest',
      'Request specific response headers cannot be used for anonymous GET requests.',
    )
  }
  const opened = headOnly ? undefined : await store.openObject(bucket, key)
  const object = headOnly ? await store.headObject(bucket, key) : opened?.info
  if (!object) throw noSuchKey(key)
  try {
    checkConditions(context, object)
    const range = selectedRange(context, object)
    writeObjectHeaders(reply, object)
    for (const [parameter, name] of overrides) reply.header(name, query.get(parameter))
    downloadUnlessInline(reply)
    const whole = range === undefined
    if (!whole) {
      reply.code(206)
      reply.header('content-range', `bytes ${range.start}-${range.end}/${object.size}`)
    }
    if (query.has('partNumber'))
      reply.header('x-amz-mp-parts-count', String(object.partSizes?.length ?? 1))
    if (whole && header(context, 'x-amz-checksum-mode') === 'ENABLED')
      writeChecksumHeaders(reply, object.checksum)
    const length = whole ? object.size : range.end - range.start + 1
    reply.header('content-length', String(length))
    if (!opened) return reply.send()
    // 'finish' comes once the socket has taken every byte: the chunks are no longer needed.
    const released = new Promise<boolean>((resolve) => {
      reply.raw.once('finish', () => resolve(true))
      reply.raw.once('close', () => resolve(false))
    })
    return reply.send(opened.read(whole ? undefined : range, released))
  } catch (error) {
    opened?.read().destroy()
    throw error
  }
}

export function checkVersionId(versionId: string | undefined) {
  if (versionId !== undefined && versionId !== 'null') {
    throw new S3Error('InvalidArgument', 'Invalid version id specified', 400, {
      ArgumentName: 'versionId',
      ArgumentValue: versionId,
    })
  }
}

const etagMatches = (list: string, etag: string) =>
  list.split(',').some((item) => {
    const candidate = item.trim()
    return candidate === '*' || candidate === etag || `"${candidate}"` === etag
  })

function checkConditions(context: ObjectContext, object: ObjectInfo) {
  const ifMatch = header(context, 'if-match')
  const ifNoneMatch = header(context, 'if-none-match')
  const ifModifiedSince = header(context, 'if-modified-since')
  const ifUnmodifiedSince = header(context, 'if-unmodified-since')
  const modified = Math.floor(object.lastModified.getTime() / 1000) * 1000
  const failed = () =>
    new S3Error(
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
      412,
      { Condition: 'If-Match' },
    )
  if (ifMatch !== undefined && !etagMatches(ifMatch, object.etag)) throw failed()
  if (ifMatch === undefined && ifUnmodifiedSince && modified > Date.parse(ifUnmodifiedSince))
    throw failed()
  // A 304 carries what a cache needs to refresh its copy (RFC 9110 §15.4.5), as S3's does.
  const notModified = () => {
    writeValidatorHeaders(context.reply, object)
    return new S3Error('NotModified', 'Not Modified', 304)
  }
  if (ifNoneMatch !== undefined && etagMatches(ifNoneMatch, object.etag)) throw notModified()
  if (ifNoneMatch === undefined && ifModifiedSince && modified <= Date.parse(ifModifiedSince))
    throw notModified()
}

/** The bytes asked for, or undefined for the whole object (a Range S3 cannot parse is ignored). */
function selectedRange(context: ObjectContext, object: ObjectInfo): ByteRange | undefined {
  const rangeHeader = header(context, 'range')
  const partNumber = context.query.get('partNumber')
  if (partNumber !== undefined) {
    if (rangeHeader)
      throw new S3Error(
        'InvalidRequest',
        'Cannot specify both Range header and partNumber query parameter',
      )
    const parts = object.partSizes ?? [object.size]
    const number = /^\d{1,5}$/.test(partNumber) ? Number(partNumber) : 0
    if (number < 1 || number > 10_000) {
      throw new S3Error(
        'InvalidArgument',
        'Part number must be an integer between 1 and 10000, inclusive',
        400,
        {
          ArgumentName: 'partNumber',
          ArgumentValue: partNumber,
        },
      )
    }
    if (number > parts.length)
      throw new S3Error('InvalidPartNumber', 'The requested partnumber is not satisfiable', 416)
    const start = parts.slice(0, number - 1).reduce((sum, size) => sum + size, 0)
    return { start, end: start + (parts[number - 1] as number) - 1 }
  }
  if (!rangeHeader) return undefined
  const match = /^bytes=(\d*)-(\d*)$/.exec(rangeHeader.trim())
  if (!match || (match[1] === '' && match[2] === '')) return undefined
  const size = object.size
  const unsatisfiable = () =>
    new S3Error('InvalidRange', 'The requested range is not satisfiable', 416, {
      RangeRequested: rangeHeader,
      ActualObjectSize: String(size),
    })
  if (match[1] === '') {
    const suffix = Number(match[2])
    if (suffix === 0 || size === 0) throw unsatisfiable()
    return { start: Math.max(0, size - suffix), end: size - 1 }
  }
  const start = Number(match[1])
  const end = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1)
  if (match[2] !== '' && Number(match[2]) < start) return undefined
  if (start >= size) throw unsatisfiable()
  return { start, end }
}

export async function deleteObject(context: ObjectContext) {
  const { bucket, key, store, reply } = context
  await authorize(context, 'delete', key)
  checkVersionId(context.query.get('versionId'))
  await store.deleteObject(bucket, key)
  return reply.code(204).send()
}

/** `x-amz-copy-source`: `[/]bucket/key[?versionId=null]`, percent-encoded. */
export function copySource(value: string): { bucket: string; key: string } {
  const [path = '', version] = value.split('?versionId=')
  if (version !== undefined) checkVersionId(version)
  let decoded: string
  try {
    decoded = decodeURIComponent(path).replace(/^\//, '')
  } catch {
    throw new S3Error('InvalidArgument', 'Invalid copy source encoding', 400, {
      ArgumentName: 'x-amz-copy-source',
    })
  }
  const slash = decoded.indexOf('/')
  if (slash <= 0 || slash === decoded.length - 1) {
    throw new S3Error(
      'InvalidArgument',
      'Copy Source must mention the source bucket and key: sourcebucket/sourcekey',
      400,
      {
        ArgumentName: 'x-amz-copy-source',
        ArgumentValue: value,
      },
    )
  }
  return {
    bucket: checkBucketName(decoded.slice(0, slash)),
    key: checkKey(decoded.slice(slash + 1)),
  }
}

export async function copyObject(context: ObjectContext, sourceHeader: string) {
  const { bucket, key, store } = context
  const source = copySource(sourceHeader)
  const directive = header(context, 'x-amz-metadata-directive') ?? 'COPY'
  if (directive !== 'COPY' && directive !== 'REPLACE') {
    throw new S3Error('InvalidArgument', 'Unknown metadata directive.', 400, {
      ArgumentName: 'x-amz-metadata-directive',
      ArgumentValue: directive,
    })
  }
  await authorize({ ...context, bucket: source.bucket }, 'read', source.key)
  await authorize(context, 'write', key)
  refuseCustomerKey(context, true)
  refuseEncryptionOptions(context)
  if (source.bucket === bucket && source.key === key && directive === 'COPY') {
    throw new S3Error(
      'InvalidRequest',
      "This copy request is illegal because it is trying to copy an object to itself without changing the object's metadata, storage class, website redirect location or encryption attributes.",
    )
  }
  const owner = ownerOf(context.caller)
  const info = await store.copyObject(
    source,
    { bucket, key },
    directive === 'COPY'
      ? { metadata: 'COPY', owner }
      : { metadata: 'REPLACE', object: newObjectFrom(context, owner) },
  )
  return sendXml(context.reply, 'CopyObjectResult', {
    ETag: info.etag,
    LastModified: info.lastModified,
    ...(info.checksum && info.checksum.type === 'FULL_OBJECT'
      ? { [`Checksum${info.checksum.algorithm}`]: info.checksum.value }
      : {}),
  })
}
