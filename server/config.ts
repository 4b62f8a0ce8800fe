import { existsSync } from 'node:fs'
import path from 'node:path'
import { z } from 'zod'

/** The settings the browser may see: nothing secret belongs here. */
export type PublicSettings = {
  baseUrl: string
  siteTitle: string
  stripePublishableKey: string
  apiGatewayUrl: string
}

const SECRET_VARIABLES = new Set(['DATABASE_URL'])

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

const httpUrl = z
  .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
  .transform((url) => url.replace(/\/+$/, ''))

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
})

export type Config = {
  env: 'production' | 'development' | 'test'
  host: string
  port: number
  dataDir: string
  database: { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string }
  logLevel: z.infer<typeof environmentSchema>['LOG_LEVEL']
  seedDemoContent: 'auto' | 'never'
  shutdownGraceMs: number
  pageCacheMaxEntries: number
  public: PublicSettings
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * Reads and validates the configuration. Throws a ConfigError whose message is one line
 * naming the first bad variable and what is wrong with it.
 */
export function loadConfig(environment: NodeJS.ProcessEnv): Config {
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
  return {
    env: values.NODE_ENV,
    host: values.HOST,
    port: values.PORT,
    dataDir,
    database: values.DATABASE_URL
      ? { kind: 'postgres', url: values.DATABASE_URL }
      : { kind: 'sqlite', file: path.join(dataDir, 'techlab.sqlite') },
    logLevel: values.LOG_LEVEL,
    seedDemoContent: values.SEED_DEMO_CONTENT,
    shutdownGraceMs: values.SHUTDOWN_GRACE_MS,
    pageCacheMaxEntries: values.PAGE_CACHE_MAX_ENTRIES,
    public: {
      baseUrl,
      siteTitle: values.SITE_TITLE,
      stripePublishableKey: values.STRIPE_PUBLISHABLE_KEY,
      // The seed's default API base is the site's own /api; a separate gateway is optional.
      apiGatewayUrl: values.API_GATEWAY_URL ?? '/api',
    },
  }
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
