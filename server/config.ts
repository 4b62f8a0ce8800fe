import { existsSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import {
  type CodeSandboxSettings,
  DEFAULT_QUEUED_PER_LEARNER,
  DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
  DEFAULT_SANDBOX_QUEUE,
  DEFAULT_SANDBOX_WAIT_MS,
  sandboxWorkers,
} from './code-sandbox/settings.ts'

/** The settings the browser may see: nothing secret belongs here. */
export type PublicSettings = {
  baseUrl: string
  siteTitle: string
  stripePublishableKey: string
  apiGatewayUrl: string
  /**
   * Without SMTP_URL mail is not sent: the development mailbox (served to this machine only)
   * is where codes are read, and the auth screens say so. Unset when mail is delivered.
   */
  devMailboxPath: string | undefined
}

const SECRET_VARIABLES = new Set([
  'DATABASE_URL',
  'SMTP_URL',
  'GOOGLE_CLIENT_SECRET',
  'STORAGE_ROOT_SECRET_ACCESS_KEY',
  'STORAGE_S3_SECRET_ACCESS_KEY',
  'REDIS_URL',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
])

/** Where the outbox is shown when mail is not sent (server/mail/dev-mailbox.ts). */
export const DEV_MAILBOX_PATH = '/dev/mailbox'

const DEFAULT_SITE_TITLE = 'テックラボ はじめてのプログラミング講座'

/** A decimal whole number within bounds; no blanks, signs, exponents or hex. */
function wholeNumber(what: string, max = Number.MAX_SAFE_INTEGER) {
  return z
    .string()
    .regex(/^\d+$/, `must be ${what}`)
    .transform(Number)
    .pipe(z.number().max(max, `must be ${what}`))
}

const port = wholeNumber('a port number between 0 and 65535', 65535)
const milliseconds = wholeNumber('a whole number of milliseconds')
const seconds = wholeNumber('a whole number of seconds')

/** An S3 key prefix for an access level: non-empty, ending in a slash, no leading slash. */
const levelPrefix = z
  .string()
  .regex(/^[^/\s][^\s]*\/$/, 'must be a key prefix ending in "/" (such as public/)')

const SEVEN_DAYS_S = 7 * 24 * 3600

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((url) => url.replace(/\/+$/, ''))

/** localhost and the loopback addresses: a site only this machine can reach. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '[::1]'
  )
}

/** Comma-separated exact URLs (OAuth redirect targets are compared as written). */
const urlList = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(
    z.array(
      z.url({ protocol: /^https?$/, error: 'must be comma-separated http:// or https:// URLs' }),
    ),
  )

const environmentSchema = z.object({
  NODE_ENV: z
    .enum(['production', 'development', 'test'], {
      error: 'must be production, development or test',
    })
    .default('production'),
  HOST: z.string().min(1, 'must not be empty').default('localhost'),
  PORT: port.default(3000),
  DATA_DIR: z.string().min(1, 'must not be empty').default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave it unset for SQLite)')
    .optional(),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
      error: 'must be one of fatal, error, warn, info, debug, trace, silent',
    })
    .default('info'),
  SEED_DEMO_CONTENT: z.enum(['auto', 'never'], { error: 'must be auto or never' }).default('auto'),
  SHUTDOWN_GRACE_MS: milliseconds.default(10_000),
  PAGE_CACHE_MAX_ENTRIES: wholeNumber('a whole number').default(500),
  MARKDOWN_RENDER_DEADLINE_MS: milliseconds.default(10_000),
  // The code sandbox's pools (docs/decisions/033); unset, sized from the machine's cores.
  CODE_SANDBOX_JS_WORKERS: wholeNumber('a whole number from 1 to 64', 64)
    .pipe(z.number().min(1, 'must be a whole number from 1 to 64'))
    .optional(),
  CODE_SANDBOX_PYTHON_WORKERS: wholeNumber('a whole number from 1 to 64', 64)
    .pipe(z.number().min(1, 'must be a whole number from 1 to 64'))
    .optional(),
  CODE_SANDBOX_QUEUE: wholeNumber('a whole number').default(DEFAULT_SANDBOX_QUEUE),
  CODE_SANDBOX_WAIT_MS: milliseconds.default(DEFAULT_SANDBOX_WAIT_MS),
  // Each learner's share of a language's pool (docs/decisions/045).
  CODE_SANDBOX_RUN_SECONDS_PER_LEARNER_PER_MINUTE: wholeNumber('a whole number from 1 to 600', 600)
    .pipe(z.number().min(1, 'must be a whole number from 1 to 600'))
    .default(DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE),
  CODE_SANDBOX_QUEUED_PER_LEARNER: wholeNumber('a whole number from 1 to 1000', 1000)
    .pipe(z.number().min(1, 'must be a whole number from 1 to 1000'))
    .default(DEFAULT_QUEUED_PER_LEARNER),
  PUBLIC_BASE_URL: httpUrl.optional(),
  SITE_TITLE: z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(100, 'must be at most 100 characters')
    .default(DEFAULT_SITE_TITLE),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .regex(/^pk_(test|live)_[A-Za-z0-9_]+$/, 'must look like pk_test_… or pk_live_…')
    .default('pk_test_embedded'),
  API_GATEWAY_URL: httpUrl.optional(),

  IDENTITY_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region name such as ap-northeast-1')
    .default('ap-northeast-1'),
  // Pool ids keep Cognito's shapes: clients parse the region out of them.
  USER_POOL_ID: z
    .string()
    .max(55, 'must be at most 55 characters')
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'must look like ap-northeast-1_AbC123')
    .optional(),
  USER_POOL_CLIENT_ID: z
    .string()
    .regex(/^[\w+]{1,128}$/, 'must be 1-128 letters, digits or underscores')
    .default('techlabwebclient0000000000'),
  IDENTITY_POOL_ID: z
    .string()
    .regex(
      /^[\w-]+:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      'must look like ap-northeast-1:00000000-0000-0000-0000-000000000000',
    )
    .optional(),
  ID_TOKEN_TTL_S: wholeNumber('a whole number of seconds').default(3600),
  ACCESS_TOKEN_TTL_S: wholeNumber('a whole number of seconds').default(3600),
  REFRESH_TOKEN_TTL_S: wholeNumber('a whole number of seconds').default(30 * 24 * 3600),
  GUEST_CREDENTIALS: z
    .enum(['enabled', 'disabled'], { error: 'must be enabled or disabled' })
    .default('enabled'),
  ADMIN_USERS: z.string().default(''),
  // Plans (docs/decisions/038): prices before the 10 % consumption tax, in yen.
  PLAN_PREMIUM_MONTHLY_YEN: wholeNumber('a whole number of yen', 1_000_000).default(980),
  PLAN_PREMIUM_YEARLY_YEN: wholeNumber('a whole number of yen', 10_000_000).default(9800),
  PAYMENT_GATEWAY: z
    .enum(['embedded', 'stripe'], { error: 'must be embedded or stripe' })
    .default('embedded'),
  // Stripe mode (docs/decisions/040): all four are required when PAYMENT_GATEWAY=stripe.
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/, 'must look like sk_test_… or sk_live_…')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_[A-Za-z0-9_+/=]+$/, 'must look like whsec_…')
    .optional(),
  STRIPE_PRICE_PREMIUM_MONTHLY: z
    .string()
    .regex(/^price_[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_…)')
    .optional(),
  STRIPE_PRICE_PREMIUM_YEARLY: z
    .string()
    .regex(/^price_[A-Za-z0-9_]+$/, 'must be a Stripe price id (price_…)')
    .optional(),
  /** Another Stripe API endpoint (stripe-mock, a test's stand-in); Stripe's own when unset. */
  STRIPE_API_URL: httpUrl.optional(),
  /** The embedded test gateway on a public site: refused unless this says so. */
  ALLOW_EMBEDDED_PAYMENTS: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false'),
  RENEWAL_INTERVAL_MS: wholeNumber('a whole number of milliseconds').default(60_000),
  USER_POOL_MFA: z
    .enum(['off', 'optional', 'on'], { error: 'must be off, optional or on' })
    .default('optional'),
  PREVENT_USER_EXISTENCE_ERRORS: z
    .enum(['enabled', 'legacy'], { error: 'must be enabled or legacy' })
    .default('enabled'),
  // Abuse limits (docs/decisions/021): counts per window; the windows are fixed.
  SIGN_UPS_PER_IP_PER_HOUR: wholeNumber('a whole number').default(50),
  MAILS_PER_ADDRESS_PER_HOUR: wholeNumber('a whole number').default(5),
  MAILS_PER_IP_PER_HOUR: wholeNumber('a whole number').default(100),
  CONTACT_MESSAGES_PER_IP_PER_HOUR: wholeNumber('a whole number').default(10),
  CONTACT_MESSAGES_PER_EMAIL_PER_HOUR: wholeNumber('a whole number').default(5),
  DM_MESSAGES_PER_USER_PER_MINUTE: wholeNumber('a whole number').default(30),
  EXERCISE_ANSWERS_PER_USER_PER_MINUTE: wholeNumber('a whole number').default(30),
  CODE_SUBMISSIONS_PER_USER_PER_MINUTE: wholeNumber('a whole number').default(10),
  FAILED_SIGN_INS_PER_SOURCE: wholeNumber('a whole number').default(5),
  FAILED_SIGN_INS_PER_USER_PER_DAY: wholeNumber('a whole number').default(100),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  // Realtime (/realtime, docs/decisions/036): sockets one user may hold open on one instance,
  // and how often each is pinged (one that has not answered the last ping is closed).
  REALTIME_SOCKETS_PER_USER: wholeNumber('a whole number from 1 to 1000', 1000)
    .pipe(z.number().min(1, 'must be a whole number from 1 to 1000'))
    .default(8),
  REALTIME_HEARTBEAT_MS: wholeNumber('a whole number of milliseconds from 100', 3_600_000)
    .pipe(z.number().min(100, 'must be a whole number of milliseconds from 100'))
    .default(30_000),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d{1,2}|[\w.:/]+(,\s*[\w.:/]+)*)$/,
      'must be true, false, a hop count, or comma-separated proxy addresses/CIDRs',
    )
    .default('false'),
  USER_POOL_REMEMBER_DEVICES: z
    .enum(['always', 'user_opt_in'], { error: 'must be always or user_opt_in' })
    .default('user_opt_in'),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z
    .string()
    .min(3, 'must be a mail address')
    .default('テックラボ <no-reply@techlab.invalid>'),
  IDENTITY_ENDPOINTS: z
    .enum(['embedded', 'aws'], { error: 'must be embedded or aws' })
    .default('embedded'),
  GOOGLE_CLIENT_ID: z.string().min(1).optional(),
  GOOGLE_CLIENT_SECRET: z.string().min(1).optional(),
  // Google's OpenID Connect issuer; tests point it at a local provider.
  GOOGLE_ISSUER: httpUrl
    .refine(
      (url) =>
        url.startsWith('https:') ||
        /^http:\/\/(localhost|127\.0\.0\.1|\[::1\])[:/]/.test(`${url}/`),
      'must be an https:// URL (plain http only on this machine, for tests)',
    )
    .default('https://accounts.google.com'),
  OAUTH_CALLBACK_URLS: urlList.optional(),
  OAUTH_SIGN_OUT_URLS: urlList.optional(),
  HTTPS_PORT: port.optional(),
  TLS_CERT_FILE: z.string().min(1, 'must not be empty').optional(),
  TLS_KEY_FILE: z.string().min(1, 'must not be empty').optional(),
  USER_POOL_KEYS_FILE: z.string().min(1, 'must not be empty').optional(),
  CREDENTIALS_KEY_FILE: z.string().min(1, 'must not be empty').optional(),

  STORAGE_BACKEND: z.enum(['fs', 's3'], { error: 'must be fs or s3' }).default('fs'),
  STORAGE_ENDPOINTS: z
    .enum(['embedded', 'aws'], { error: 'must be embedded or aws' })
    .default('embedded'),
  // S3's own bucket naming rules (3-63 lowercase letters, digits, dots, hyphens).
  STORAGE_BUCKET: z
    .string()
    .regex(
      /^(?!\d+\.\d+\.\d+\.\d+$)(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      'must be an S3 bucket name (3-63 lowercase letters, digits, dots and hyphens)',
    )
    .default('techlab'),
  STORAGE_DIR: z.string().min(1, 'must not be empty').optional(),
  STORAGE_FSYNC: z.enum(['on', 'off'], { error: 'must be on or off' }).default('on'),
  STORAGE_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d$/, 'must be an AWS region name such as ap-northeast-1')
    .optional(),
  STORAGE_ROOT_ACCESS_KEY_ID: z
    .string()
    .regex(/^[A-Z0-9]{16,128}$/, 'must be 16-128 uppercase letters or digits')
    .optional(),
  STORAGE_ROOT_SECRET_ACCESS_KEY: z.string().min(16, 'must be at least 16 characters').optional(),
  STORAGE_PUBLIC_PREFIX: levelPrefix.default('public/'),
  STORAGE_PROTECTED_PREFIX: levelPrefix.default('protected/'),
  STORAGE_PRIVATE_PREFIX: levelPrefix.default('private/'),
  STORAGE_MULTIPART_EXPIRY_S: seconds.default(SEVEN_DAYS_S),
  STORAGE_PRESIGN_MAX_S: seconds
    .pipe(z.number().min(1).max(SEVEN_DAYS_S, "must be at most 604800 (7 days, S3's limit)"))
    .default(SEVEN_DAYS_S),
  // Where browsers read public objects: another origin than the site's (decision 019).
  STORAGE_PUBLIC_URL: httpUrl
    .refine((url) => !/[?#]/.test(url), 'must be a URL without a query or fragment')
    .optional(),
  STORAGE_S3_ENDPOINT: httpUrl.optional(),
  STORAGE_S3_REGION: z.string().min(1, 'must not be empty').optional(),
  STORAGE_S3_BUCKET: z.string().min(3, 'must be a bucket name').optional(),
  STORAGE_S3_ACCESS_KEY_ID: z.string().min(1, 'must not be empty').optional(),
  STORAGE_S3_SECRET_ACCESS_KEY: z.string().min(1, 'must not be empty').optional(),
  STORAGE_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('true'),
  STORAGE_LISTEN_PORT: port.optional(),
  // A DNS name (lowercase labels): `{bucket}.{name}` is virtual-hosted style on that port.
  STORAGE_HOSTNAME: z
    .string()
    .regex(
      /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/,
      'must be a lowercase host name such as s3.example.com',
    )
    .optional(),
})

