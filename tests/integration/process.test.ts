import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import http from 'node:http'
import net from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createPostgresDatabase } from '#tests/support/test-server.ts'

const MAIN = path.resolve(import.meta.dirname, '../../server/main.ts')
const cleanups: (() => Promise<void>)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function freePort(): Promise<number> {
  const server = net.createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as net.AddressInfo
  server.close()
  await once(server, 'close')
  return port
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'techlab-process-'))
  cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** Runs `node server/main.ts` the way `npm start` does, with the given environment. */
function launch(environment: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      ...environment,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout?.on('data', (chunk) => {
    output += chunk
  })
  child.stderr?.on('data', (chunk) => {
    output += chunk
  })
  cleanups.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGKILL')
      await once(child, 'exit')
    }
  })
  return Object.assign(child, { output: () => output })
}

/**
 * Waits for the child's /readyz. A fresh process imports the whole server first, which on a
 * loaded machine takes many seconds: the guard is generous, and a child that exits fails at once
 * with what it printed.
 */
async function waitUntilReady(url: string, child: ChildProcess & { output: () => string }) {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(
        `the server exited (${child.exitCode}) before ${url} was ready:\n${child.output()}`,
      )
    }
    try {
      if ((await fetch(`${url}/readyz`)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${url} did not become ready`)
}

async function databaseEnvironment(): Promise<Record<string, string>> {
  const adminUrl = process.env.TEST_DATABASE_URL
  if (!adminUrl) return {}
  const database = await createPostgresDatabase(adminUrl)
  cleanups.push(() => database.drop())
  return { DATABASE_URL: database.url }
}

describe('npm run db:migrate', () => {
  it('applies the migrations once, then reports the schema up to date', async () => {
    const environment = { DATA_DIR: await tempDir(), ...(await databaseEnvironment()) }
    const migrate = path.resolve(import.meta.dirname, '../../db/cli/migrate.ts')
    const run = async () => {
      const child = spawn(process.execPath, [migrate], {
        env: { PATH: process.env.PATH, ...environment },
        stdio: ['ignore', 'pipe', 'pipe'],
      })
      let output = ''
      child.stdout.on('data', (chunk) => {
        output += chunk
      })
      child.stderr.on('data', (chunk) => {
        output += chunk
      })
      const [code] = await once(child, 'exit')
      return { code, output }
    }
    const first = await run()
    expect(first).toMatchObject({ code: 0 })
    expect(first.output).toContain('Applied: 2026-11-22-0001-users-and-courses')
    const second = await run()
    expect(second).toMatchObject({ code: 0 })
    expect(second.output).toContain('The schema is up to date.')
  })
})

// Each test starts a server process; on a loaded machine its start alone can take tens of seconds.
describe('the server process', { timeout: 90_000 }, () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['NODE_ENV', 'staging'],
    ['PUBLIC_BASE_URL', 'not a url'],
    ['DATABASE_URL', 'mysql://user:secret@db/x'],
  ])('stops with one line naming %s when it is %s', async (name, value) => {
    const child = launch({ DATA_DIR: await tempDir(), [name]: value })
    const [code] = await once(child, 'exit')
    expect(code).toBe(1)
    const lines = child.output().trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toContain(name)
    expect(lines[0]).not.toContain('secret')
  })

  it('seeds an empty embedded database on its first start', async () => {
    const port = await freePort()
    const child = launch({ DATA_DIR: await tempDir(), PORT: String(port), HOST: '127.0.0.1' })
    const url = `http://127.0.0.1:${port}`
    await waitUntilReady(url, child)
    const body = await (await fetch(`${url}/api/courses?limit=50`)).json()
    expect(body.items.length).toBeGreaterThanOrEqual(20)
    expect(child.exitCode).toBeNull()
  })

  it('logs the address it bound, as JSON lines when its output is not a terminal', async () => {
    const port = await freePort()
    const child = launch({
      DATA_DIR: await tempDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      SEED_DEMO_CONTENT: 'never',
    })
    await waitUntilReady(`http://127.0.0.1:${port}`, child)
    await expect.poll(() => child.output()).toContain('is listening on')
    const listening = child
      .output()
      .split('\n')
      .find((line) => line.includes('is listening on'))
    const entry = JSON.parse(listening ?? '') as { level: number; msg: string }
    expect(entry.msg).toContain(`http://127.0.0.1:${port}`)
    expect(entry.msg).not.toContain('localhost')
  })

  it('drains an in-flight request on SIGTERM, then exits 0', async () => {
    const port = await freePort()
    const child = launch({
      DATA_DIR: await tempDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(await databaseEnvironment()),
    })
    await waitUntilReady(`http://127.0.0.1:${port}`, child)

    // A request whose body is still arriving is in flight when the signal comes.
    const socket = net.connect({ host: '127.0.0.1', port })
    await once(socket, 'connect')
    let answer = ''
    socket.setEncoding('utf8')
    socket.on('data', (chunk) => {
      answer += chunk
    })
    socket.write(
      'POST /api/courses HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\n12345',
    )
    await new Promise((resolve) => setTimeout(resolve, 100))
    child.kill('SIGTERM')
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(child.exitCode).toBeNull()
    socket.end('67890')
    const [code] = await once(child, 'exit')
    expect(code).toBe(0)
    expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/)
  })

  it('never cuts off a request on a keep-alive connection on SIGTERM', async () => {
    const port = await freePort()
    const child = launch({
      DATA_DIR: await tempDir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      SEED_DEMO_CONTENT: 'never',
      ...(await databaseEnvironment()),
    })
    await waitUntilReady(`http://127.0.0.1:${port}`, child)
    // Busy keep-alive clients: each sends its next request the moment an answer ends.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 20 })
    const outcomes = { answered: 0, refused: 0, cutOff: [] as string[] }
    let exited = false
    let stopping = false
    const one = () =>
      new Promise<void>((resolve) => {
        const sentWhileStopping = stopping
        const request = http.get({ host: '127.0.0.1', port, path: '/courses', agent }, (res) => {
          res.resume()
          res.on('end', () => {
            outcomes.answered++
            resolve()
          })
        })
        request.on('error', (error: NodeJS.ErrnoException) => {
          // Every request sent before SIGTERM must be answered. One sent after it may find the
          // listener closed (refused), its new connection still in the kernel's backlog when the
          // listener closed (reset), or its idle keep-alive socket closed after the grace (reset
          // on a reused socket): what a balancer or an HTTP client retries.
          if (error.code === 'ECONNREFUSED') outcomes.refused++
          else if (error.code === 'ECONNRESET' && sentWhileStopping) outcomes.refused++
          else outcomes.cutOff.push(`${error.code}: ${error.message}`)
          resolve()
        })
      })
    const clients = Array.from({ length: 20 }, async () => {
      while (!exited) await one()
    })
    while (outcomes.answered < 100) await new Promise((resolve) => setTimeout(resolve, 20))
    // From here a new connection may sit in the kernel's backlog when the listener closes: its
    // requests count as retried, not cut off (a starved client can take this long to connect).
    stopping = true
    await new Promise((resolve) => setTimeout(resolve, 250))
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    exited = true
    await Promise.all(clients)
    agent.destroy()
    expect(code).toBe(0)
    expect(outcomes.cutOff).toEqual([])
  })
})
