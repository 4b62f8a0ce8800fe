import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { ConfigError, loadConfig } from './config.ts'

/** Calls loadConfig expecting it to fail, and returns the ConfigError it threw. */
function configError(environment: NodeJS.ProcessEnv): ConfigError {
  try {
    loadConfig(environment)
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(environment)}`)
}

describe('loadConfig', () => {
  it('uses the defaults when nothing is set', () => {
    const config = loadConfig({})
    expect(config.env).toBe('production')
    expect(config.host).toBe('localhost')
    expect(config.port).toBe(3000)
    expect(config.dataDir).toBe(path.resolve('data'))
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.join(path.resolve('data'), 'techlab.sqlite'),
    })
    expect(config.logLevel).toBe('info')
    expect(config.seedDemoContent).toBe('auto')
    expect(config.shutdownGraceMs).toBe(10_000)
    expect(config.pageCacheMaxEntries).toBe(500)
    expect(config.public).toEqual({
      baseUrl: 'http://localhost:3000',
      siteTitle: 'テックラボ はじめてのプログラミング講座',
      stripePublishableKey: 'pk_test_embedded',
      apiGatewayUrl: '/api',
      devMailboxPath: '/dev/mailbox',
    })
    expect(loadConfig({ SMTP_URL: 'smtp://mail.example:25' }).public.devMailboxPath).toBe(undefined)
  })

  it('reads the abuse limits, PREVENT_USER_EXISTENCE_ERRORS, REDIS_URL and TRUST_PROXY', () => {
    const defaults = loadConfig({})
    expect(defaults.trustProxy).toBe(false)
    expect(defaults.identity.preventUserExistenceErrors).toBe(true)
    expect(defaults.identity.limits).toEqual({
      signUpsPerIpPerHour: 50,
      mailsPerAddressPerHour: 5,
      mailsPerIpPerHour: 100,
      failedSignInsPerSource: 5,
      failedSignInsPerUserPerDay: 100,
      redisUrl: undefined,
    })
    const set = loadConfig({
      PREVENT_USER_EXISTENCE_ERRORS: 'legacy',
      MAILS_PER_ADDRESS_PER_HOUR: '2',
      REDIS_URL: 'redis://127.0.0.1:6379',
      TRUST_PROXY: '1',
    })
    expect(set.identity.preventUserExistenceErrors).toBe(false)
    expect(set.identity.limits.mailsPerAddressPerHour).toBe(2)
    expect(set.identity.limits.redisUrl).toBe('redis://127.0.0.1:6379')
    expect(set.trustProxy).toBe(1)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toBe(
      '10.0.0.0/8, 127.0.0.1',
    )
    expect(configError({ TRUST_PROXY: 'yes please!' }).message).toContain('TRUST_PROXY')
    const redis = configError({ REDIS_URL: 'http://user:hunter2@cache' }).message
    expect(redis).toContain('REDIS_URL must be a redis://')
    expect(redis).not.toContain('hunter2')
  })

  it('puts the SQLite file under DATA_DIR', () => {
    const config = loadConfig({ DATA_DIR: '/srv/techlab' })
    expect(config.dataDir).toBe(path.resolve('/srv/techlab'))
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.join(path.resolve('/srv/techlab'), 'techlab.sqlite'),
    })
  })

  it('switches to PostgreSQL when DATABASE_URL is set', () => {
    for (const url of ['postgres://app:secret@db:5432/techlab', 'postgresql://db/techlab']) {
      expect(loadConfig({ DATABASE_URL: url }).database).toEqual({ kind: 'postgres', url })
    }
  })

  it('reads the values that are set', () => {
    const config = loadConfig({
      NODE_ENV: 'development',
      HOST: '0.0.0.0',
      PORT: '8080',
      LOG_LEVEL: 'debug',
      SEED_DEMO_CONTENT: 'never',
      SHUTDOWN_GRACE_MS: '2500',
      PAGE_CACHE_MAX_ENTRIES: '0',
      PUBLIC_BASE_URL: 'https://techlab.example/',
      SITE_TITLE: '  テックラボ  ',
      STRIPE_PUBLISHABLE_KEY: 'pk_live_abc123',
      API_GATEWAY_URL: 'https://api.techlab.example//',
    })
    expect(config).toMatchObject({
      env: 'development',
      host: '0.0.0.0',
      port: 8080,
      logLevel: 'debug',
      seedDemoContent: 'never',
      shutdownGraceMs: 2500,
      pageCacheMaxEntries: 0,
      public: {
        baseUrl: 'https://techlab.example',
        siteTitle: 'テックラボ',
        stripePublishableKey: 'pk_live_abc123',
        apiGatewayUrl: 'https://api.techlab.example',
      },
    })
  })

  it('derives the base URL from the port when PUBLIC_BASE_URL is unset', () => {
    expect(loadConfig({ PORT: '4123' }).public.baseUrl).toBe('http://localhost:4123')
  })

  it('treats an empty variable as unset', () => {
    const config = loadConfig({
      NODE_ENV: '',
      PORT: '',
      DATA_DIR: '',
      DATABASE_URL: '',
      SITE_TITLE: '',
      STRIPE_PUBLISHABLE_KEY: '',
      PUBLIC_BASE_URL: '',
      API_GATEWAY_URL: '',
    })
    expect(config.env).toBe('production')
    expect(config.port).toBe(3000)
    expect(config.database).toEqual({
      kind: 'sqlite',
      file: path.join(path.resolve('data'), 'techlab.sqlite'),
    })
    expect(config.public.siteTitle).toBe('テックラボ はじめてのプログラミング講座')
    expect(config.public.apiGatewayUrl).toBe('/api')
  })

  it('ignores variables it does not know', () => {
    expect(loadConfig({ PATH: '/usr/bin', HOME: '/root' }).port).toBe(3000)
  })

  describe('rejects bad values with a one-line message naming the variable', () => {
    const cases: [variable: string, value: string][] = [
      ['PORT', 'abc'],
      ['PORT', '70000'],
      ['PORT', '-1'],
      ['PORT', '80.5'],
      ['NODE_ENV', 'staging'],
      ['LOG_LEVEL', 'verbose'],
      ['SEED_DEMO_CONTENT', 'always'],
      ['SHUTDOWN_GRACE_MS', 'soon'],
      ['SHUTDOWN_GRACE_MS', '-5'],
      ['PAGE_CACHE_MAX_ENTRIES', '-1'],
      ['PUBLIC_BASE_URL', 'ftp://x'],
      ['PUBLIC_BASE_URL', 'not a url'],
      ['API_GATEWAY_URL', 'ws://gateway'],
      ['STRIPE_PUBLISHABLE_KEY', 'sk_live_x'],
      ['SITE_TITLE', 'あ'.repeat(101)],
      ['SITE_TITLE', '   '],
      ['DATABASE_URL', 'mysql://root@db/techlab'],
      ['GOOGLE_ISSUER', 'accounts.google.com'],
      ['GOOGLE_ISSUER', 'http://accounts.example.com'],
      ['OAUTH_CALLBACK_URLS', 'https://ok.example/cb, not-a-url'],
      ['OAUTH_SIGN_OUT_URLS', 'javascript:alert(1)'],
      ['HTTPS_PORT', '99999'],
      ['STORAGE_PUBLIC_URL', 'files.techlab.example'],
      ['STORAGE_PUBLIC_URL', 'javascript:alert(1)'],
      ['STORAGE_PUBLIC_URL', 'https://files.techlab.example/?bucket=techlab'],
    ]
    it.each(cases)('%s=%s', (variable, value) => {
      const error = configError({ [variable]: value })
      expect(error.name).toBe('ConfigError')
      expect(error.message).not.toMatch(/[\r\n]/)
      expect(error.message).toMatch(new RegExp(`^Invalid configuration: ${variable} \\S`))
    })
  })

  it('reads Google sign-in, the hosted endpoints and the TLS listener', () => {
    const plain = loadConfig({ DATA_DIR: '/srv/techlab' })
    expect(plain.identity.google).toBeUndefined()
    expect(plain.https).toBeUndefined()
    expect(plain.identity.oauth).toEqual({
      callbackUrls: undefined,
      signOutUrls: undefined,
      publicOrigin: undefined,
      siteOrigins: ['http://localhost:3000'],
    })

    const config = loadConfig({
      DATA_DIR: '/srv/techlab',
      PUBLIC_BASE_URL: 'https://learn.example.jp/',
      ALLOW_EMBEDDED_PAYMENTS: 'true',
      GOOGLE_CLIENT_ID: 'id.apps.googleusercontent.com',
      GOOGLE_CLIENT_SECRET: 'secret',
      OAUTH_CALLBACK_URLS:
        'https://learn.example.jp/auth/callback_google, https://app.example.jp/cb',
      HTTPS_PORT: '3443',
    })
    expect(config.identity.google).toEqual({
      clientId: 'id.apps.googleusercontent.com',
      clientSecret: 'secret',
      issuer: 'https://accounts.google.com',
    })
    expect(config.identity.oauth).toEqual({
      callbackUrls: ['https://learn.example.jp/auth/callback_google', 'https://app.example.jp/cb'],
      signOutUrls: undefined,
      publicOrigin: 'https://learn.example.jp',
      siteOrigins: ['https://learn.example.jp'],
    })
    // Plain http with a TLS listener: both are the site's, on the configured host only.
    expect(
      loadConfig({ PUBLIC_BASE_URL: 'http://127.0.0.1:3000', HTTPS_PORT: '3443' }).identity.oauth
        .siteOrigins,
    ).toEqual(['http://127.0.0.1:3000', 'https://127.0.0.1:3443'])
    expect(config.https).toEqual({
      port: 3443,
      certFile: '/srv/techlab/tls/localhost.crt',
      keyFile: '/srv/techlab/tls/localhost.key',
      selfSigned: true,
    })
    const given = loadConfig({
      HTTPS_PORT: '0',
      TLS_CERT_FILE: '/etc/c.pem',
      TLS_KEY_FILE: '/etc/k.pem',
    })
    expect(given.https).toMatchObject({ certFile: '/etc/c.pem', selfSigned: false })
    const local = {
      GOOGLE_CLIENT_ID: 'i',
      GOOGLE_CLIENT_SECRET: 's',
      GOOGLE_ISSUER: 'http://127.0.0.1:4000',
    }
    expect(loadConfig(local).identity.google?.issuer).toBe('http://127.0.0.1:4000')
    expect(configError({ HTTPS_PORT: '1', TLS_CERT_FILE: '/etc/c.pem' }).message).toBe(
      'Invalid configuration: TLS_CERT_FILE and TLS_KEY_FILE must be set together',
    )
  })

  it('says what is wrong and what it got', () => {
    expect(configError({ PORT: '70000' }).message).toBe(
      'Invalid configuration: PORT must be a port number between 0 and 65535 (got "70000")',
    )
    expect(configError({ NODE_ENV: 'staging' }).message).toBe(
      'Invalid configuration: NODE_ENV must be production, development or test (got "staging")',
    )
    expect(configError({ PUBLIC_BASE_URL: 'ftp://x' }).message).toContain(
      'must be an http:// or https:// URL',
    )
    expect(configError({ STRIPE_PUBLISHABLE_KEY: 'sk_live_x' }).message).toContain('pk_test_')
    expect(configError({ SITE_TITLE: 'x'.repeat(101) }).message).toContain(
      'must be at most 100 characters',
    )
  })

  it('keeps the message on one line and short when the value is long or multi-line', () => {
    const message = configError({ PORT: `80\n${'9'.repeat(200)}` }).message
    expect(message).not.toMatch(/[\r\n]/)
    expect(message.length).toBeLessThan(200)
    expect(message).toContain('...')
  })

  it('never echoes DATABASE_URL, which can hold a password', () => {
    const url = 'mysql://admin:hunter2@db.internal/techlab'
    const message = configError({ DATABASE_URL: url }).message
    expect(message).toMatch(/^Invalid configuration: DATABASE_URL /)
    expect(message).not.toContain('hunter2')
    expect(message).not.toContain('admin')
    expect(message).not.toContain('db.internal')
  })

  it('names the first bad variable only', () => {
    const message = configError({ PORT: 'abc', NODE_ENV: 'staging' }).message
    expect(message.split('Invalid configuration').length).toBe(2)
  })
})

describe('numbers', () => {
  it.each([' ', '0x10', '1e3', '-1', '3.5'])(
    'rejects PORT=%j instead of reading it as a number',
    (value) => {
      expect(() => loadConfig({ PORT: value })).toThrow(
        /^Invalid configuration: PORT must be a port number/,
      )
    },
  )
})

describe('storage', () => {
  it('defaults to the disk backend under DATA_DIR, the techlab bucket and no root credential', () => {
    const { storage } = loadConfig({ DATA_DIR: '/srv/techlab' })
    expect(storage).toEqual({
      bucket: 'techlab',
      browserEndpoint: 'embedded',
      region: 'ap-northeast-1',
      publicUrl: undefined,
      root: undefined,
      prefixes: { public: 'public/', protected: 'protected/', private: 'private/' },
      multipartExpirySeconds: 7 * 24 * 3600,
      presignMaxSeconds: 7 * 24 * 3600,
      backend: { kind: 'fs', directory: path.resolve('/srv/techlab/storage'), fsync: true },
    })
  })

  it('sends browsers to Amazon S3 with STORAGE_ENDPOINTS=aws, and refuses other values', () => {
    expect(loadConfig({ STORAGE_ENDPOINTS: 'aws' }).storage.browserEndpoint).toBe('aws')
    expect(() => loadConfig({ STORAGE_ENDPOINTS: 'minio' })).toThrow(
      'STORAGE_ENDPOINTS must be embedded or aws',
    )
  })

  it('serves public objects from another origin with STORAGE_PUBLIC_URL, never the site its own', () => {
    const environment = {
      PUBLIC_BASE_URL: 'https://techlab.example',
      ALLOW_EMBEDDED_PAYMENTS: 'true',
    }
    const config = loadConfig({
      ...environment,
      STORAGE_PUBLIC_URL: 'https://files.techlab.example/s3/techlab/',
    })
    expect(config.storage.publicUrl).toBe('https://files.techlab.example/s3/techlab')
    expect(
      configError({ ...environment, STORAGE_PUBLIC_URL: 'https://techlab.example/s3/techlab' })
        .message,
    ).toContain('STORAGE_PUBLIC_URL must be on another origin than PUBLIC_BASE_URL')
  })

  it('reads the root credential, prefixes and the s3 backend', () => {
    const { storage } = loadConfig({
      STORAGE_ROOT_ACCESS_KEY_ID: 'ROOTKEY000000001',
      STORAGE_ROOT_SECRET_ACCESS_KEY: 'a-secret-of-some-length',
      STORAGE_PUBLIC_PREFIX: 'pub/',
      STORAGE_BACKEND: 's3',
      STORAGE_S3_BUCKET: 'engine-bucket',
      STORAGE_S3_ENDPOINT: 'http://minio:9000/',
    })
    expect(storage.root).toEqual({
      accessKeyId: 'ROOTKEY000000001',
      secretAccessKey: 'a-secret-of-some-length',
    })
    expect(storage.prefixes.public).toBe('pub/')
    expect(storage.backend).toMatchObject({
      kind: 's3',
      bucket: 'engine-bucket',
      endpoint: 'http://minio:9000',
      forcePathStyle: true,
    })
  })

  it('refuses half a credential, overlapping prefixes, a bad bucket and a presign limit over 7 days', () => {
    expect(configError({ STORAGE_ROOT_ACCESS_KEY_ID: 'ROOTKEY000000001' }).message).toMatch(
      /STORAGE_ROOT_ACCESS_KEY_ID and STORAGE_ROOT_SECRET_ACCESS_KEY must be set together/,
    )
    expect(configError({ STORAGE_PRIVATE_PREFIX: 'public/' }).message).toMatch(/must not overlap/)
    expect(configError({ STORAGE_BUCKET: 'My_Bucket' }).message).toMatch(
      /^Invalid configuration: STORAGE_BUCKET/,
    )
    expect(configError({ STORAGE_PRESIGN_MAX_S: '604801' }).message).toMatch(
      /STORAGE_PRESIGN_MAX_S/,
    )
    expect(configError({ STORAGE_BACKEND: 's3' }).message).toMatch(/STORAGE_S3_BUCKET is required/)
  })

  it('never echoes the root secret', () => {
    const message = configError({ STORAGE_ROOT_SECRET_ACCESS_KEY: 'short' }).message
    expect(message).toMatch(/STORAGE_ROOT_SECRET_ACCESS_KEY/)
    expect(message).not.toContain('short')
  })
})

describe('payments', () => {
  it('reads the prices before tax and runs the embedded gateway on this machine', () => {
    const config = loadConfig({ PLAN_PREMIUM_MONTHLY_YEN: '1200' })
    expect(config.payments).toMatchObject({
      gateway: 'embedded',
      prices: { 'premium-monthly': 1200, 'premium-yearly': 9800 },
      embeddedOnPublicSite: false,
    })
    expect(
      loadConfig({ PUBLIC_BASE_URL: 'http://localhost:8080' }).payments.embeddedOnPublicSite,
    ).toBe(false)
  })

  it('refuses the embedded test gateway on a public production site unless allowed', () => {
    const site = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://techlab.example' }
    expect(() => loadConfig(site)).toThrow('ALLOW_EMBEDDED_PAYMENTS=true')
    expect(loadConfig({ ...site, ALLOW_EMBEDDED_PAYMENTS: 'true' }).payments).toMatchObject({
      embeddedOnPublicSite: true,
    })
    expect(() => loadConfig({ PLAN_PREMIUM_MONTHLY_YEN: '-1' })).toThrow('PLAN_PREMIUM_MONTHLY_YEN')
  })

  it('Stripe mode needs its keys and prices, checked at start-up in one line, never echoing a secret', () => {
    const stripe = {
      PAYMENT_GATEWAY: 'stripe',
      STRIPE_SECRET_KEY: 'sk_test_51Abc',
      STRIPE_WEBHOOK_SECRET: 'whsec_abc123',
      STRIPE_PRICE_PREMIUM_MONTHLY: 'price_1Month',
      STRIPE_PRICE_PREMIUM_YEARLY: 'price_1Year',
    }
    expect(loadConfig(stripe).payments).toMatchObject({
      gateway: 'stripe',
      stripe: {
        secretKey: 'sk_test_51Abc',
        webhookSecret: 'whsec_abc123',
        prices: { 'premium-monthly': 'price_1Month', 'premium-yearly': 'price_1Year' },
        api: undefined,
      },
    })
    // Stripe mode on a public production site needs no ALLOW_EMBEDDED_PAYMENTS.
    const site = { NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://techlab.example' }
    expect(loadConfig({ ...site, ...stripe }).payments.embeddedOnPublicSite).toBe(false)
    expect(
      loadConfig({ ...stripe, STRIPE_API_URL: 'http://127.0.0.1:12111' }).payments.stripe?.api,
    ).toEqual({ host: '127.0.0.1', port: 12111, protocol: 'http' })
    const missing = configError({ PAYMENT_GATEWAY: 'stripe', STRIPE_SECRET_KEY: 'sk_test_51Abc' })
    expect(missing.message).toBe(
      'Invalid configuration: PAYMENT_GATEWAY=stripe needs STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_PREMIUM_MONTHLY, STRIPE_PRICE_PREMIUM_YEARLY',
    )
    const badKey = configError({ ...stripe, STRIPE_SECRET_KEY: 'pk_live_oops-secret' })
    expect(badKey.message).toBe(
      'Invalid configuration: STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…',
    )
    const badHook = configError({ ...stripe, STRIPE_WEBHOOK_SECRET: 'hook-secret' })
    expect(badHook.message).not.toContain('hook-secret')
    expect(configError({ ...stripe, STRIPE_PRICE_PREMIUM_YEARLY: 'prod_1' }).message).toContain(
      'STRIPE_PRICE_PREMIUM_YEARLY must be a Stripe price id',
    )
    expect(configError({ PAYMENT_GATEWAY: 'paypal' }).message).toContain(
      'PAYMENT_GATEWAY must be embedded or stripe',
    )
    // Embedded mode ignores them.
    expect(
      loadConfig({ STRIPE_PRICE_PREMIUM_YEARLY: 'price_1Year' }).payments.stripe,
    ).toBeUndefined()
  })
})
