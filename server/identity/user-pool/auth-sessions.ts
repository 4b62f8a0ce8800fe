import { createHash, randomBytes } from 'node:crypto'
import { notAuthorized } from '#server/identity/cognito-error.ts'
import type { UserPoolContext } from './context.ts'

/**
 * The `Session` that carries a sign-in from one challenge to the next: an opaque random
 * string the client echoes back. Only its hash is stored, with what the next step needs.
 * Each is single-use and lives three minutes, as in Amazon Cognito.
 */
export const SESSION_TTL_MS = 3 * 60 * 1000

/** Wrong codes a challenge session survives before it ends (the last one ends it). */
export const MAX_SESSION_ATTEMPTS = 3

export type StoredSession<State> = {
  sub: string | null
  challenge: string
  state: State
  expiresAt: number
  createdAt: number
  attempts: number
}

export const invalidSession = () =>
  notAuthorized('Invalid session for the user, session is expired.')

const hashSession = (session: string) => createHash('sha256').update(session).digest('base64url')

export async function openAuthSession(
  ctx: UserPoolContext,
  values: { sub: string | null; challenge: string; state: object; ttlMs?: number },
): Promise<string> {
  const session = randomBytes(96).toString('base64url')
  const now = ctx.now()
  await ctx.db
    .insertInto('identity_auth_sessions')
    .values({
      id_hash: hashSession(session),
      sub: values.sub,
      challenge: values.challenge,
      state: JSON.stringify(values.state),
      expires_at: now + (values.ttlMs ?? SESSION_TTL_MS),
      created_at: now,
    })
    .execute()
  return session
}

/** Takes the session out of the store (so it cannot be replayed); throws if it is not valid. */
export async function consumeAuthSession<State>(
  ctx: UserPoolContext,
  session: string,
): Promise<StoredSession<State>> {
  const row = await ctx.db
    .deleteFrom('identity_auth_sessions')
    .where('id_hash', '=', hashSession(session))
    .returningAll()
    .executeTakeFirst()
  if (!row || row.expires_at <= ctx.now()) throw invalidSession()
  return {
    sub: row.sub,
    challenge: row.challenge,
    state: JSON.parse(row.state) as State,
    expiresAt: row.expires_at,
    createdAt: row.created_at,
    attempts: row.attempts,
  }
}

/**
 * Puts a consumed session back, unchanged but for one more wrong attempt, so that a user who
 * mistyped a code can try again with the same Session (as the clients do). Its lifetime is
 * not extended. False when its attempts are used up or it has expired: it stays gone.
 */
export async function reopenAuthSession(
  ctx: UserPoolContext,
  session: string,
  stored: StoredSession<unknown>,
): Promise<boolean> {
  if (stored.attempts + 1 >= MAX_SESSION_ATTEMPTS || stored.expiresAt <= ctx.now()) return false
  await ctx.db
    .insertInto('identity_auth_sessions')
    .values({
      id_hash: hashSession(session),
      sub: stored.sub,
      challenge: stored.challenge,
      state: JSON.stringify(stored.state),
      expires_at: stored.expiresAt,
      created_at: stored.createdAt,
      attempts: stored.attempts + 1,
    })
    .execute()
  return true
}
