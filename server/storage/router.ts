import { getObjectAttributes } from './operations/attributes.ts'
import {
  createBucket,
  deleteBucket,
  deleteObjects,
  headBucket,
  listBuckets,
} from './operations/buckets.ts'
import {
  type BucketContext,
  header,
  type ObjectContext,
  type S3Context,
} from './operations/context.ts'
import {
  listMultipartUploads,
  listObjectsV1,
  listObjectsV2,
  listObjectVersions,
} from './operations/listing.ts'
import {
  abortMultipartUpload,
  completeMultipartUpload,
  createMultipartUpload,
  listParts,
  uploadPart,
  uploadPartCopy,
} from './operations/multipart.ts'
import { copyObject, deleteObject, getObject, headObject, putObject } from './operations/objects.ts'
import { S3Error } from './s3-error.ts'
import { checkKey } from './s3-request.ts'

/** Picks the S3 operation from the method, the path (bucket, key) and the query. */

const notImplemented = (what: string) =>
  new S3Error('NotImplemented', `${what} is not implemented by this endpoint.`, 501)

const methodNotAllowed = () =>
  new S3Error('MethodNotAllowed', 'The specified method is not allowed against this resource.', 405)

// Subresources S3 has and this endpoint does not serve: refuse them rather than guess.
const UNSUPPORTED_SUBRESOURCES = [
  'acl',
  'analytics',
  'accelerate',
  'cors',
  'encryption',
  'intelligent-tiering',
  'inventory',
  'legal-hold',
  'lifecycle',
  'location',
  'logging',
  'metrics',
  'notification',
  'object-lock',
  'ownershipControls',
  'policy',
  'policyStatus',
  'publicAccessBlock',
  'replication',
  'requestPayment',
  'restore',
  'retention',
  'select',
  'tagging',
  'torrent',
  'versioning',
  'website',
  'session',
]

const OBJECT_OPERATIONS = new Set([
  'GetObject',
  'PutObject',
  'DeleteObject',
  'CopyObject',
  'UploadPart',
  'CreateMultipartUpload',
  'CompleteMultipartUpload',
  'AbortMultipartUpload',
  'ListParts',
  'UploadPartCopy',
  'GetObjectAttributes',
])

export async function route(
  context: S3Context,
  bucket: string | undefined,
  key: string | undefined,
) {
  const method = context.request.method
  const unsupported = UNSUPPORTED_SUBRESOURCES.find((name) => context.query.has(name))
  if (unsupported) throw notImplemented(`The ?${unsupported} subresource`)
  if (bucket === undefined) {
    if (method === 'GET') return listBuckets(context)
    throw methodNotAllowed()
  }
  const onBucket: BucketContext = { ...context, bucket }
  // The SDK names object operations in `x-id`: with an empty Key it would otherwise reach a bucket.
  if (key === undefined && OBJECT_OPERATIONS.has(context.query.get('x-id') ?? '')) checkKey('')
  if (key === undefined) return routeBucket(onBucket)
  return routeObject({ ...onBucket, key: checkKey(key) })
}

function routeBucket(context: BucketContext) {
  const { query } = context
  switch (context.request.method) {
    case 'GET':
      if (query.has('uploads')) return listMultipartUploads(context)
      if (query.has('versions')) return listObjectVersions(context)
      if (query.get('list-type') === '2') return listObjectsV2(context)
      if (query.has('list-type')) {
        throw new S3Error('InvalidArgument', 'Invalid List Type specified in Request', 400, {
          ArgumentName: 'list-type',
        })
      }
      return listObjectsV1(context)
    case 'HEAD':
      return headBucket(context)
    case 'PUT':
      return createBucket(context)
    case 'DELETE':
      return deleteBucket(context)
    case 'POST':
      if (query.has('delete')) return deleteObjects(context)
      throw methodNotAllowed()
    default:
      throw methodNotAllowed()
  }
}

function routeObject(context: ObjectContext) {
  const { query } = context
  const uploadId = query.get('uploadId')
  switch (context.request.method) {
    case 'GET':
      if (uploadId !== undefined) return listParts(context, uploadId)
      return query.has('attributes') ? getObjectAttributes(context) : getObject(context)
    case 'HEAD':
      return headObject(context)
    case 'PUT': {
      const source = header(context, 'x-amz-copy-source')
      const partNumber = query.get('partNumber')
      if (uploadId !== undefined || partNumber !== undefined) {
        if (uploadId === undefined || partNumber === undefined) {
          throw new S3Error('InvalidRequest', 'UploadPart needs both partNumber and uploadId.')
        }
        return source !== undefined
          ? uploadPartCopy(context, uploadId, partNumber, source)
          : uploadPart(context, uploadId, partNumber)
      }
      return source !== undefined ? copyObject(context, source) : putObject(context)
    }
    case 'POST':
      if (query.has('uploads')) return createMultipartUpload(context)
      if (uploadId !== undefined) return completeMultipartUpload(context, uploadId)
      throw methodNotAllowed()
    case 'DELETE':
      return uploadId !== undefined
        ? abortMultipartUpload(context, uploadId)
        : deleteObject(context)
    default:
      throw methodNotAllowed()
  }
}
