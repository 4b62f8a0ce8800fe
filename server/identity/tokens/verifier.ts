import type { JwtPayload } from 'aws-jwt-verify/jwt-model'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { jwtKid, verifyJwtSignature } from './jwt.ts'
import type { KeyStore } from './keys.ts'
import { isSessionActive } from './refresh-tokens.ts'

export type TokenUse = 'access' | 'id'

/** Why a token was refused, in the words Amazon Cognito uses. */
export class TokenRejected extends Error {
  override name = 'TokenRejected'
}

/**
 * Checks one of our tokens completely: RS256 signature by a published key, `iss`, `token_use`,
 * client, expiry, and that its session is still open (not revoked, not ended by
 * GlobalSignOut, user not deleted or disabled). Resolves to the claims or throws TokenRejected.
 *
 * Its shape is the web app's `TokenVerifier` (app/lib/auth/session.server.ts).
 */
export type TokenVerifier = (token: string, tokenUse: TokenUse) => Promise<JwtPayload>

export function createTokenVerifier(options: {
  db: Kysely<DB>
  keys: KeyStore
  issuer: string
  clientId: string
  now?: () => number
}): TokenVerifier {
  const { db, keys, issuer, clientId } = options
  const now = options.now ?? Date.now
  return async (token, tokenUse) => {
    const name = tokenUse === 'access' ? 'Access Token' : 'Id Token'
    const kid = jwtKid(token)
    // Another instance sharing the key file may have rotated in a key this one has not read.
    if (kid && !keys.find(kid)) await keys.reload()
    const claims = verifyJwtSignature(token, keys)
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
