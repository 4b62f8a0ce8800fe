import { CognitoError } from '#server/identity/cognito-error.ts'
import { consumeAuthSession, openAuthSession } from '#server/identity/user-pool/auth-sessions.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import type { ClientRequest } from './authorize-request.ts'
import type { GoogleIdentity, GoogleRequest } from './google.ts'

/**
 * The short-lived, single-use, server-side steps of a hosted sign-in, kept with the user
 * pool's challenge sessions (only a hash of each random handle is stored; taking one
 * deletes it):
 * - a redirect to Google in flight, under the `state` we sent it (10 minutes: the user may
 *   have to sign in at Google);
 * - a first Google sign-in waiting for its username (10 minutes);
 * - an authorization code for the client (5 minutes), bound to its client, redirect URI
 *   and PKCE challenge.
 */
const GRANTS = {
  googleRequest: { challenge: 'OAUTH_GOOGLE_REQUEST', ttlMs: 10 * 60 * 1000 },
  pendingSignUp: { challenge: 'OAUTH_PENDING_SIGN_UP', ttlMs: 10 * 60 * 1000 },
  authorizationCode: { challenge: 'OAUTH_AUTHORIZATION_CODE', ttlMs: 5 * 60 * 1000 },
} as const

export type GrantStates = {
  googleRequest: { client: ClientRequest; google: GoogleRequest }
  pendingSignUp: { client: ClientRequest; identity: GoogleIdentity }
  authorizationCode: { client: ClientRequest }
}

type Kind = keyof GrantStates

/** Stores a step; returns its handle (the state sent to Google, the cookie, the code). */
export function openGrant<K extends Kind>(
  ctx: UserPoolContext,
  kind: K,
  sub: string | null,
  state: GrantStates[K],
): Promise<string> {
  const { challenge, ttlMs } = GRANTS[kind]
  return openAuthSession(ctx, { sub, challenge, state, ttlMs })
}

/** Takes a step out of the store; undefined when it is unknown, used, expired or another kind. */
export async function takeGrant<K extends Kind>(
  ctx: UserPoolContext,
  kind: K,
  handle: string,
): Promise<{ sub: string | null; state: GrantStates[K] } | undefined> {
  if (handle.length < 20 || handle.length > 2048) return undefined
  try {
    const stored = await consumeAuthSession<GrantStates[K]>(ctx, handle)
    return stored.challenge === GRANTS[kind].challenge
      ? { sub: stored.sub, state: stored.state }
      : undefined
  } catch (error) {
    if (error instanceof CognitoError) return undefined
    throw error
  }
}
