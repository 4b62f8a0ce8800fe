import type { JwtPayload } from 'aws-jwt-verify/jwt-model'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { type JwtClaims, jwtKid, verifyJwtSignature } from './jwt.ts'
import type { KeyStore, SigningKey } from './keys.ts'
import { isSessionActive } from './refresh-tokens.ts'

export type TokenUse = 'access' | 'id'

/** Tokens whose signature is remembered as checked: a few per active browser. */
const SIGNED_TOKENS_KEPT = 5_000

/** Why a token was refused, in the words Amazon Cognito uses. */
export class TokenRejected extends Error {
  override name = 'TokenRejected'
}

/**
 * Checks one of our tokens completely: RS256 signature by a published key, `iss`, `token_use`,
 * client, expiry, and that its session is still open (not revoked, not ended by
 * GlobalSignOut, user not deleted or disabled). Resolves to the claims or throws TokenRejected.
 *
 * `liveSession`: the `origin_jti` of a session the caller has just found open with another of
 * its tokens (the access token sent beside an id token). A token of that same session skips
 * the database: the answer would be the same.
 *
 * Its shape is the web app's `TokenVerifier` (server/web-session/reader.ts).
 */
export type TokenVerifier = (
  token: string,
  tokenUse: TokenUse,
  options?: { liveSession?: string },
) => Promise<JwtPayload>

export function createTokenVerifier(options: {
  db: Kysely<DB>
  keys: KeyStore
  issuer: string
  clientId: string
  now?: () => number
}): TokenVerifier {
  const { db, keys, issuer, clientId } = options
  const now = options.now ?? Date.now
  // The RSA check is the costliest step of a page's session check, and a browser sends the
  // same tokens with every request until it refreshes them: a token whose signature checked
  // out with a key still in the store is not checked again. Claims, expiry and the session
  // are checked on every request.
  const signed = new Map<string, { key: SigningKey; claims: Readonly<JwtClaims> }>()
  const signedClaims = (token: string, kid: string | undefined): JwtClaims | undefined => {
    const known = signed.get(token)
    if (known && kid !== undefined && keys.find(kid) === known.key) return known.claims
    const claims = verifyJwtSignature(token, keys)
    const key = kid === undefined ? undefined : keys.find(kid)
    if (claims && key) {
      if (signed.size >= SIGNED_TOKENS_KEPT) {
        const oldest = signed.keys().next().value
        if (oldest !== undefined) signed.delete(oldest)
      }
      signed.set(token, { key, claims: Object.freeze(claims) })
    }
    return claims
  }
  return async (token, tokenUse, verifyOptions) => {
    const name = tokenUse === 'access' ? 'Access Token' : 'Id Token'
    const kid = jwtKid(token)
    // Another instance sharing the key file may have rotated in a key this one has not read.
    if (kid && !keys.find(kid)) await keys.reload()
    const claims = signedClaims(token, kid)
    if (
      !claims ||
      claims.iss !== issuer ||
      claims.token_use !== tokenUse ||
      (tokenUse === 'access' ? claims.client_id : claims.aud) !== clientId ||
      typeof claims.sub !== 'string' ||
      typeof claims.exp !== 'number' ||
      typeof claims.iat !== 'number' ||
      typeof claims.origin_jti !== 'string'
    ) {
      throw new TokenRejected(`Invalid ${name}`)
    }
    if (claims.exp * 1000 <= now()) throw new TokenRejected(`${name} has expired`)
    if (verifyOptions?.liveSession === claims.origin_jti) return claims as JwtPayload
    const user = await db
      .selectFrom('identity_users')
      .select(['enabled', 'tokens_valid_after'])
      .where('sub', '=', claims.sub)
      .executeTakeFirst()
    if (!user) throw new TokenRejected('User does not exist.')
    if (user.enabled !== 1) throw new TokenRejected('User is disabled.')
    if (
      claims.iat * 1000 < user.tokens_valid_after ||
      !(await isSessionActive(db, claims.origin_jti))
    ) {
      throw new TokenRejected(`${name} has been revoked`)
    }
    return claims as JwtPayload
  }
}
