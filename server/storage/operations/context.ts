import type { FastifyReply, FastifyRequest } from 'fastify'
import type { StorageSettings } from '#server/config.ts'
import { type Action, type Caller, isAllowed, ownerOf } from '#server/storage/access-policy.ts'
import type { ObjectStore } from '#server/storage/backends/object-store.ts'
import type { PayloadAuth } from '#server/storage/payload.ts'
import { accessDenied } from '#server/storage/s3-error.ts'

/** One authenticated request on its way to an operation. */
export type S3Context = {
  request: FastifyRequest
  reply: FastifyReply
  store: ObjectStore
  settings: StorageSettings
  caller: Caller
  auth: PayloadAuth
  query: Map<string, string>
  /** The mount point, e.g. `/s3`, for Location answers. */
  mount: string
}

/** A request aimed at a bucket (and possibly a key). */
export type BucketContext = S3Context & { bucket: string }
export type ObjectContext = BucketContext & { key: string }

/**
 * Throws AccessDenied unless the caller may act on the key. For overwrites and deletes under
 * public/, the current object's owner decides, so it is looked up first.
 */
export async function authorize(
  context: BucketContext,
  action: Action,
  key: string,
): Promise<void> {
  const { settings, caller } = context
  const needsOwner =
    (action === 'write' || action === 'delete') &&
    caller.kind === 'user' &&
    key.startsWith(settings.prefixes.public)
  const owner = needsOwner
    ? (await context.store.headObject(context.bucket, key))?.owner
    : undefined
  if (!isAllowed(settings.prefixes, { action, key, caller, owner })) throw accessDenied()
}

export const callerOwner = (context: S3Context) => ownerOf(context.caller)

export function header(context: S3Context, name: string): string | undefined {
  const value = context.request.headers[name]
  return Array.isArray(value) ? value.join(',') : value
}
