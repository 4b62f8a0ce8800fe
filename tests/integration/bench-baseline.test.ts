import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markupBeforeScripts, startBaseline } from '#bench/baseline.ts'
import { appEnvironment } from '#bench/environment.ts'
import { loadConfig } from '#server/config.ts'
import { type RunningServer, startServer } from '#server/start.ts'

// The page benchmark's bare baseline renders the app's own components from its build with
// data captured once (bench/baseline.ts): this keeps it honest — same markup as the real pages,
// same API body — so a change to a page can never leave the baseline measuring something else.
describe('the benchmark baseline', () => {
  let dataDir: string
  let app: RunningServer
  let baseline: Awaited<ReturnType<typeof startBaseline>>

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-baseline-'))
    // As the benchmark runs the app: production settings, the demo content seeded.
    app = await startServer(loadConfig(appEnvironment(dataDir, 0)), { logger: false })
    baseline = await startBaseline({ dataDir, pagePaths: ['/', '/courses'] })
  })
  afterAll(async () => {
    await baseline?.app.close()
    await app?.app.close()
    await app?.database.close()
    await rm(dataDir, { recursive: true, force: true })
  })

  it.each(['/', '/courses'])('renders %s with the real page’s markup', async (pathname) => {
    const markup = async (origin: string) => {
      const response = await fetch(`${origin}${pathname}`)
      expect(response.status).toBe(200)
      return markupBeforeScripts(await response.text())
    }
    const real = await markup(app.url)
    const bare = await markup(baseline.url)
    expect(bare.length).toBeGreaterThan(1000)
    expect(bare).toBe(real)
  })

  it('answers /api/courses with the real body', async () => {
    const body = async (origin: string) => (await fetch(`${origin}/api/courses`)).json()
    expect(await body(baseline.url)).toEqual(await body(app.url))
  })
})
