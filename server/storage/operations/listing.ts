import type {
  ListEntry,
  ListPage,
  ObjectInfo,
  UploadsEntry,
} from '#server/storage/backends/object-store.ts'
import { S3Error } from '#server/storage/s3-error.ts'
import { queryInteger } from '#server/storage/s3-request.ts'
import { sendXml } from '#server/storage/s3-response.ts'
import type { XmlElement } from '#server/storage/xml.ts'
import { authorize, type BucketContext } from './context.ts'

/** ListObjects (v1), ListObjectsV2 and ListObjectVersions over one store listing. */

const MAX_KEYS = 1000

type Encoder = (text: string | undefined) => string | undefined

function encoderOf(context: BucketContext): { encode: Encoder; encodingType: string | undefined } {
  const encodingType = context.query.get('encoding-type')
  if (encodingType === undefined) return { encode: (text) => text, encodingType }
  if (encodingType !== 'url') {
    throw new S3Error('InvalidArgument', 'Invalid Encoding Method specified in Request', 400, {
      ArgumentName: 'encoding-type',
      ArgumentValue: encodingType,
    })
  }
  // S3's form: slashes kept, spaces as '+'.
  const encode: Encoder = (text) =>
    text === undefined
      ? undefined
      : encodeURIComponent(text).replace(/%2F/g, '/').replace(/%20/g, '+')
  return { encode, encodingType }
}

async function listPage(
  context: BucketContext,
  startAfter: string | undefined,
): Promise<{ page: ListPage; maxKeys: number; prefix: string; delimiter: string | undefined }> {
  const prefix = context.query.get('prefix') ?? ''
  const delimiter = context.query.get('delimiter') || undefined
  const maxKeys = queryInteger(context.query, 'max-keys', {
    min: 0,
    max: 2 ** 31 - 1,
    fallback: MAX_KEYS,
  }) as number
  await authorize(context, 'list', prefix)
  if (maxKeys === 0)
    return { page: { entries: [], isTruncated: false }, maxKeys, prefix, delimiter }
  const page = await context.store.listObjects(context.bucket, {
    prefix: prefix || undefined,
    delimiter,
    startAfter: startAfter || undefined,
    maxKeys: Math.min(maxKeys, MAX_KEYS),
  })
  return { page, maxKeys, prefix, delimiter }
}

const owner = (info: ObjectInfo) => ({ ID: info.owner, DisplayName: info.owner })

function contents(entries: ListEntry[], encode: Encoder, withOwner: boolean): XmlElement[] {
  return entries.flatMap((entry) => {
    if (!('object' in entry)) return []
    const info = entry.object
    return [
      {
        Key: encode(info.key),
        LastModified: info.lastModified,
        ETag: info.etag,
        ...(info.checksum
          ? { ChecksumAlgorithm: info.checksum.algorithm, ChecksumType: info.checksum.type }
          : {}),
        Size: info.size,
        Owner: withOwner ? owner(info) : undefined,
        StorageClass: 'STANDARD',
      },
    ]
  })
}

const commonPrefixes = (entries: (ListEntry | UploadsEntry)[], encode: Encoder) =>
  entries.flatMap((entry) =>
    'commonPrefix' in entry ? [{ Prefix: encode(entry.commonPrefix) }] : [],
  )

const invalidToken = () =>
  new S3Error('InvalidArgument', 'The continuation token provided is incorrect', 400, {
    ArgumentName: 'continuation-token',
  })

function decodeToken(token: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(token)) throw invalidToken()
  const text = Buffer.from(token, 'base64url').toString('utf8')
  if (!text.startsWith('k:')) throw invalidToken()
  return text.slice(2)
}
const encodeToken = (startAfter: string) =>
  Buffer.from(`k:${startAfter}`, 'utf8').toString('base64url')

export async function listObjectsV2(context: BucketContext) {
  const { query } = context
  const { encode, encodingType } = encoderOf(context)
  // An empty token (`continuation-token=`, as some clients send on the first page) is no token.
  const token = query.get('continuation-token') || undefined
  const startAfter = query.get('start-after')
  const { page, maxKeys, prefix, delimiter } = await listPage(
    context,
    token !== undefined ? decodeToken(token) : startAfter,
  )
  return sendXml(context.reply, 'ListBucketResult', {
    Name: context.bucket,
    Prefix: encode(prefix),
    Delimiter: encode(delimiter),
    MaxKeys: maxKeys,
    EncodingType: encodingType,
    KeyCount: page.entries.length,
    IsTruncated: page.isTruncated,
    ContinuationToken: token,
    NextContinuationToken:
      page.isTruncated && page.nextStartAfter ? encodeToken(page.nextStartAfter) : undefined,
    StartAfter: encode(startAfter),
    Contents: contents(page.entries, encode, query.get('fetch-owner') === 'true'),
    CommonPrefixes: commonPrefixes(page.entries, encode),
  })
}

