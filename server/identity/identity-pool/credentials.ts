import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { SecretBox } from '#server/identity/secret-box.ts'

export const CREDENTIALS_TTL_MS = 60 * 60 * 1000

export type TemporaryCredentials = {
  AccessKeyId: string
  SecretKey: string
  SessionToken: string
  /** Epoch seconds, as the identity pool answers it. */
  Expiration: number
}

/** What the object store learns from a request's access key and session token. */
export type CredentialsOwner = {
  identityId: string
  authenticated: boolean
  secretAccessKey: string
  expiresAt: number
  /**
   * The identity's user-pool user is disabled (suspended) or gone: its credentials, however
   * fresh, may no longer act. Asked on every request, so a suspension takes effect at once.
   */
  userDisabled: boolean
}

const KEY_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

function accessKeyId(): string {
  let id = 'ASIA'
  for (const byte of randomBytes(16)) id += KEY_ALPHABET[byte % KEY_ALPHABET.length]
  return id
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** Issues temporary credentials for an identity; only their hash and sealed secret are kept. */
export async function issueCredentials(
  db: Kysely<DB>,
  box: SecretBox,
  identity: { identityId: string; authenticated: boolean },
  now = Date.now(),
): Promise<TemporaryCredentials> {
  const credentials = {
    AccessKeyId: accessKeyId(),
    SecretKey: randomBytes(30).toString('base64'),
    SessionToken: randomBytes(192).toString('base64'),
  }
  const expiresAt = now + CREDENTIALS_TTL_MS
  await db
    .insertInto('identity_credentials')
    .values({
      access_key_id: credentials.AccessKeyId,
      identity_id: identity.identityId,
      secret_ciphertext: box.seal(credentials.SecretKey),
      session_token_hash: tokenHash(credentials.SessionToken),
      authenticated: identity.authenticated ? 1 : 0,
      expires_at: expiresAt,
      created_at: now,
    })
    .execute()
  return { ...credentials, Expiration: Math.floor(expiresAt / 1000) }
}

/**
 * The owner of unexpired credentials, if the access key and session token belong together.
 * `subOf` names the user-pool user an identity is signed in as (undefined for guests and
 * other providers), whose `enabled` flag is read afresh.
 */
export async function findCredentials(
  db: Kysely<DB>,
  box: SecretBox,
  subOf: (identityId: string) => Promise<string | undefined>,
  accessKeyIdValue: string,
  sessionToken: string,
  now = Date.now(),
): Promise<CredentialsOwner | undefined> {
  const row = await db
    .selectFrom('identity_credentials')
    .selectAll()
    .where('access_key_id', '=', accessKeyIdValue)
    .executeTakeFirst()
  if (!row || row.expires_at <= now) return undefined
  const expected = Buffer.from(row.session_token_hash, 'hex')
  const presented = Buffer.from(tokenHash(sessionToken), 'hex')
  if (!timingSafeEqual(expected, presented)) return undefined
  const authenticated = row.authenticated === 1
  return {
    identityId: row.identity_id,
    authenticated,
    secretAccessKey: box.open(row.secret_ciphertext),
    expiresAt: row.expires_at,
    userDisabled: authenticated && (await userDisabled(db, await subOf(row.identity_id))),
  }
}

async function userDisabled(db: Kysely<DB>, sub: string | undefined): Promise<boolean> {
  if (sub === undefined) return false
  const user = await db
    .selectFrom('identity_users')
    .select('enabled')
    .where('sub', '=', sub)
    .executeTakeFirst()
  return user?.enabled !== 1
}

/** Forgets credentials that expired; run now and then. */
export async function deleteExpiredCredentials(db: Kysely<DB>, now = Date.now()): Promise<number> {
  const result = await db
    .deleteFrom('identity_credentials')
    .where('expires_at', '<=', now)
    .executeTakeFirst()
  return Number(result.numDeletedRows)
}
