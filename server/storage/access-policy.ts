import type { StorageSettings } from '#server/config.ts'

/**
 * Who may do what under /s3 (seed §6, docs/decisions/011). A pure function of the operation,
 * the key or list prefix, the caller and (for overwrites and deletes in public/) the object's
 * owner, so every cell of the table is tested on its own.
 */

export type Caller =
  | { kind: 'anonymous' }
  | { kind: 'guest'; identityId: string }
  | { kind: 'user'; identityId: string }
  | { kind: 'root' }

/**
 * read: GetObject, HeadObject, a copy source. list: a list prefix. write: PutObject, a copy
 * target, multipart uploads (their parts, listing, completing, aborting). delete: DeleteObject(s).
 * bucket: the bucket operations.
 */
export type Action = 'read' | 'list' | 'write' | 'delete' | 'bucket'

export type AccessRequest = {
  action: Action
  /** The key, or for `list` the prefix. */
  key: string
  caller: Caller
  /** The owner of the object already at the key (write and delete), if there is one. */
  owner?: string | undefined
}

export type LevelPrefixes = StorageSettings['prefixes']

/** The owner recorded for objects the root credential writes. */
export const ROOT_OWNER = 'root'

export function ownerOf(caller: Caller): string {
  return caller.kind === 'guest' || caller.kind === 'user' ? caller.identityId : ROOT_OWNER
}

export function isAllowed(prefixes: LevelPrefixes, request: AccessRequest): boolean {
  const { action, key, caller } = request
  if (caller.kind === 'root') return true
  if (action === 'bucket') return false
  if (key.startsWith(prefixes.public)) return publicLevel(request)
  if (caller.kind === 'anonymous') return false
  if (key.startsWith(prefixes.protected)) {
    const own = key.startsWith(`${prefixes.protected}${caller.identityId}/`)
    if (action === 'read' || action === 'list') return caller.kind === 'user'
    return own && caller.kind === 'user'
  }
  if (key.startsWith(prefixes.private)) {
    return caller.kind === 'user' && key.startsWith(`${prefixes.private}${caller.identityId}/`)
  }
  return false
}

function publicLevel({ action, caller, owner }: AccessRequest): boolean {
  if (action === 'read') return true
  if (action === 'list') return caller.kind === 'guest' || caller.kind === 'user'
  if (caller.kind !== 'user') return false
  return owner === undefined || owner === caller.identityId
}
