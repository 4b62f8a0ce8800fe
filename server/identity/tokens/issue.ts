import { randomUUID } from 'node:crypto'
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
}

/** The sign-in session the tokens belong to. */
export type TokenSession = {
  clientId: string
  originJti: string
  /** When the user authenticated (epoch ms); refreshes keep it. */
  authTime: number
  deviceKey: string | null
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
      scope: 'aws.cognito.signin.user.admin',
      auth_time: authTime,
      exp: iat + lifetimes.accessTtlSeconds,
      iat,
      jti: randomUUID(),
      username: subject.username,
      ...(session.deviceKey && { device_key: session.deviceKey }),
    },
    key,
  )
  const id = signJwt(
    {
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