export type Config = {
  env: 'production' | 'development' | 'test'
  host: string
  port: number
  dataDir: string
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL']
  /**
   * Fastify's `trustProxy`: whose X-Forwarded-For to believe for the client address (the abuse
   * limits key on it). `false` unless the app sits behind a proxy that sets it.
   */
  trustProxy: boolean | number | string
  seedDemoContent: 'auto' | 'never'
  shutdownGraceMs: number
  pageCacheMaxEntries: number
  /** How long one user text may take to render on the renderer's thread (decision 022). */
  markdownRenderDeadlineMs: number
  /** The server's runners of learners' code (docs/decisions/033). */
  codeSandbox: CodeSandboxSettings
  public: PublicSettings
  identity: IdentitySettings
  mail: { smtpUrl: string | undefined; from: string }
  /** The contact form's hourly limits (docs/decisions/030). */
  contact: { messagesPerIpPerHour: number; messagesPerEmailPerHour: number }
  /** Plans and card payments (docs/decisions/038). */
  payments: {
    gateway: 'embedded' | 'stripe'
    /** Set in Stripe mode: the keys, the price of each plan, and where the API is. */
    stripe:
      | {
          secretKey: string
          webhookSecret: string
          prices: { 'premium-monthly': string; 'premium-yearly': string }
          api: { host: string; port: number; protocol: 'http' | 'https' } | undefined
        }
      | undefined
    /** Prices before tax, in yen. */
    prices: { 'premium-monthly': number; 'premium-yearly': number }
    /** How often the renewal scheduler looks for periods that have ended. */
    renewalIntervalMs: number
    /** Set when the embedded test gateway runs on a public site (a warning at start-up). */
    embeddedOnPublicSite: boolean
  }
  /** Direct messages (docs/decisions/035): sends and edits per user per minute. */
  messages: { perUserPerMinute: number }
  /**
   * The `/realtime` WebSocket endpoint (docs/decisions/036): events fan out through Redis when
   * `redisUrl` is set (REDIS_URL), in this process otherwise.
   */
  realtime: { redisUrl: string | undefined; socketsPerUser: number; heartbeatMs: number }
  /** Each learner's answers, and code submissions among them, per minute (docs/decisions/031). */
  exercises: { answersPerMinute: number; codeSubmissionsPerMinute: number }
  storage: StorageSettings
  /**
   * A second, TLS listener of the same app (HTTPS_PORT): Amplify's hosted sign-in only speaks
   * https. Without certificate files a self-signed one is generated in the data directory.
   */
  https: { port: number; certFile: string; keyFile: string; selfSigned: boolean } | undefined
}

