import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { IdentitySettings } from '#server/config.ts'
import type { Mailer } from '#server/mail/mailer.ts'
import { memoryRateLimiter, redisRateLimiter } from '#server/rate-limiter.ts'
import type { AccountEvents } from './account-events.ts'
import { deleteExpiredCredentials, findCredentials } from './identity-pool/credentials.ts'
import { userPoolSubOf } from './identity-pool/identities.ts'
import { identityPoolPlugin } from './identity-pool/index.ts'
import { createGoogle, type Google } from './oauth/google.ts'
import { oauthPlugin } from './oauth/plugin.ts'
import { createSecretBox, loadOrCreateKeyFile, type SecretBox } from './secret-box.ts'
import { idTokenSubject } from './tokens/index.ts'
import { type KeyStore, openKeyStore } from './tokens/keys.ts'
import { createTokenVerifier, type TokenVerifier } from './tokens/verifier.ts'
import { poolNameOf, type UserPoolContext, type UserPoolLog } from './user-pool/context.ts'
import { sweepExpired } from './user-pool/maintenance.ts'
import {
  type AdminCreateUserInput,
  adminCreateUser,
  adminCreateUserInput,
} from './user-pool/operations/admin.ts'
import { userPoolPlugin } from './user-pool/plugin.ts'

export type IdentityOptions = {
  db: Kysely<DB>
  settings: IdentitySettings
  mailer: Mailer
  events: AccountEvents
  log: UserPoolLog
  now?: () => number
}

/** The identity services as the rest of the process sees them. */
export type Identity = {
  userPool: UserPoolContext
  keys: KeyStore
  /** Checks one of our tokens completely, revocation included (the web app's TokenVerifier). */
  verifyToken: TokenVerifier
  /** The identity pool's check of an id token in `Logins`. */
  verifyIdToken(token: string): Promise<{ sub: string } | undefined>
  /** AdminCreateUser from inside the process (tools, seeds, tests), without HTTP. */
  adminCreateUser(input: AdminCreateUserInput): ReturnType<typeof adminCreateUser>
  /** Seals the secrets of the identity pool's temporary credentials. */
  secretBox: SecretBox
  /** The identity behind a temporary access key (what the object store checks signatures with). */
  findCredentials(accessKeyId: string, sessionToken: string): ReturnType<typeof findCredentials>
  /** The user-pool `sub` behind an identity pool identity (who uploaded an object, say). */
  userPoolSubOf(identityId: string): Promise<string | undefined>
  /** Google's OpenID Connect, when GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET are set. */
  google: Google | undefined
}

export async function createIdentity(options: IdentityOptions): Promise<Identity> {
  const { settings } = options
  const now = options.now ?? Date.now
  const keys = await openKeyStore({
    file: settings.keysFile,
    keepRetiredMs: Math.max(settings.tokenTtlSeconds.id, settings.tokenTtlSeconds.access) * 1000,
    warn: (message) => options.log.warn({}, message),
    now,
  })
  const verifyToken = createTokenVerifier({
    db: options.db,
    keys,
    issuer: settings.issuer,
    clientId: settings.clientId,
    now,
  })
  const limiter = settings.limits.redisUrl
    ? redisRateLimiter({ url: settings.limits.redisUrl })
    : memoryRateLimiter({ now })
  const userPool: UserPoolContext = {
    limits: { settings: settings.limits, limiter },
    db: options.db,
    settings,
    poolName: poolNameOf(settings.userPoolId),
    mailer: options.mailer,
    events: options.events,
    keys,
    verifyToken,
    log: options.log,
    now,
  }
  const secretBox = createSecretBox(await loadOrCreateKeyFile(settings.credentialsKeyFile))
  return {
    userPool,
    keys,
    verifyToken,
    verifyIdToken: idTokenSubject(verifyToken),
    adminCreateUser: (input) => adminCreateUser(userPool, adminCreateUserInput.parse(input)),
    secretBox,
    findCredentials: (accessKeyId, sessionToken) =>
      findCredentials(
        options.db,
        secretBox,
        (identityId) => userPoolSubOf(options.db, settings, identityId),
        accessKeyId,
        sessionToken,
        now(),
      ),
    userPoolSubOf: (identityId) => userPoolSubOf(options.db, settings, identityId),
    google: settings.google && createGoogle(settings.google),
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The identity services (server/app.ts decorates the root instance with them). */
    identity: Identity
  }
}

export type IdentityPluginOptions = {
  identity: Identity
  /** How often expired sessions, codes and refresh tokens are deleted (default 10 minutes). */
  sweepIntervalMs?: number
}

/**
 * Mounts the user pool at /cognito-idp, the identity pool at /cognito-identity and the hosted
 * OAuth endpoints at /oauth2 and /logout, and keeps their tables tidy.
 */
export async function identityPlugin(
  app: FastifyInstance,
  options: IdentityPluginOptions,
): Promise<void> {
  const ctx = options.identity.userPool
  await app.register(userPoolPlugin, { prefix: '/cognito-idp', ctx })
  await app.register(identityPoolPlugin, {
    prefix: '/cognito-identity',
    settings: ctx.settings,
    db: ctx.db,
    secretBox: options.identity.secretBox,
    verifyIdToken: options.identity.verifyIdToken,
    now: ctx.now,
  })
  await app.register(oauthPlugin, { ctx, google: options.identity.google })
  const timer = setInterval(
    () => {
      Promise.all([sweepExpired(ctx), deleteExpiredCredentials(ctx.db, ctx.now())]).catch(
        (error: unknown) => {
          app.log.warn({ err: error }, 'user pool sweep failed')
        },
      )
    },
    options.sweepIntervalMs ?? 10 * 60 * 1000,
  )
  timer.unref()
  app.addHook('onClose', async () => {
    clearInterval(timer)
    await ctx.limits.limiter.close()
  })
}
