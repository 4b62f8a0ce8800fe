import { createHash, randomUUID } from 'node:crypto'
import { signJwt } from './jwt.ts'
import type { KeyStore } from './keys.ts'

/** Who the tokens are about, as the user pool knows them at the moment of issue. */
export type TokenSubject = {
  sub: string
  username: string
  email: string | null
  emailVerified: boolean
  phoneNumber: string | null
  phoneNumberVerified: boolean
  groups: string[]
  /** The other attributes readable by the app client (name, locale, custom:…). */
  attributes: Record<string, string>
  /** External identities linked to the account (Google); the id token's `identities`. */
  identities?: LinkedIdentity[]
}

export type LinkedIdentity = { providerName: string; userId: string; dateCreated: number }

/** The sign-in session the tokens belong to. */
export type TokenSession = {
  clientId: string
  originJti: string
  /** When the user authenticated (epoch ms); refreshes keep it. */
  authTime: number
  deviceKey: string | null
  /**
   * A sign-in through the hosted OAuth endpoints: the scopes granted (the access token's
   * `scope`) and the client's `nonce`, if it sent one. Absent for the API's sign-ins.
   */
  oauth?: { scope: string; nonce?: string }
}

export type TokenLifetimes = { issuer: string; idTtlSeconds: number; accessTtlSeconds: number }

export type IssuedTokens = {
  AccessToken: string
  IdToken: string
  ExpiresIn: number
  TokenType: 'Bearer'
}

/** Signs an access and an id token with the claims Amazon Cognito puts in them. */
export function issueTokens(
  keys: KeyStore,
  lifetimes: TokenLifetimes,
  subject: TokenSubject,
  session: TokenSession,
  now: number,
): IssuedTokens {
  const key = keys.signingKey()
  const iat = Math.floor(now / 1000)
  const authTime = Math.floor(session.authTime / 1000)
  const eventId = randomUUID()
  const groups = subject.groups.length > 0 ? { 'cognito:groups': subject.groups } : {}

  const access = signJwt(
    {
      sub: subject.sub,
      ...groups,
      iss: lifetimes.issuer,
      client_id: session.clientId,
      origin_jti: session.originJti,
      event_id: eventId,
      token_use: 'access',
      scope: session.oauth?.scope ?? 'aws.cognito.signin.user.admin',
      auth_time: authTime,
      exp: iat + lifetimes.accessTtlSeconds,
      iat,
      jti: randomUUID(),
      ...(session.oauth && { version: 2 }),
      username: subject.username,
      ...(session.deviceKey && { device_key: session.deviceKey }),
    },
    key,
  )
  const identities = subject.identities?.length
    ? {
        identities: subject.identities.map((identity) => ({
          dateCreated: String(identity.dateCreated),
          userId: identity.userId,
          providerName: identity.providerName,
          providerType: identity.providerName,
          issuer: null,
          primary: 'true',
        })),
      }
    : {}
  const id = signJwt(
    {
      ...(session.oauth && { at_hash: leftHalfHash(access) }),
      sub: subject.sub,
      ...groups,
      ...(subject.email !== null && { email_verified: subject.emailVerified }),
      iss: lifetimes.issuer,
      ...(subject.phoneNumber !== null && {
        phone_number_verified: subject.phoneNumberVerified,
      }),
      'cognito:username': subject.username,
      origin_jti: session.originJti,
      aud: session.clientId,
      event_id: eventId,
      token_use: 'id',
      auth_time: authTime,
      ...(session.oauth?.nonce && { nonce: session.oauth.nonce }),
      ...identities,
      ...subject.attributes,
      ...(subject.phoneNumber !== null && { phone_number: subject.phoneNumber }),
      exp: iat + lifetimes.idTtlSeconds,
      iat,
      jti: randomUUID(),
      ...(subject.email !== null && { email: subject.email }),
    },
    key,
  )
  return {
    AccessToken: access,
    IdToken: id,
    ExpiresIn: lifetimes.accessTtlSeconds,
    TokenType: 'Bearer',
  }
}

/** OpenID Connect's `at_hash`: the left half of the access token's SHA-256, base64url. */
function leftHalfHash(token: string): string {
  return createHash('sha256').update(token).digest().subarray(0, 16).toString('base64url')
}
