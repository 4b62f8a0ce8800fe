import { expect, it } from 'vitest'
import { startTestServer } from '#tests/support/test-server.ts'

/**
 * The server owns one code sandbox (decision 033): no worker until the first run, sized by its
 * settings, and every worker ended when the server closes.
 */
it('starts its code sandbox on first use and ends it on close', async () => {
  const server = await startTestServer({ CODE_SANDBOX_JS_WORKERS: '1', CODE_SANDBOX_QUEUE: '4' })
  const sandbox = server.app.codeSandbox
  try {
    expect(sandbox.stats().javascript.workers).toBe(0)
    const result = await sandbox.run({
      language: 'javascript',
      code: 'console.log(input().toUpperCase())',
      stdin: 'techlab\n',
      timeLimitMs: 2_000,
    })
    expect(result).toMatchObject({ outcome: 'completed', stdout: 'TECHLAB\n' })
    expect(sandbox.stats().javascript.workers).toBe(1)
  } finally {
    await server.close()
  }
  expect(sandbox.stats().javascript.workers).toBe(0)
  expect(
    await sandbox.run({ language: 'javascript', code: '1', stdin: '', timeLimitMs: 1_000 }),
  ).toMatchObject({ outcome: 'unavailable' })
})
