import path from 'node:path'
import type { TLSSocket } from 'node:tls'
import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import pinoPretty from 'pino-pretty'
import type { ServerBuild } from 'react-router'
import type { Database } from '#db/database.ts'
import type { DB } from '#db/schema.ts'
import type { ExerciseServices } from '#features/exercises/answers.server.ts'
import { RUNNER_WORKER_PATH } from '#features/exercises/runner-assets.ts'
import { REPORTS_PER_USER_PER_HOUR } from '#features/moderation/moderation.server.ts'
import { planPrice } from '#features/plans/plan-catalogue.ts'
import type { Billing } from '#features/plans/subscription-records.server.ts'
import {
  createProfileForAccount,
  deleteProfile,
  usernameRefusal,
} from '#features/users/accounts.server.ts'
import { apiPlugin } from './api/index.ts'
import type { ModerationServices } from './api/moderation.ts'
import { type CodeSandbox, createCodeSandbox } from './code-sandbox/sandbox.ts'
import { onTheFlyCompression } from './compression.ts'
import type { Config } from './config.ts'
import { pagePolicy, runnerWorkerPolicy } from './content-security-policy.ts'
import { registerHealth } from './health.ts'
import type { AccountEvents } from './identity/account-events.ts'
import { createIdentity, identityPlugin } from './identity/index.ts'
import type { TokenVerifier } from './identity/tokens/verifier.ts'
import { createMailer } from './mail/create-mailer.ts'
import { registerDevMailbox } from './mail/dev-mailbox.ts'
import { createMarkdownRenderer } from './markdown-renderer.ts'
import { scheduleMessageDigest } from './message-digest.ts'
import { createPageCache } from './page-cache.ts'
import { createEmbeddedGateway } from './payments/embedded-gateway.ts'
import { createStripeGateway } from './payments/stripe-gateway.ts'
import { memoryRateLimiter, redisRateLimiter } from './rate-limiter.ts'
import { registerReactRouter } from './react-router.ts'
import { registerRealtime } from './realtime/index.ts'
import { CLOSE_CODES, type RealtimeService } from './realtime/protocol.ts'
import { registerLiveBadge } from './realtime-badge.ts'
import { scheduleRenewals } from './renewals.ts'
import { serializeRequest } from './request-log.ts'
import { ownImageStore, siteStorage } from './site-storage.ts'
import {
  buildStorageOrigin,
  isStoragePath,
  openObjectStore,
  STORAGE_MOUNT,
  scheduleUploadExpiry,
  sendUnroutableS3Request,
  storagePlugin,
} from './storage/index.ts'
import { registerStripeWebhook } from './stripe-webhook.ts'
import { createWebSession } from './web-session/service.ts'

export type ServerOptions = {
  config: Config
  database: Database
  /** The built app, or a loader of it (development reloads it on every request). */
  build: ServerBuild | (() => Promise<ServerBuild>)
  /** Where the browser assets are; absent in development, where Vite serves them. */
  clientDirectory?: string
  /** Development only: Vite's dev server, mounted as middleware for assets and HMR. */
  devServer?: { middlewares: import('node:http').RequestListener; close(): Promise<void> }
  logger?: boolean
  /** Log lines for a person at a terminal (pino-pretty) instead of JSON for a collector. */
  prettyLogs?: boolean
  /**
   * The one time source (ms since the epoch) for everything that expires or counts: tokens,
   * codes, TOTP steps, lockouts, cached pages. The system clock unless a test moves time on.
   */
  now?: () => number
}

const IMMUTABLE = 'public, max-age=31536000, immutable'