/** The S3-compatible endpoint at /s3 and where it keeps the bytes (docs/decisions/011). */
export type StorageSettings = {
  /** The site's bucket, created at start-up. */
  bucket: string
  /** `embedded`: browsers upload to this site's /s3; `aws`: to Amazon S3 (the same bucket name). */
  browserEndpoint: 'embedded' | 'aws'
  /** The region clients sign for (the credential scope's region). */
  region: string
  /**
   * STORAGE_PUBLIC_URL: the base URL of public objects on an origin of their own (a host name
   * proxied to this endpoint's bucket, or a CDN or bucket website); `{publicUrl}/{key}`.
   * Unset, pages link to `/s3/{bucket}/{key}` on the site's own origin.
   */
  publicUrl: string | undefined
  /** The credential that may do everything, bucket operations included; absent: nobody may. */
  root: { accessKeyId: string; secretAccessKey: string } | undefined
  /** Key prefixes of the access levels (seed §6). */
  prefixes: { public: string; protected: string; private: string }
  /** Multipart uploads older than this are removed. */
  multipartExpirySeconds: number
  /** The longest a presigned URL may live (S3 allows 7 days). */
  presignMaxSeconds: number
  /**
   * The endpoint's own origin (STORAGE_LISTEN_PORT): the same endpoint at the root of a port of
   * its own, path style, and virtual-hosted style under `hostname` (`{bucket}.{hostname}`).
   */
  origin: { port: number; hostname: string | undefined } | undefined
  backend:
    | { kind: 'fs'; directory: string; fsync: boolean }
    | {
        kind: 's3'
        endpoint: string | undefined
        region: string
        bucket: string
        credentials: { accessKeyId: string; secretAccessKey: string } | undefined
        forcePathStyle: boolean
      }
}

