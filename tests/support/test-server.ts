import { mkdtemp, rm } from 'node:fs/promises'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { seedDemoContent } from '#db/seed/seed.ts'
import { createPostgresDatabase } from '#db/test-support.ts'
import { loadConfig } from '#server/config.ts'
import { type RunningServer, startServer } from '#server/start.ts'
import { type TestClock, testClock } from './clock.ts'

export { createPostgresDatabase }

export type TestServer = RunningServer & {
  dataDir: string
  /** The server's time: `clock.advance(ms)` instead of waiting for expiry or the next step. */
  clock: TestClock
  close(): Promise<void>
}

/**
 * Starts the real server (the built app) on a free port with its own data directory,
 * seeded with the demo content. With TEST_DATABASE_URL set it runs on a fresh PostgreSQL
 * database created for this server and dropped afterwards; otherwise on SQLite.
 * Every test's requests come from 127.0.0.1, so the abuse limits on sign-ups, mails and contact
 * messages are lifted unless a test sets them (the lockout keeps its defaults).
 */
export async function startTestServer(
  environment: Record<string, string> = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-test-'))
  const postgres = process.env.TEST_DATABASE_URL
    ? await createPostgresDatabase(process.env.TEST_DATABASE_URL)
    : undefined
  const config = loadConfig({
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    SEED_DEMO_CONTENT: 'never',
    SIGN_UPS_PER_IP_PER_HOUR: '100000',
    MAILS_PER_ADDRESS_PER_HOUR: '100000',
    MAILS_PER_IP_PER_HOUR: '100000',
    CONTACT_MESSAGES_PER_IP_PER_HOUR: '100000',
    CONTACT_MESSAGES_PER_EMAIL_PER_HOUR: '100000',
    ...(postgres && { DATABASE_URL: postgres.url }),
    ...environment,
  })
  const clock = testClock()
  const server = await startServer(config, { logger: false, now: clock.now })
  await seedDemoContent(server.database.db, clock.now(), server.app.ownImages)
  return {
    ...server,
    url: server.url.replace('localhost', '127.0.0.1'),
    httpsUrl: server.httpsUrl?.replace('localhost', '127.0.0.1'),
    storageUrl: server.storageUrl?.replace('localhost', '127.0.0.1'),
    dataDir,
    clock,
    async close() {
      await server.app.close()
      await postgres?.drop()
      await rm(dataDir, { recursive: true, force: true })
    },
  }
}

/**
 * Ports chosen before start-up and the matching PUBLIC_BASE_URL, for tests of what the site
 * derives from its configured address (the hosted endpoints' default redirect allow-lists).
 */
export async function configuredAddress(): Promise<Record<string, string>> {
  const [port, httpsPort] = [await freePort(), await freePort()]
  return {
    PORT: String(port),
    HTTPS_PORT: String(httpsPort),
    PUBLIC_BASE_URL: `http://127.0.0.1:${port}`,
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen({ host: '127.0.0.1', port: 0 }, () => {
      const address = probe.address()
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}