export async function buildServer(options: ServerOptions): Promise<FastifyInstance> {
  const { config, database } = options
  const now = options.now ?? Date.now
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'req.headers["x-amz-security-token"]',
            ],
            // OAuth codes, and presigned URLs' signatures and tokens, travel in query strings.
            serializers: { req: serializeRequest },
            ...(options.prettyLogs && {
              stream: pinoPretty({
                sync: true,
                translateTime: 'SYS:HH:MM:ss',
                ignore: 'pid,hostname',
              }),
            }),
          },
    // Fastify's answers to requests it cannot route (bad URL encoding and the like).
    frameworkErrors: (error, request, reply) => {
      if (isStoragePath(request.url)) return sendUnroutableS3Request(request, reply as FastifyReply)
      const status = error.statusCode ?? 400
      const message =
        error.code === 'FST_ERR_BAD_URL' ? 'URL の形式が正しくありません' : error.message
      ;(reply as FastifyReply)
        .code(status)
        .type('text/plain; charset=utf-8')
        .send(`${status} ${message}`)
    },
    requestTimeout: 60_000,
    // A number, list or boolean; typed as one of them so Fastify's overloads pick HTTP/1.
    trustProxy: config.trustProxy as boolean,
  })

  app.addHook('onSend', async (request, reply) => {
    reply.header('x-content-type-options', 'nosniff')
    reply.header('referrer-policy', 'strict-origin-when-cross-origin')
    // Only an answer that came over TLS may pin TLS (decision 020): the plain port must not.
    if ((request.raw.socket as TLSSocket).encrypted) {
      reply.header('strict-transport-security', 'max-age=31536000')
    }
  })
  app.addHook('onClose', async () => {
    await database.close()
  })
  // Closing ends the connections idle at that moment; one still answering would then stay open
  // until its keep-alive timeout and hold close() up: end it as soon as its answer is sent.
  let closing = false
  app.addHook('preClose', async () => {
    closing = true
  })
  app.addHook('onResponse', async (request) => {
    if (closing) request.raw.socket?.end()
  })
  app.decorate('now', now)

  // First: @fastify/websocket answers upgrades on routes registered after it.
  const realtime = await registerRealtime(app, {
    ...config.realtime,
    siteOrigin: new URL(config.public.baseUrl).origin,
    now,
    authenticate: async (request) => {
      const user = await sessionUser(sessions, request)
      return user && { userId: user.sub, expiresAt: user.expiresAt }
    },
  })
  registerLiveBadge(app, database.db, realtime)
  registerHealth(app, database)
  const markdown = createMarkdownRenderer({ deadlineMs: config.markdownRenderDeadlineMs })
  app.addHook('onClose', () => markdown.close())
  // Its child processes start on the first code run of each language, not here.
  const codeSandbox = createCodeSandbox(config.codeSandbox)
  app.decorate('codeSandbox', codeSandbox)
  app.addHook('onClose', () => codeSandbox.close())
  const mailer = createMailer({
    db: database.db,
    smtpUrl: config.mail.smtpUrl,
    from: config.mail.from,
    log: app.log,
    mailboxUrl:
      config.public.devMailboxPath && `${config.public.baseUrl}${config.public.devMailboxPath}`,
  })
  app.decorate('mailer', mailer)
  app.addHook('onClose', () => mailer.close())
  registerDevMailbox(app, database.db, config.public.devMailboxPath)
  const identity = await createIdentity({
    db: database.db,
    settings: config.identity,
    mailer,
    events: accountEvents(database.db, realtime),
    log: app.log,
    now,
  })
  app.decorate('identity', identity)
  await app.register(identityPlugin, { identity })
  const sessions = webSessions(config, identity.verifyToken)
  const store = await openObjectStore(config.storage, database.db)
  app.addHook('onClose', () => store.close())
  const storage = siteStorage(
    store,
    config.storage,
    identity,
    markdown,
    config.identity.oauth.siteOrigins,
  )
  app.decorate('ownImages', ownImageStore(store, config.storage, database.db, config.identity))
  // The abuse limits of the contact form, direct messages and exercises (the user pool keeps its
  // own): shared through Redis when set.
  const limiter = config.identity.limits.redisUrl
    ? redisRateLimiter({ url: config.identity.limits.redisUrl })
    : memoryRateLimiter({ now })
  app.addHook('onClose', () => limiter.close())
  const exercises: ExerciseServices = {
    verifier: codeSandbox,
    limits: { limiter, ...config.exercises },
    warn: (details, message) => app.log.warn(details, message),
  }
  // Reports and moderation (decision 039): the hourly report limit, and a suspension's effect
  // on open sockets, on every instance.
  const moderation: ModerationServices = {
    limits: { limiter, perUserPerHour: REPORTS_PER_USER_PER_HOUR },
    now,
    publish: realtime.publish,
    disconnect: (userIds) => realtime.disconnect(userIds, CLOSE_CODES.accountSuspended),
  }
  // Guests' pages and guests' answers of public /api reads, kept a few seconds (decision 044).
  const pageCache = createPageCache({
    maxEntries: config.env === 'development' ? 0 : config.pageCacheMaxEntries,
    now,
  })
  await app.register(async (api) => {
    await api.register(fastifyCompress, onTheFlyCompression)
    await api.register(apiPlugin, {
      prefix: '/api',
      db: database.db,
      siteOrigin: new URL(config.public.baseUrl).origin,
      markdown,
      images: storage.images,
      messages: { limits: { limiter, ...config.messages }, now, publish: realtime.publish },
      user: (request) => sessionUser(sessions, request),
      exercises,
      moderation,
      guestAnswers: pageCache,
    })
  })
  scheduleUploadExpiry(app, store, config.storage)
  scheduleMessageDigest(app, {
    db: database.db,
    mail: mailer,
    siteUrl: config.public.baseUrl,
    siteTitle: config.public.siteTitle,
    now,
  })
  const endpoint = { store, settings: config.storage, findCredentials: identity.findCredentials }
  await app.register(storagePlugin, { prefix: STORAGE_MOUNT, ...endpoint })
  if (config.storage.origin) {
    app.decorate('storageOrigin', await buildStorageOrigin(app, endpoint, options.logger !== false))
  }

  if (options.devServer) {
    const { devServer } = options
    const middie = (await import('@fastify/middie')).default
    await app.register(middie)
    app.use(devServer.middlewares)
    app.addHook('onClose', () => devServer.close())
  }
  if (options.clientDirectory) {
    await app.register(fastifyStatic, {
      root: path.resolve(options.clientDirectory),
      // Register a route per built file, so every other path falls through to the app.
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text asset (vite.config.ts): sent by Accept-Encoding.
      preCompressed: true,
      setHeaders(reply, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`)
        reply.header('cache-control', hashed ? IMMUTABLE : 'public, max-age=3600')
        // The code runners' Workers carry a policy of their own (decision 032).
        if (filePath.includes(path.normalize(RUNNER_WORKER_PATH))) {
          reply.header('content-security-policy', runnerWorkerPolicy(reply.request.host))
        }
      },
    })
  }

  const stripe = config.payments.stripe
  const gateway = stripe ? createStripeGateway(stripe) : createEmbeddedGateway(database.db, now)
  const billing: Billing = {
    db: database.db,
    gateway,
    prices: {
      'premium-monthly': planPrice('premium-monthly', config.payments.prices['premium-monthly']),
      'premium-yearly': planPrice('premium-yearly', config.payments.prices['premium-yearly']),
    },
    now,
  }
  if (gateway.kind === 'stripe') {
    registerStripeWebhook(app, { billing, gateway, mail: mailer })
  } else if (config.env === 'production') {
    app.log.warn(
      config.payments.embeddedOnPublicSite
        ? 'payments: the embedded gateway takes test cards only, on a public site (ALLOW_EMBEDDED_PAYMENTS=true)'
        : 'payments: the embedded gateway takes test cards only (4242 4242 4242 4242); no money moves',
    )
  }
  scheduleRenewals(app, billing, mailer, config.payments.renewalIntervalMs)

  registerReactRouter(app, {
    build: options.build,
    mode: config.env === 'development' ? 'development' : 'production',
    context: {
      db: database.db,
      markdown,
      settings: config.public,
      auth: sessions,
      storage,
      mail: mailer,
      exercises,
      contact: {
        limits: { limiter, ...config.contact },
        admins: config.identity.admins,
        now,
      },
      plans: { billing },
      log: app.log,
      realtime,
      moderation,
    },
    pageCache,
    policy: pagePolicy(config),
  })
  return app
}

/**
 * Sessions of the web app (app/lib/auth): who is signed in, read from Amplify's cookies,
 * and the identity settings the browser configures Amplify with.
 */
function webSessions(config: Config, verify: TokenVerifier) {
  return createWebSession(config.identity, {
    verify,
    // What the embedded identity services answer today; the settings page and Amplify's
    // configuration follow these.
    embedded: { identityPool: true, totpMfa: true, rememberedDevices: true },
    httpsPort: config.https?.port,
  })
}

/**
 * Who sends a request to /api or /realtime: the user of its `Authorization: Bearer` token, or
 * else of its session cookies (the same session the pages read). A request that names a bearer
 * token is that token's, valid or not: it never falls back to cookies.
 */
function sessionUser(sessions: ReturnType<typeof webSessions>, request: FastifyRequest) {
  if (request.headers.authorization !== undefined) {
    return sessions.bearerUser(request.headers.authorization)
  }
  return sessions.cookieUser(request.headers.cookie)
}

/** What the user pool asks of, and tells, the product's accounts (features/users). */
function accountEvents(db: Kysely<DB>, realtime: RealtimeService): AccountEvents {
  return {
    usernameRefusal: (username) => usernameRefusal(db, username),
    accountConfirmed: (account) => createProfileForAccount(db, account),
    accountDeleted: (sub) => deleteProfile(db, sub),
    // Every socket of the user closes as expired: those of sessions still valid reconnect at
    // once; the ended session's page holds no cookies to reconnect with.
    sessionsEnded: (sub) => realtime.disconnect([sub], CLOSE_CODES.sessionExpired),
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The server's time source (ServerOptions.now): what routes read the time from. */
    now: () => number
    /** Learners' code re-run on the server (server/code-sandbox/, decision 033). */
    codeSandbox: CodeSandbox
  }
}
