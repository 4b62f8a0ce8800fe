import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { DB, IdentityRefreshTokensTable } from '#db/schema.ts'

/**
 * Refresh tokens are opaque random strings; only their SHA-256 is stored. Each one starts a
 * sign-in session named by its `origin_jti`, which every access and id token of that session
 * carries, so revoking the refresh token also ends the session's access tokens.
 */
export type RefreshTokenRow = Selectable<IdentityRefreshTokensTable>

export const hashToken = (token: string) => createHash('sha256').update(token).digest('base64url')

export async function createRefreshToken(
  db: Kysely<DB>,
  values: {
    sub: string
    clientId: string
    deviceKey?: string | null
    authTime: number
    ttlMs: number
    now: number
    /** The OAuth scopes of a hosted sign-in, which refreshed access tokens keep. */
    scope?: string | null
  },
): Promise<{ token: string; originJti: string }> {
  const token = randomBytes(96).toString('base64url')
  const originJti = randomUUID()
  await db
    .insertInto('identity_refresh_tokens')
    .values({
      token_hash: hashToken(token),
      sub: values.sub,
      client_id: values.clientId,
      origin_jti: originJti,
      device_key: values.deviceKey ?? null,
      auth_time: values.authTime,
      expires_at: values.now + values.ttlMs,
      revoked_at: null,
      created_at: values.now,
      scope: values.scope ?? null,
    })
    .execute()
  return { token, originJti }
}

export async function findRefreshToken(
  db: Kysely<DB>,
  token: string,
): Promise<RefreshTokenRow | undefined> {
  return db
    .selectFrom('identity_refresh_tokens')
    .selectAll()
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst()
}

/** Revokes one refresh token (and its session); false when there was nothing to revoke. */
export async function revokeRefreshToken(
  db: Kysely<DB>,
  token: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('identity_refresh_tokens')
    .set({ revoked_at: now })
    .where('token_hash', '=', hashToken(token))
    .where('revoked_at', 'is', null)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) > 0
}

/**
 * Ends every session of a user (GlobalSignOut, a password reset), or every one but the session
 * `exceptOriginJti` (a password change keeps the session that made it).
 */
export async function revokeAllRefreshTokens(
  db: Kysely<DB>,
  sub: string,
  now: number,
  exceptOriginJti?: string,
): Promise<void> {
  let update = db
    .updateTable('identity_refresh_tokens')
    .set({ revoked_at: now })
    .where('sub', '=', sub)
    .where('revoked_at', 'is', null)
  if (exceptOriginJti !== undefined) update = update.where('origin_jti', '!=', exceptOriginJti)
  await update.execute()
}

/** Is the session an access or id token belongs to still open? */
export async function isSessionActive(db: Kysely<DB>, originJti: string): Promise<boolean> {
  const row = await db
    .selectFrom('identity_refresh_tokens')
    .select('revoked_at')
    .where('origin_jti', '=', originJti)
    .executeTakeFirst()
  return row !== undefined && row.revoked_at === null
}