export async function listObjectsV1(context: BucketContext) {
  const { encode, encodingType } = encoderOf(context)
  const marker = context.query.get('marker') ?? ''
  const { page, maxKeys, prefix, delimiter } = await listPage(context, marker)
  return sendXml(context.reply, 'ListBucketResult', {
    Name: context.bucket,
    Prefix: encode(prefix),
    Marker: encode(marker),
    MaxKeys: maxKeys,
    Delimiter: encode(delimiter),
    IsTruncated: page.isTruncated,
    // S3 gives NextMarker only with a delimiter; without one the last key is the next marker.
    NextMarker: page.isTruncated && delimiter ? encode(page.nextStartAfter) : undefined,
    EncodingType: encodingType,
    Contents: contents(page.entries, encode, true),
    CommonPrefixes: commonPrefixes(page.entries, encode),
  })
}

/** Unversioned: every object is its one version, `VersionId` "null", latest. */
export async function listObjectVersions(context: BucketContext) {
  const { encode, encodingType } = encoderOf(context)
  const keyMarker = context.query.get('key-marker') ?? ''
  const versionIdMarker = context.query.get('version-id-marker')
  if (versionIdMarker !== undefined && (versionIdMarker !== 'null' || keyMarker === '')) {
    throw new S3Error(
      'InvalidArgument',
      'A version-id marker cannot be specified without a key marker.',
      400,
      {
        ArgumentName: 'version-id-marker',
        ArgumentValue: versionIdMarker,
      },
    )
  }
  const { page, maxKeys, prefix, delimiter } = await listPage(context, keyMarker)
  const versions = contents(page.entries, encode, true).map((entry) => {
    const { Key, ...rest } = entry
    return { Key, VersionId: 'null', IsLatest: true, ...rest }
  })
  return sendXml(context.reply, 'ListVersionsResult', {
    Name: context.bucket,
    Prefix: encode(prefix),
    KeyMarker: encode(keyMarker),
    VersionIdMarker: versionIdMarker,
    MaxKeys: maxKeys,
    Delimiter: encode(delimiter),
    EncodingType: encodingType,
    IsTruncated: page.isTruncated,
    NextKeyMarker: page.isTruncated ? encode(page.nextStartAfter) : undefined,
    NextVersionIdMarker: page.isTruncated ? 'null' : undefined,
    Version: versions,
    CommonPrefixes: commonPrefixes(page.entries, encode),
  })
}

/** ListMultipartUploads: unfinished uploads under a prefix, paged by key and upload id markers. */
export async function listMultipartUploads(context: BucketContext) {
  const { query } = context
  const { encode, encodingType } = encoderOf(context)
  const prefix = query.get('prefix') ?? ''
  const delimiter = query.get('delimiter') || undefined
  const keyMarker = query.get('key-marker') ?? ''
  // S3 ignores an upload id marker without a key marker.
  const uploadIdMarker = keyMarker ? query.get('upload-id-marker') || undefined : undefined
  const maxUploads = queryInteger(query, 'max-uploads', {
    min: 0,
    max: 2 ** 31 - 1,
    fallback: MAX_KEYS,
  }) as number
  await authorize(context, 'list', prefix)
  const page = await context.store.listMultipartUploads(context.bucket, {
    prefix: prefix || undefined,
    delimiter,
    keyMarker: keyMarker || undefined,
    uploadIdMarker,
    maxUploads: Math.min(maxUploads, MAX_KEYS),
  })
  return sendXml(context.reply, 'ListMultipartUploadsResult', {
    Bucket: context.bucket,
    KeyMarker: encode(keyMarker),
    UploadIdMarker: uploadIdMarker ?? '',
    NextKeyMarker: page.isTruncated ? encode(page.nextKeyMarker) : undefined,
    NextUploadIdMarker: page.isTruncated ? page.nextUploadIdMarker : undefined,
    Delimiter: encode(delimiter),
    Prefix: encode(prefix),
    MaxUploads: maxUploads,
    IsTruncated: page.isTruncated,
    EncodingType: encodingType,
    Upload: page.entries.flatMap((entry) => {
      if (!('upload' in entry)) return []
      const { upload } = entry
      const initiator = { ID: upload.owner, DisplayName: upload.owner }
      return [
        {
          Key: encode(upload.key),
          UploadId: upload.uploadId,
          Initiator: initiator,
          Owner: initiator,
          StorageClass: 'STANDARD',
          Initiated: upload.initiated,
        },
      ]
    }),
    CommonPrefixes: commonPrefixes(page.entries, encode),
  })
}
