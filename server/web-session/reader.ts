import { CognitoJwtVerifier, JwtVerifier } from 'aws-jwt-verify'
import { validateCognitoJwtFields } from 'aws-jwt-verify/cognito-verifier'
import type { Jwks } from 'aws-jwt-verify/jwk'
import type { JwtPayload } from 'aws-jwt-verify/jwt-model'
import { readSessionCookies } from './cookies.ts'

/**
 * Who is signed in, read on the server from the cookies Amplify keeps in the browser, so
 * that the first paint of every page already shows the right header. Nothing here trusts a
 * cookie: each token's signature, expiry, issuer, `token_use` and client are verified.
 */
export type SignedInUser = {
  sub: string
  username: string
  email: string | undefined
  groups: string[]
  /** When the access token was issued and expires (epoch ms): the browser refreshes it before. */
  issuedAt: number
  expiresAt: number
}

/**
 * Verifies one token and returns its claims; throws when it is not valid. `liveSession` names
 * a session (`origin_jti`) just found open: a verifier that checks sessions may skip that check
 * for a token of the same one.
 */
export type TokenVerifier = (
  token: string,
  tokenUse: 'access' | 'id',
  options?: { liveSession?: string },
) => Promise<JwtPayload>

export type SessionReader = {
  currentUser(request: Request): Promise<SignedInUser | undefined>
  /** The user of a Cookie header's session cookies (what `currentUser` reads of a request). */
  cookieUser(cookieHeader: string | null | undefined): Promise<SignedInUser | undefined>
  /**
   * The user of an access token sent as `Authorization: Bearer` (API clients outside the
   * browser). Only the API asks: pages read cookies, so that a cached guest page can never be
   * one rendered for a bearer of a token.
   */
  bearerUser(authorization: string | undefined): Promise<SignedInUser | undefined>
}

export function createSessionReader(options: {
  clientId: string
  verify: TokenVerifier
}): SessionReader {
  const { clientId, verify } = options
  // Callers holding the same Request share its answer. React Router gives each loader a
  // Request of its own: pages share one answer per request through the service's forRequest().
  const answers = new WeakMap<Request, Promise<SignedInUser | undefined>>()

  async function cookieUser(cookieHeader: string | null | undefined) {
    const cookies = readSessionCookies(cookieHeader, clientId)
    if (!cookies?.accessToken) return undefined
    return userOf(cookies.accessToken, cookies.idToken)
  }

  async function userOf(
    accessToken: string,
    idToken: string | undefined,
  ): Promise<SignedInUser | undefined> {
    let access: JwtPayload
    try {
      access = await verify(accessToken, 'access')
    } catch {
      return undefined
    }
    const sub = stringClaim(access, 'sub')
    const username = stringClaim(access, 'username') ?? stringClaim(access, 'cognito:username')
    if (
      !sub ||
      !username ||
      access.client_id !== clientId ||
      typeof access.exp !== 'number' ||
      typeof access.iat !== 'number'
    ) {
      return undefined
    }
    let email: string | undefined
    if (idToken) {
      try {
        // Of the session the access token was just found in, the id token needs no second look
        // at the database.
        const liveSession = stringClaim(access, 'origin_jti')
        const id = await verify(idToken, 'id', liveSession ? { liveSession } : undefined)
        if (id.sub === sub) email = stringClaim(id, 'email')
      } catch {
        // A stale or foreign id token only costs the email address; the access token decides.
      }
    }
    const groups = access['cognito:groups']
    return {
      sub,
      username,
      email,
      groups: Array.isArray(groups) ? groups.filter((g) => typeof g === 'string') : [],
      issuedAt: access.iat * 1000,
      expiresAt: access.exp * 1000,
    }
  }

  return {
    currentUser(request) {
      let answer = answers.get(request)
      if (!answer) {
        answer = cookieUser(request.headers.get('cookie'))
        answers.set(request, answer)
      }
      return answer
    },
    cookieUser,
    async bearerUser(authorization) {
      const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(authorization ?? '')?.[1]
      return token ? userOf(token, undefined) : undefined
    },
  }
}

/**
 * A verifier for tokens of a user pool that publishes its keys at `{issuer}/.well-known/
 * jwks.json`: Amazon Cognito itself (`aws`), or any issuer given with its JWKS address.
 * `jwks` pre-loads the keys (tests, or a pool in the same process).
 */
export function jwksTokenVerifier(
  options:
    | { kind: 'aws'; userPoolId: string; clientId: string; jwks?: Jwks }
    | { kind: 'issuer'; issuer: string; jwksUri?: string; clientId: string; jwks?: Jwks },
): TokenVerifier {
  if (options.kind === 'aws') {
    const access = CognitoJwtVerifier.create({
      userPoolId: options.userPoolId,
      clientId: options.clientId,
      tokenUse: 'access',
    })
    const id = CognitoJwtVerifier.create({
      userPoolId: options.userPoolId,
      clientId: options.clientId,
      tokenUse: 'id',
    })
    if (options.jwks) {
      access.cacheJwks(options.jwks)
      id.cacheJwks(options.jwks)
    }
    return (token, tokenUse) => (tokenUse === 'access' ? access : id).verify(token)
  }
  const { clientId } = options
  const verifiers = (['access', 'id'] as const).map((tokenUse) => {
    const verifier = JwtVerifier.create({
      issuer: options.issuer,
      jwksUri: options.jwksUri ?? `${options.issuer}/.well-known/jwks.json`,
      audience: null,
      customJwtCheck: ({ payload, header }) => {
        if (header.alg !== 'RS256') throw new Error('tokens of the user pool are RS256')
        validateCognitoJwtFields(payload, { tokenUse, clientId })
      },
    })
    if (options.jwks) verifier.cacheJwks(options.jwks)
    return verifier
  })
  const [access, id] = verifiers as [(typeof verifiers)[0], (typeof verifiers)[0]]
  return (token, tokenUse) => (tokenUse === 'access' ? access : id).verify(token)
}

function stringClaim(payload: JwtPayload, name: string): string | undefined {
  const value = payload[name]
  return typeof value === 'string' && value !== '' ? value : undefined
}
