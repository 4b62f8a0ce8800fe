import { defineConfig } from 'vitest/config'

/**
 * unit: fast tests beside the code. integration: the real server on a free port (SQLite by
 * default; PostgreSQL when TEST_DATABASE_URL is set). e2e: headless Chromium against it.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['{app,server,db,features}/**/*.test.{ts,tsx}'],
          environment: 'node',
          // A guard against hangs, not a speed check: key derivation, SRP and Shiki take
          // seconds when the shared 2-core machine is busy, and 5 s failed them under load.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          globalSetup: ['tests/support/require-current-build.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/require-current-build.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // expect.poll gives up after 1 s by default: too short for what a browser does on a
          // loaded 2-core machine (CI once saw a 5 MiB part take longer). A guard, not a speed check.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
})
