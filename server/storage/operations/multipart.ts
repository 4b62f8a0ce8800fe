import { z } from 'zod'
import {
  type CompletedPart,
  type CompleteOptions,
  MAX_PART_NUMBER,
  type StoredChecksum,
  type UploadInfo,
} from '#server/storage/backends/object-store.ts'
import {
  CHECKSUM_ALGORITHMS,
  checksumElement,
  checksumHeader,
  isChecksumValue,
} from '#server/storage/checksums.ts'
import { checkDeclaredSize, incomingBody, readSmallBody } from '#server/storage/payload.ts'
import { accessDenied, noSuchKey, noSuchUpload, S3Error } from '#server/storage/s3-error.ts'
import { queryInteger } from '#server/storage/s3-request.ts'
import { sendXml } from '#server/storage/s3-response.ts'
import { malformedXml, parseXml } from '#server/storage/xml.ts'
import { authorize, callerOwner, header, type ObjectContext } from './context.ts'
import {
  newObjectFrom,
  refuseCustomerKey,
  refuseEncryptionOptions,
  writeChecksumHeaders,
} from './object-headers.ts'
import { copySource } from './objects.ts'
import { checkWriteCondition, writeCondition } from './write-conditions.ts'

/** CreateMultipartUpload, UploadPart, ListParts, CompleteMultipartUpload, AbortMultipartUpload. */

const MAX_COMPLETE_BODY = 4 * 1024 * 1024

const partNumberArgument = (value: string) =>
  new S3Error(
    'InvalidArgument',
    `Part number must be an integer between 1 and ${MAX_PART_NUMBER}, inclusive`,
    400,
    {
      ArgumentName: 'partNumber',
      ArgumentValue: value,
    },
  )

function checkedPartNumber(text: string): number {
  const partNumber = /^\d{1,5}$/.test(text) ? Number(text) : 0
  if (partNumber < 1 || partNumber > MAX_PART_NUMBER) throw partNumberArgument(text)
  return partNumber
}

export async function createMultipartUpload(context: ObjectContext) {
  const { bucket, key, store } = context
  await authorize(context, 'write', key)
  refuseEncryptionOptions(context)
  const upload = await store.createMultipartUpload(
    bucket,
    key,
    newObjectFrom(context, callerOwner(context)),
  )
  const algorithm = header(context, 'x-amz-checksum-algorithm')
  if (algorithm) context.reply.header('x-amz-checksum-algorithm', algorithm)
  return sendXml(context.reply, 'InitiateMultipartUploadResult', {
    Bucket: bucket,
    Key: key,
    UploadId: upload.uploadId,
  })
}

/** The upload, if it exists and the caller started it (or is root); NoSuchUpload otherwise. */
async function ownUpload(context: ObjectContext, uploadId: string): Promise<UploadInfo> {
  const upload = await context.store.getMultipartUpload(context.bucket, context.key, uploadId)
  if (!upload) throw noSuchUpload(uploadId)
  requireInitiator(context, upload.owner)
  return upload
}

function requireInitiator(context: ObjectContext, initiator: string) {
  if (context.caller.kind !== 'root' && initiator !== callerOwner(context)) throw accessDenied()
}

/**
 * Complete's upload: false while it is unfinished and the caller's (or root's); true when it was
 * completed already into the object still at its key (a retry: the store answers that object).
 */
async function ownUploadOrCompleted(context: ObjectContext, uploadId: string): Promise<boolean> {
  const { store, bucket, key } = context
  const upload = await store.getMultipartUpload(bucket, key, uploadId)
  if (upload) {
    requireInitiator(context, upload.owner)
    return false
  }
  const object = await store.headObject(bucket, key)
  if (object?.uploadId !== uploadId) throw noSuchUpload(uploadId)
  requireInitiator(context, object.owner)
  return true
}

