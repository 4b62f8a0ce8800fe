import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

/**
 * unit: fast tests beside the code. integration: the real server on a free port (SQLite by
 * default; PostgreSQL when TEST_DATABASE_URL is set). e2e: headless Chromium against it.
 * The timeouts are guards against hangs, not speed checks (decision 027 has why these).
 */
export default defineConfig({
  test: {
    // Every core: vitest's default leaves one free for watch mode and the terminal, which on a
    // 2-core machine runs the suite one file at a time, mostly waiting on servers and databases.
    maxWorkers: availableParallelism(),
    // `--coverage` (CI's npm test): V8's own counts, a summary on the terminal. Integration
    // tests run the server in the test's process, so server/ counts what they reach; app/
    // runs from build/ there, so only its unit tests count for it.
    coverage: {
      provider: 'v8',
      reporter: ['text-summary'],
      include: ['{app,server,db,features}/**/*.{ts,tsx}'],
      exclude: ['**/*.test.{ts,tsx}', '**/test-*.ts'],
    },
    projects: [
      {
        test: {
          name: 'unit',
          // Test files share their worker's module cache instead of importing React, Kysely,
          // the AWS SDK and the server afresh each (a third of the run went to imports). Files
          // keep no state in modules another file could see. (Per project: inline projects do
          // not inherit the root's test options.)
          isolate: false,
          include: ['{app,server,db,features}/**/*.test.{ts,tsx}'],
          environment: 'node',
          // Key derivation, SRP and Shiki take seconds on a busy machine.
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration',
          isolate: false,
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
          // loaded machine.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
        },
      },
    ],
  },
})