export type IdentitySettings = {
  /**
   * `embedded`: the browser calls this process's `/cognito-idp` and `/cognito-identity`;
   * `aws`: it calls Amazon Cognito itself (the pool ids then name real pools).
   */
  endpoints: 'embedded' | 'aws'
  region: string
  userPoolId: string
  clientId: string
  identityPoolId: string
  /** The `iss` of our tokens: `{base URL}/cognito-idp/{pool id}`; JWKS lives beneath it. */
  issuer: string
  tokenTtlSeconds: { id: number; access: number; refresh: number }
  guestCredentials: boolean
  /** Usernames or emails that belong to the `admin` group. */
  admins: string[]
  /**
   * The pool's MFA: `off` (never asked), `optional` (users turn it on), `on` (required: a
   * user without MFA sets up an authenticator app at sign-in, MFA_SETUP).
   */
  mfa: 'off' | 'optional' | 'on'
  /**
   * Cognito's "remember devices": `always` remembers every confirmed device; `user_opt_in`
   * tracks it and remembers it only when the user asks (UpdateDeviceStatus `remembered`).
   */
  rememberDevices: 'always' | 'user_opt_in'
  /**
   * Cognito's PreventUserExistenceErrors (`ENABLED` in new pools): sign-in, ForgotPassword and
   * ResendConfirmationCode do not tell whether an account exists, and SignUp does not tell
   * whether an email is taken (that is told at confirmation, to the address's owner).
   */
  preventUserExistenceErrors: boolean
  /** Abuse limits (docs/decisions/021); per instance unless `redisUrl` shares them. */
  limits: AbuseLimitSettings
  /** The user pool's signing keys and HMAC secret; instances behind one issuer share it. */
  keysFile: string
  /** The key sealing temporary credentials' secrets; instances behind one pool share it. */
  credentialsKeyFile: string
  google: { clientId: string; clientSecret: string; issuer: string } | undefined
  /**
   * Where the hosted endpoints may send the browser back to: exact URLs. Unset, the app's
   * own callback page (`/auth/callback_google`) and home page on `siteOrigins`.
   */
  oauth: {
    callbackUrls: string[] | undefined
    signOutUrls: string[] | undefined
    /**
     * The site's own origins, from configuration only (never from a request's Host header,
     * which the client chooses): PUBLIC_BASE_URL's, and the TLS listener's on the same host.
     */
    siteOrigins: string[]
    /**
     * The https origin the hosted endpoints are published at (PUBLIC_BASE_URL when it is
     * https, e.g. behind a TLS proxy); unset, the origin each request came to.
     */
    publicOrigin: string | undefined
  }
}

