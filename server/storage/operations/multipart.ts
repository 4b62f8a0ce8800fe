import { z } from 'zod'
import {
  type CompletedPart,
  MAX_PART_NUMBER,
  type StoredChecksum,
  type UploadInfo,
} from '../backends/object-store.ts'
import { checksumElement } from '../checksums.ts'
import { checkDeclaredSize, incomingBody, readSmallBody } from '../payload.ts'
import { accessDenied, noSuchUpload, S3Error } from '../s3-error.ts'
import { queryInteger } from '../s3-request.ts'
import { sendXml } from '../s3-response.ts'
import { malformedXml, parseXml } from '../xml.ts'
import { authorize, callerOwner, header, type ObjectContext } from './context.ts'
import {
  newObjectFrom,
  refuseCustomerKey,
  refuseEncryptionOptions,
  writeChecksumHeaders,
} from './object-headers.ts'

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
  if (context.caller.kind !== 'root' && upload.owner !== callerOwner(context)) throw accessDenied()
  return upload
}

export async function uploadPart(context: ObjectContext, uploadId: string, partNumberText: string) {
  const { bucket, key, store, reply } = context
  const partNumber = /^\d{1,5}$/.test(partNumberText) ? Number(partNumberText) : 0
  if (partNumber < 1 || partNumber > MAX_PART_NUMBER) throw partNumberArgument(partNumberText)
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
    Part: z.array(z.object({ PartNumber: z.string(), ETag: z.string().min(1) }).loose()).min(1),
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
    return { partNumber, etag }
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

export async function completeMultipartUpload(context: ObjectContext, uploadId: string) {
  const { bucket, key, store, request } = context
  await authorize(context, 'write', key)
  await ownUpload(context, uploadId)
  const { data } = await readSmallBody(request.raw, context.auth, MAX_COMPLETE_BODY)
  const parts = completedParts(data)
  const info = await store.completeMultipartUpload(bucket, key, uploadId, parts)
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
