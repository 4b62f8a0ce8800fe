import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { markupBeforeScripts, SIGNED_IN_PREFIX, startBaseline } from '#bench/baseline.ts'
import { appEnvironment } from '#bench/environment.ts'
import { loadConfig } from '#server/config.ts'
import { type RunningServer, startServer } from '#server/start.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'

// The page benchmark's bare baseline renders the app's own components from its build with
// data captured once (bench/baseline.ts): this keeps it honest — same markup as the real pages,
// same API body — so a change to a page can never leave the baseline measuring something else.
describe('the benchmark baseline', () => {
  let dataDir: string
  let app: RunningServer
  let baseline: Awaited<ReturnType<typeof startBaseline>>
  let cookie: string

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-baseline-'))
    // As the benchmark runs the app: production settings, the demo content seeded.
    app = await startServer(loadConfig(appEnvironment(dataDir, 0)), { logger: false })
    cookie = await signedInCookie(app, 'baseline_reader')
    baseline = await startBaseline({
      dataDir,
      pagePaths: ['/', '/courses'],
      signedIn: { cookie, pagePaths: ['/', '/drafts'] },
      apiPaths: ['/api/courses', '/api/search?q=JavaScript'],
    })
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

  it.each(['/', '/drafts'])(
    'renders %s as the real page renders it for a signed-in reader',
    async (pathname) => {
      const real = await fetch(`${app.url}${pathname}`, { headers: { cookie }, redirect: 'manual' })
      expect(real.status).toBe(200)
      const bare = await fetch(
        `${baseline.url}${SIGNED_IN_PREFIX}${pathname === '/' ? '' : pathname}`,
      )
      const markup = markupBeforeScripts(await bare.text())
      expect(markup).toContain('baseline_reader')
      expect(markup).toBe(markupBeforeScripts(await real.text()))
    },
  )

  it.each(['/api/courses', '/api/search'])('answers %s with the real body', async (pathname) => {
    const query = pathname === '/api/search' ? '?q=JavaScript' : ''
    const body = async (origin: string) => (await fetch(`${origin}${pathname}${query}`)).json()
    expect(await body(baseline.url)).toEqual(await body(app.url))
  })
})