export async function uploadPart(context: ObjectContext, uploadId: string, partNumberText: string) {
  const { bucket, key, store, reply } = context
  const partNumber = checkedPartNumber(partNumberText)
  await authorize(context, 'write', key)
  await ownUpload(context, uploadId)
  refuseCustomerKey(context)
  checkDeclaredSize(context.request.raw)
  const body = incomingBody(context.request.raw, context.auth)
  const part = await store.uploadPart(bucket, key, uploadId, partNumber, body)
  reply.header('etag', part.etag)
  writeChecksumHeaders(reply, body.checksum())
  return reply.code(200).send()
}

/** `x-amz-copy-source-range: bytes=first-last`, within the source. */
function copyRange(value: string | undefined, size: number) {
  if (value === undefined) return undefined
  const match = /^bytes=(\d{1,15})-(\d{1,15})$/.exec(value.trim())
  const start = Number(match?.[1])
  const end = Number(match?.[2])
  if (!match || end < start) {
    throw new S3Error(
      'InvalidArgument',
      'The x-amz-copy-source-range value must be of the form bytes=first-last where first and last are the zero-based offsets of the first and last bytes to copy',
      400,
      { ArgumentName: 'x-amz-copy-source-range', ArgumentValue: value },
    )
  }
  if (end >= size) {
    throw new S3Error('InvalidRange', 'The requested range is not satisfiable', 416, {
      RangeRequested: value,
      ActualObjectSize: String(size),
    })
  }
  return { start, end }
}

/** UploadPartCopy: a part made of (a range of) an object the caller may read. */
export async function uploadPartCopy(
  context: ObjectContext,
  uploadId: string,
  partNumberText: string,
  sourceHeader: string,
) {
  const { bucket, key, store } = context
  const partNumber = checkedPartNumber(partNumberText)
  const source = copySource(sourceHeader)
  await authorize({ ...context, bucket: source.bucket }, 'read', source.key)
  await authorize(context, 'write', key)
  await ownUpload(context, uploadId)
  refuseCustomerKey(context, true)
  const opened = await store.openObject(source.bucket, source.key)
  if (!opened) throw noSuchKey(source.key)
  let range: { start: number; end: number } | undefined
  try {
    range = copyRange(header(context, 'x-amz-copy-source-range'), opened.info.size)
  } catch (error) {
    opened.read().destroy()
    throw error
  }
  const stream = opened.read(range)
  // The source's snapshot is let go however the part ends (an abort racing it included).
  const part = await store
    .uploadPart(bucket, key, uploadId, partNumber, { stream, checksum: () => undefined })
    .finally(() => stream.destroy())
  return sendXml(context.reply, 'CopyPartResult', {
    ETag: part.etag,
    LastModified: part.lastModified,
  })
}

const checksumFields = (checksum: StoredChecksum | undefined) =>
  checksum ? { [checksumElement(checksum.algorithm)]: checksum.value } : {}

export async function listParts(context: ObjectContext, uploadId: string) {
  const { bucket, key, store, query } = context
  await authorize(context, 'write', key)
  const upload = await ownUpload(context, uploadId)
  const maxParts = queryInteger(query, 'max-parts', {
    min: 0,
    max: 2 ** 31 - 1,
    fallback: 1000,
  }) as number
  const marker = queryInteger(query, 'part-number-marker', {
    min: 0,
    max: MAX_PART_NUMBER,
    fallback: 0,
  }) as number
  const page = await store.listParts(bucket, key, uploadId, {
    partNumberMarker: marker || undefined,
    maxParts: Math.min(maxParts, 1000),
  })
  const last = page.parts[page.parts.length - 1]
  const initiator = { ID: upload.owner, DisplayName: upload.owner }
  return sendXml(context.reply, 'ListPartsResult', {
    Bucket: bucket,
    Key: key,
    UploadId: uploadId,
    PartNumberMarker: marker,
    NextPartNumberMarker: last?.partNumber ?? marker,
    MaxParts: maxParts,
    IsTruncated: page.isTruncated,
    Part: page.parts.map((part) => ({
      PartNumber: part.partNumber,
      LastModified: part.lastModified,
      ETag: part.etag,
      Size: part.size,
      ...checksumFields(part.checksum),
    })),
    Initiator: initiator,
    Owner: initiator,
    StorageClass: 'STANDARD',
  })
}

