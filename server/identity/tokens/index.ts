/**
 * Tokens of the user pool: signing keys and the JWKS, RS256 JWTs with Cognito's claims,
 * opaque refresh tokens, and the verifier the rest of the process uses to trust a token.
 */
export { type IssuedTokens, issueTokens, type TokenSession, type TokenSubject } from './issue.ts'
export { type KeyStore, openKeyStore, type PublicJwk } from './keys.ts'
export {
  createTokenVerifier,
  TokenRejected,
  type TokenUse,
  type TokenVerifier,
} from './verifier.ts'

import type { TokenVerifier } from './verifier.ts'

/** The identity pool's view of an id token: its subject when valid, else undefined. */
export function idTokenSubject(verify: TokenVerifier) {
  return async (token: string): Promise<{ sub: string } | undefined> => {
    try {
      const claims = await verify(token, 'id')
      return typeof claims.sub === 'string' ? { sub: claims.sub } : undefined
    } catch {
      return undefined
    }
  }
}
