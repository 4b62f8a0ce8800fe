import { once } from 'node:events'
import { createServer } from 'node:net'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'
import { createWorkerPool } from '#server/code-sandbox/pool.ts'
import { ENGINES, MEMORY_LIMIT_BYTES } from '#server/code-sandbox/sandbox.ts'
import {
  DEFAULT_QUEUED_PER_LEARNER,
  DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE,
} from '#server/code-sandbox/settings.ts'

const probe = new URL('./fixtures/probe-child.ts', import.meta.url)

/**
 * The process that runs learner code, started as the sandbox starts it (each language's
 * flags), cannot see the server's environment, read beyond its engine's files, write, spawn,
 * start workers or open sockets.
 */
it.each(['javascript', 'python'] as const)(
  'a %s child process reaches nothing of the server',
  async (language) => {
    process.env.SANDBOX_CHILD_SECRET = 'child-secret'
    let connections = 0
    const listener = createServer((socket) => {
      connections++
      socket.end()
    }).listen(0, '127.0.0.1')
    await once(listener, 'listening')
    const engine = ENGINES[language]
    const pool = createWorkerPool({
      ...engine,
      // The probe stands in for the engine; no snapshot to start from.
      workerUrl: probe,
      readable: [...engine.readable, fileURLToPath(probe)],
      snapshot: false,
      size: 1,
      maxQueued: 1,
      maxWaitMs: 60_000,
      runMsPerLearnerPerMinute: DEFAULT_RUN_SECONDS_PER_LEARNER_PER_MINUTE * 1_000,
      queuedPerLearner: DEFAULT_QUEUED_PER_LEARNER,
      graceMs: 1_000,
      memoryLimitBytes: MEMORY_LIMIT_BYTES,
    })
    try {
      const root = `${path.resolve(fileURLToPath(new URL('../..', import.meta.url)))}/`
      const result = await pool.run({
        language,
        code: JSON.stringify({ port: (listener.address() as { port: number }).port }),
        stdin: '',
        timeLimitMs: 10_000,
      })
      expect(result.outcome, JSON.stringify(result)).toBe('completed')
      const report = JSON.parse(result.stdout)
      expect(report.pid).not.toBe(process.pid)
      expect(report.environment).toEqual({})
      expect(report.reads).toEqual({
        '/etc/passwd': expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        [`${root}data/`]: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        [`${root}.env`]: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        [`${root}server/config.ts`]: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        [`${root}db/`]: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        [`${root}node_modules/fastify/package.json`]: expect.stringMatching(
          /^refused \(ERR_ACCESS_DENIED/,
        ),
        // What it needs, it reads: the project's import map.
        [`${root}package.json`]: 'allowed',
      })
      expect(report).toMatchObject({
        spawn: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        worker: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        binding: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        write: expect.stringMatching(/^refused \(ERR_ACCESS_DENIED/),
        socket: expect.stringMatching(/^refused \(node:net.connect is not available/),
      })
      await new Promise((resolve) => setTimeout(resolve, 100))
      expect(connections).toBe(0)
    } finally {
      delete process.env.SANDBOX_CHILD_SECRET
      await pool.close()
      listener.close()
    }
  },
  60_000,
)
