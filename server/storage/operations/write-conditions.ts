import { conditionHolds, type WriteCondition } from '#server/storage/backends/object-store.ts'
import { noSuchKey, S3Error } from '#server/storage/s3-error.ts'
import { header, type ObjectContext } from './context.ts'

/**
 * S3's conditional writes (PutObject, CompleteMultipartUpload): `If-None-Match: *` writes only
 * where no object is, `If-Match: etag` only over that object. The store checks again when the
 * write commits; a change in between is ConditionalRequestConflict (409).
 */
export function writeCondition(context: ObjectContext): WriteCondition | undefined {
  const ifMatch = header(context, 'if-match')
  const ifNoneMatch = header(context, 'if-none-match')
  if (ifNoneMatch !== undefined && ifNoneMatch.trim() !== '*') {
    throw new S3Error(
      'NotImplemented',
      'A header you provided implies functionality that is not implemented',
      501,
      { Header: 'If-None-Match' },
    )
  }
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined
  return {
    ...(ifMatch !== undefined && { ifMatch }),
    ...(ifNoneMatch !== undefined && { ifNoneMatch: '*' as const }),
  }
}

/** The check before any byte is read: 412 (or 404 for If-Match on a missing key) as S3 answers. */
export async function checkWriteCondition(
  context: ObjectContext,
  condition: WriteCondition | undefined,
): Promise<void> {
  if (!condition) return
  const current = await context.store.headObject(context.bucket, context.key)
  if (condition.ifMatch !== undefined && !current) throw noSuchKey(context.key)
  if (!conditionHolds(condition, current?.etag)) {
    throw new S3Error(
      'PreconditionFailed',
      'At least one of the pre-conditions you specified did not hold',
      412,
      { Condition: condition.ifNoneMatch !== undefined && current ? 'If-None-Match' : 'If-Match' },
    )
  }
}