const completeSchema = z.object({
  CompleteMultipartUpload: z.object({
    Part: z
      .array(z.object({ PartNumber: z.string(), ETag: z.string().min(1) }).catchall(z.unknown()))
      .min(1),
  }),
})

/** The parts a Complete request names, checked as S3 checks them before looking at any part. */
export function completedParts(body: Buffer): CompletedPart[] {
  const { Part } = parseXml(body, completeSchema).CompleteMultipartUpload
  const parts = Part.map((part) => {
    if (!/^\d{1,6}$/.test(part.PartNumber)) throw malformedXml()
    const partNumber = Number(part.PartNumber)
    if (partNumber < 1 || partNumber > MAX_PART_NUMBER) throw partNumberArgument(part.PartNumber)
    const etag = part.ETag.startsWith('"') ? part.ETag : `"${part.ETag}"`
    // A part's checksum (lib-storage sends the one UploadPart answered) must be the stored one.
    const algorithm = CHECKSUM_ALGORITHMS.find((name) => part[checksumElement(name)] !== undefined)
    const value = algorithm && part[checksumElement(algorithm)]
    if (algorithm && typeof value !== 'string') throw malformedXml()
    return algorithm
      ? { partNumber, etag, checksum: { algorithm, value: value as string } }
      : { partNumber, etag }
  })
  for (let index = 1; index < parts.length; index += 1) {
    if (
      (parts[index] as CompletedPart).partNumber <= (parts[index - 1] as CompletedPart).partNumber
    ) {
      throw new S3Error(
        'InvalidPartOrder',
        'The list of parts was not in ascending order. Parts must be ordered by part number.',
      )
    }
  }
  return parts
}

/** The whole object's checksum a Complete request states in `x-amz-checksum-*` (`…-N` allowed). */
function objectChecksum(context: ObjectContext): CompleteOptions['checksum'] {
  const present = CHECKSUM_ALGORITHMS.filter((name) => header(context, checksumHeader(name)))
  if (present.length > 1) {
    throw new S3Error(
      'InvalidRequest',
      'Expecting a single x-amz-checksum- header. Multiple checksum Types are not allowed.',
    )
  }
  const [algorithm] = present
  if (!algorithm) return undefined
  const value = header(context, checksumHeader(algorithm)) as string
  const [digest = '', count] = value.split(/-(?=\d+$)/)
  if (!isChecksumValue(algorithm, digest) || (count !== undefined && Number(count) < 1)) {
    throw new S3Error('InvalidRequest', `Value for ${checksumHeader(algorithm)} header is invalid.`)
  }
  return { algorithm, value }
}

export async function completeMultipartUpload(context: ObjectContext, uploadId: string) {
  const { bucket, key, store, request } = context
  await authorize(context, 'write', key)
  const completed = await ownUploadOrCompleted(context, uploadId)
  // The checksum headers describe the object being completed, not this XML.
  const { data } = await readSmallBody(request.raw, context.auth, MAX_COMPLETE_BODY, false)
  const parts = completedParts(data)
  const condition = writeCondition(context)
  const checksum = objectChecksum(context)
  // A retry of a Complete that succeeded is answered as it was, whatever the condition.
  if (!completed) await checkWriteCondition(context, condition)
  const info = await store.completeMultipartUpload(bucket, key, uploadId, parts, {
    ...(condition && { condition }),
    ...(checksum && { checksum }),
  })
  const host = request.headers.host ?? 'localhost'
  const path = `${context.mount}/${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`
  return sendXml(context.reply, 'CompleteMultipartUploadResult', {
    Location: `${request.protocol}://${host}${path}`,
    Bucket: bucket,
    Key: key,
    ETag: info.etag,
    ...checksumFields(info.checksum),
    ...(info.checksum ? { ChecksumType: info.checksum.type } : {}),
  })
}

export async function abortMultipartUpload(context: ObjectContext, uploadId: string) {
  await authorize(context, 'write', context.key)
  await ownUpload(context, uploadId)
  await context.store.abortMultipartUpload(context.bucket, context.key, uploadId)
  return context.reply.code(204).send()
}