export type AbuseLimitSettings = {
  signUpsPerIpPerHour: number
  mailsPerAddressPerHour: number
  mailsPerIpPerHour: number
  /** Wrong passwords (or codes) for one user from one address within 15 minutes. */
  failedSignInsPerSource: number
  /** Wrong passwords for one user from anywhere within a day. */
  failedSignInsPerUserPerDay: number
  redisUrl: string | undefined
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * Reads and validates the configuration. Throws a ConfigError whose message is one line
 * naming the first bad variable and what is wrong with it.
 */
export function loadConfig(environment: NodeJS.ProcessEnv): Config {
  // Long by design: one mapping from every variable to its setting, so the whole configuration reads in one place.
  const parsed = environmentSchema.safeParse(withoutEmptyValues(environment))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const name = String(issue?.path[0] ?? 'environment')
    const value = environment[name]
    // Connection strings carry passwords: never echo them.
    const shown =
      value === undefined || SECRET_VARIABLES.has(name)
        ? ''
        : ` (got ${JSON.stringify(truncate(value))})`
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`,
    )
  }
  const values = parsed.data
  const dataDir = path.resolve(values.DATA_DIR)
  const baseUrl = values.PUBLIC_BASE_URL ?? `http://localhost:${values.PORT}`
  const region = values.IDENTITY_REGION
  const userPoolId = values.USER_POOL_ID ?? `${region}_TechLabPool`
  const identityPoolId = values.IDENTITY_POOL_ID ?? `${region}:7ec41ab0-0000-4000-8000-000000000001`
  for (const [name, id] of [
    ['USER_POOL_ID', userPoolId],
    ['IDENTITY_POOL_ID', identityPoolId],
  ] as const) {
    if (!id.startsWith(`${region}${name === 'USER_POOL_ID' ? '_' : ':'}`)) {
      throw new ConfigError(
        `Invalid configuration: ${name} must start with IDENTITY_REGION (${region})`,
      )
    }
  }
  for (const [first, second] of [
    ['GOOGLE_CLIENT_ID', 'GOOGLE_CLIENT_SECRET'],
    ['STORAGE_ROOT_ACCESS_KEY_ID', 'STORAGE_ROOT_SECRET_ACCESS_KEY'],
    ['STORAGE_S3_ACCESS_KEY_ID', 'STORAGE_S3_SECRET_ACCESS_KEY'],
  ] as const) {
    if (Boolean(values[first]) !== Boolean(values[second])) {
      throw new ConfigError(`Invalid configuration: ${first} and ${second} must be set together`)
    }
  }
  const prefixes = [
    values.STORAGE_PUBLIC_PREFIX,
    values.STORAGE_PROTECTED_PREFIX,
    values.STORAGE_PRIVATE_PREFIX,
  ]
  if (prefixes.some((a, i) => prefixes.some((b, j) => i !== j && a.startsWith(b)))) {
    throw new ConfigError(
      'Invalid configuration: STORAGE_PUBLIC_PREFIX, STORAGE_PROTECTED_PREFIX and STORAGE_PRIVATE_PREFIX must not overlap',
    )
  }
  if (
    values.STORAGE_PUBLIC_URL &&
    new URL(values.STORAGE_PUBLIC_URL).origin === new URL(baseUrl).origin
  ) {
    throw new ConfigError(
      'Invalid configuration: STORAGE_PUBLIC_URL must be on another origin than PUBLIC_BASE_URL (leave it unset to serve objects from the site itself)',
    )
  }
  if (values.STORAGE_HOSTNAME !== undefined && values.STORAGE_LISTEN_PORT === undefined) {
    throw new ConfigError(
      'Invalid configuration: STORAGE_HOSTNAME needs STORAGE_LISTEN_PORT (virtual-hosted style is served on the storage port)',
    )
  }
  if (values.STORAGE_BACKEND === 's3' && !values.STORAGE_S3_BUCKET) {
    throw new ConfigError(
      'Invalid configuration: STORAGE_S3_BUCKET is required when STORAGE_BACKEND is s3',
    )
  }
  if (Boolean(values.TLS_CERT_FILE) !== Boolean(values.TLS_KEY_FILE)) {
    throw new ConfigError(
      'Invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    )
  }
  // The embedded gateway takes only test cards: on a public address it would take learners'
  // money for nothing, so it is refused there unless someone says so explicitly.
  const publicSite =
    values.PUBLIC_BASE_URL !== undefined &&
    !isLoopbackHost(new URL(values.PUBLIC_BASE_URL).hostname)
  if (
    values.NODE_ENV === 'production' &&
    publicSite &&
    values.PAYMENT_GATEWAY === 'embedded' &&
    values.ALLOW_EMBEDDED_PAYMENTS !== 'true'
  ) {
    throw new ConfigError(
      'Invalid configuration: the embedded payment gateway (test cards only) is refused on a public site (PUBLIC_BASE_URL); set ALLOW_EMBEDDED_PAYMENTS=true to run it anyway',
    )
  }
  const stripe = stripeSettings(values)
  const tlsDir = path.join(dataDir, 'tls')
  return {
    env: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    dataDir,
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'techlab.sqlite') },
    logLevel: values.LOG_LEVEL,
    trustProxy: trustProxyOf(values.TRUST_PROXY),
    seedDemoContent: values.SEED_DEMO_CONTENT,
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    pageCacheMaxEntries: values.PAGE_CACHE_MAX_ENTRIES,
    markdownRenderDeadlineMs: values.MARKDOWN_RENDER_DEADLINE_MS,
    codeSandbox: {
      javascriptWorkers: values.CODE_SANDBOX_JS_WORKERS ?? sandboxWorkers(),
      pythonWorkers: values.CODE_SANDBOX_PYTHON_WORKERS ?? sandboxWorkers(),
      maxQueued: values.CODE_SANDBOX_QUEUE,
      maxWaitMs: values.CODE_SANDBOX_WAIT_MS,
      runSecondsPerLearnerPerMinute: values.CODE_SANDBOX_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
      queuedPerLearner: values.CODE_SANDBOX_QUEUED_PER_LEARNER,
    },
    public: {
      baseUrl,
      siteTitle: values.SITE_TITLE,
      stripePublishableKey: values.STRIPE_PUBLISHABLE_KEY,
      // The seed's default API base is the site's own /api; a separate gateway is optional.
      apiGatewayUrl: values.API_GATEWAY_URL ?? '/api',
      devMailboxPath: values.SMTP_URL ? undefined : DEV_MAILBOX_PATH,
    },
    identity: {
      endpoints: values.IDENTITY_ENDPOINTS,
      region,
      userPoolId,
      clientId: values.USER_POOL_CLIENT_ID,
      identityPoolId,
      issuer: `${baseUrl}/cognito-idp/${userPoolId}`,
      tokenTtlSeconds: {
        id: values.ID_TOKEN_TTL_S,
        access: values.ACCESS_TOKEN_TTL_S,
        refresh: values.REFRESH_TOKEN_TTL_S,
      },
      guestCredentials: values.GUEST_CREDENTIALS === 'enabled',
      admins: values.ADMIN_USERS.split(',')
        .map((entry) => entry.trim().toLowerCase())
        .filter(Boolean),
      mfa: values.USER_POOL_MFA,
      rememberDevices: values.USER_POOL_REMEMBER_DEVICES,
      preventUserExistenceErrors: values.PREVENT_USER_EXISTENCE_ERRORS === 'enabled',
      limits: {
        signUpsPerIpPerHour: values.SIGN_UPS_PER_IP_PER_HOUR,
        mailsPerAddressPerHour: values.MAILS_PER_ADDRESS_PER_HOUR,
        mailsPerIpPerHour: values.MAILS_PER_IP_PER_HOUR,
        failedSignInsPerSource: values.FAILED_SIGN_INS_PER_SOURCE,
        failedSignInsPerUserPerDay: values.FAILED_SIGN_INS_PER_USER_PER_DAY,
        redisUrl: values.REDIS_URL,
      },
      keysFile: path.resolve(
        values.USER_POOL_KEYS_FILE ?? path.join(dataDir, 'identity', 'signing-keys.json'),
      ),
      credentialsKeyFile: path.resolve(
        values.CREDENTIALS_KEY_FILE ?? path.join(dataDir, 'identity', 'credentials.key'),
      ),
      google:
        values.GOOGLE_CLIENT_ID && values.GOOGLE_CLIENT_SECRET
          ? {
              clientId: values.GOOGLE_CLIENT_ID,
              clientSecret: values.GOOGLE_CLIENT_SECRET,
              issuer: values.GOOGLE_ISSUER,
            }
          : undefined,
      oauth: {
        callbackUrls: values.OAUTH_CALLBACK_URLS,
        signOutUrls: values.OAUTH_SIGN_OUT_URLS,
        publicOrigin: baseUrl.startsWith('https:') ? new URL(baseUrl).origin : undefined,
        siteOrigins: siteOrigins(baseUrl, values.HTTPS_PORT),
      },
    },
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
    contact: {
      messagesPerIpPerHour: values.CONTACT_MESSAGES_PER_IP_PER_HOUR,
      messagesPerEmailPerHour: values.CONTACT_MESSAGES_PER_EMAIL_PER_HOUR,
    },
    payments: {
      gateway: values.PAYMENT_GATEWAY,
      stripe,
      prices: {
        'premium-monthly': values.PLAN_PREMIUM_MONTHLY_YEN,
        'premium-yearly': values.PLAN_PREMIUM_YEARLY_YEN,
      },
      renewalIntervalMs: values.RENEWAL_INTERVAL_MS,
      embeddedOnPublicSite: publicSite && values.PAYMENT_GATEWAY === 'embedded',
    },
    messages: { perUserPerMinute: values.DM_MESSAGES_PER_USER_PER_MINUTE },
    realtime: {
      redisUrl: values.REDIS_URL,
      socketsPerUser: values.REALTIME_SOCKETS_PER_USER,
      heartbeatMs: values.REALTIME_HEARTBEAT_MS,
    },
    exercises: {
      answersPerMinute: values.EXERCISE_ANSWERS_PER_USER_PER_MINUTE,
      codeSubmissionsPerMinute: values.CODE_SUBMISSIONS_PER_USER_PER_MINUTE,
    },
    storage: storageSettings(values, dataDir, region),
    https:
      values.HTTPS_PORT === undefined
        ? undefined
        : {
            port: values.HTTPS_PORT,
            certFile: path.resolve(values.TLS_CERT_FILE ?? path.join(tlsDir, 'localhost.crt')),
            keyFile: path.resolve(values.TLS_KEY_FILE ?? path.join(tlsDir, 'localhost.key')),
            selfSigned: values.TLS_CERT_FILE === undefined,
          },
  }
}

