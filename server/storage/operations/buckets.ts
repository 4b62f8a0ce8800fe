import { z } from 'zod'
import { isAllowed } from '#server/storage/access-policy.ts'
import { readSmallBody } from '#server/storage/payload.ts'
import { accessDenied, noSuchBucket, S3Error } from '#server/storage/s3-error.ts'
import { checkKey } from '#server/storage/s3-request.ts'
import { sendXml } from '#server/storage/s3-response.ts'
import { parseXml, type XmlElement } from '#server/storage/xml.ts'
import { authorize, type BucketContext, type S3Context } from './context.ts'

/** The bucket operations (the root credential's) and DeleteObjects. */

function requireRoot(context: S3Context) {
  if (
    !isAllowed(context.settings.prefixes, { action: 'bucket', key: '', caller: context.caller })
  ) {
    throw accessDenied()
  }
}

export async function listBuckets(context: S3Context) {
  requireRoot(context)
  const buckets = await context.store.listBuckets()
  return sendXml(context.reply, 'ListAllMyBucketsResult', {
    Owner: { ID: 'root', DisplayName: 'root' },
    Buckets: {
      Bucket: buckets.map((bucket) => ({ Name: bucket.name, CreationDate: bucket.createdAt })),
    },
  })
}

export async function createBucket(context: BucketContext) {
  requireRoot(context)
  if (await context.store.bucketExists(context.bucket)) {
    throw new S3Error(
      'BucketAlreadyOwnedByYou',
      'Your previous request to create the named bucket succeeded and you already own it.',
      409,
      { BucketName: context.bucket },
    )
  }
  await context.store.createBucket(context.bucket)
  return context.reply.header('location', `/${context.bucket}`).code(200).send()
}

export async function headBucket(context: BucketContext) {
  requireRoot(context)
  if (!(await context.store.bucketExists(context.bucket))) throw noSuchBucket(context.bucket)
  return context.reply.header('x-amz-bucket-region', context.settings.region).code(200).send()
}

export async function deleteBucket(context: BucketContext) {
  requireRoot(context)
  await context.store.deleteBucket(context.bucket)
  return context.reply.code(204).send()
}

const deleteSchema = z.object({
  Delete: z.object({
    Quiet: z.enum(['true', 'false']).optional(),
    Object: z
      .array(z.object({ Key: z.string(), VersionId: z.string().optional() }).loose())
      .min(1)
      .max(1000),
  }),
})

/** DeleteObjects: each key is checked and deleted on its own, and answered on its own. */
export async function deleteObjects(context: BucketContext) {
  const { data } = await readSmallBody(context.request.raw, context.auth, 2 * 1024 * 1024)
  const { Quiet, Object: objects } = parseXml(data, deleteSchema).Delete
  if (!(await context.store.bucketExists(context.bucket))) throw noSuchBucket(context.bucket)
  const deleted: XmlElement[] = []
  const errors: XmlElement[] = []
  for (const object of objects) {
    try {
      checkKey(object.Key)
      if (object.VersionId !== undefined && object.VersionId !== 'null') {
        throw new S3Error('NoSuchVersion', 'The specified version does not exist.', 404)
      }
      await authorize(context, 'delete', object.Key)
      await context.store.deleteObject(context.bucket, object.Key)
      deleted.push({ Key: object.Key, VersionId: object.VersionId })
    } catch (error) {
      if (!(error instanceof S3Error)) throw error
      errors.push({
        Key: object.Key,
        VersionId: object.VersionId,
        Code: error.code,
        Message: error.message,
      })
    }
  }
  return sendXml(context.reply, 'DeleteResult', {
    Deleted: Quiet === 'true' ? undefined : deleted,
    Error: errors,
  })
}
