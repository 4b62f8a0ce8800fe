import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { IdentitySettings } from '#server/config.ts'
import type { AccountEvents } from '#server/identity/account-events.ts'
import type { KeyStore } from '#server/identity/tokens/keys.ts'
import type { TokenVerifier } from '#server/identity/tokens/verifier.ts'
import type { Mailer } from '#server/mail/mailer.ts'
import type { AbuseLimits } from './abuse-limits.ts'

/** The part of a pino/Fastify logger the user pool uses. Never give it a secret. */
export type UserPoolLog = {
  info(details: object, message: string): void
  warn(details: object, message: string): void
}

/** Everything an operation of the user pool needs, built once by `createUserPool`. */
export type UserPoolContext = {
  db: Kysely<DB>
  settings: IdentitySettings
  /** The part of the pool id after `_`: the SRP realm the clients use. */
  poolName: string
  mailer: Mailer
  events: AccountEvents
  keys: KeyStore
  verifyToken: TokenVerifier
  log: UserPoolLog
  now: () => number
  limits: AbuseLimits
  /** The client address of the request being answered (Fastify's request.ip); unset in-process. */
  sourceIp?: string
}

export function poolNameOf(userPoolId: string): string {
  return userPoolId.slice(userPoolId.indexOf('_') + 1)
}