const STRIPE_VARIABLES = [
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'STRIPE_PRICE_PREMIUM_MONTHLY',
  'STRIPE_PRICE_PREMIUM_YEARLY',
] as const

function stripeSettings(values: z.infer<typeof environmentSchema>): Config['payments']['stripe'] {
  if (values.PAYMENT_GATEWAY !== 'stripe') return undefined
  const missing = STRIPE_VARIABLES.filter((name) => !values[name])
  if (missing.length > 0) {
    throw new ConfigError(
      `Invalid configuration: PAYMENT_GATEWAY=stripe needs ${missing.join(', ')}`,
    )
  }
  const api = values.STRIPE_API_URL ? new URL(values.STRIPE_API_URL) : undefined
  const protocol = api?.protocol === 'http:' ? 'http' : 'https'
  return {
    secretKey: values.STRIPE_SECRET_KEY ?? '',
    webhookSecret: values.STRIPE_WEBHOOK_SECRET ?? '',
    prices: {
      'premium-monthly': values.STRIPE_PRICE_PREMIUM_MONTHLY ?? '',
      'premium-yearly': values.STRIPE_PRICE_PREMIUM_YEARLY ?? '',
    },
    api: api && {
      host: api.hostname,
      port: api.port ? Number(api.port) : protocol === 'http' ? 80 : 443,
      protocol,
    },
  }
}

function storageSettings(
  values: z.infer<typeof environmentSchema>,
  dataDir: string,
  identityRegion: string,
): StorageSettings {
  const region = values.STORAGE_REGION ?? identityRegion
  return {
    bucket: values.STORAGE_BUCKET,
    browserEndpoint: values.STORAGE_ENDPOINTS,
    region,
    publicUrl: values.STORAGE_PUBLIC_URL,
    root:
      values.STORAGE_ROOT_ACCESS_KEY_ID && values.STORAGE_ROOT_SECRET_ACCESS_KEY
        ? {
            accessKeyId: values.STORAGE_ROOT_ACCESS_KEY_ID,
            secretAccessKey: values.STORAGE_ROOT_SECRET_ACCESS_KEY,
          }
        : undefined,
    prefixes: {
      public: values.STORAGE_PUBLIC_PREFIX,
      protected: values.STORAGE_PROTECTED_PREFIX,
      private: values.STORAGE_PRIVATE_PREFIX,
    },
    multipartExpirySeconds: values.STORAGE_MULTIPART_EXPIRY_S,
    presignMaxSeconds: values.STORAGE_PRESIGN_MAX_S,
    origin:
      values.STORAGE_LISTEN_PORT === undefined
        ? undefined
        : { port: values.STORAGE_LISTEN_PORT, hostname: values.STORAGE_HOSTNAME },
    backend:
      values.STORAGE_BACKEND === 's3'
        ? {
            kind: 's3',
            endpoint: values.STORAGE_S3_ENDPOINT,
            region: values.STORAGE_S3_REGION ?? region,
            bucket: values.STORAGE_S3_BUCKET ?? values.STORAGE_BUCKET,
            credentials:
              values.STORAGE_S3_ACCESS_KEY_ID && values.STORAGE_S3_SECRET_ACCESS_KEY
                ? {
                    accessKeyId: values.STORAGE_S3_ACCESS_KEY_ID,
                    secretAccessKey: values.STORAGE_S3_SECRET_ACCESS_KEY,
                  }
                : undefined,
            forcePathStyle: values.STORAGE_S3_FORCE_PATH_STYLE === 'true',
          }
        : {
            kind: 'fs',
            directory: path.resolve(values.STORAGE_DIR ?? path.join(dataDir, 'storage')),
            fsync: values.STORAGE_FSYNC === 'on',
          },
  }
}

function trustProxyOf(value: string): boolean | number | string {
  if (value === 'true') return true
  if (value === 'false') return false
  return /^\d+$/.test(value) ? Number(value) : value
}

function siteOrigins(baseUrl: string, httpsPort: number | undefined): string[] {
  const base = new URL(baseUrl)
  if (httpsPort === undefined || base.protocol === 'https:') return [base.origin]
  return [base.origin, new URL(`https://${base.hostname}:${httpsPort}`).origin]
}

/** Loads `.env` from the working directory when present; real environment variables win. */
export function loadDotEnv(file = path.resolve('.env')): void {
  if (existsSync(file)) process.loadEnvFile(file)
}

// An empty variable (`PORT=`) means "use the default", as in most twelve-factor tools.
function withoutEmptyValues(environment: NodeJS.ProcessEnv): Record<string, string> {
  const result: Record<string, string> = {}
  for (const [key, value] of Object.entries(environment)) {
    if (value !== undefined && value !== '') result[key] = value
  }
  return result
}

function truncate(value: string): string {
  return value.length > 60 ? `${value.slice(0, 57)}...` : value
}
