import { describe, expect, it } from 'vitest'
import { PYODIDE_PATH, RUNNER_WORKER_PATH } from '#features/exercises/runner-assets.ts'
import { loadConfig } from './config.ts'
import { newNonce, pagePolicy, runnerWorkerPolicy, withNonce } from './content-security-policy.ts'

const directives = (policy: string) =>
  Object.fromEntries(
    policy.split('; ').map((directive) => {
      const [name, ...sources] = directive.split(' ')
      return [name, sources]
    }),
  )

describe('pagePolicy', () => {
  it('allows the public objects origin and the AWS endpoints the browser is sent to', () => {
    const policy = pagePolicy(
      loadConfig({
        STORAGE_PUBLIC_URL: 'https://files.techlab.example/s3/techlab',
        STORAGE_ENDPOINTS: 'aws',
        IDENTITY_ENDPOINTS: 'aws',
      }),
    )('abc')
    const parsed = directives(policy)
    expect(parsed['script-src']).toEqual(["'self'", "'nonce-abc'"])
    expect(parsed['img-src']).toContain('https://files.techlab.example')
    expect(parsed['connect-src']).toEqual(
      expect.arrayContaining([
        "'self'",
        'https://cognito-idp.ap-northeast-1.amazonaws.com',
        'https://techlab.s3.ap-northeast-1.amazonaws.com',
      ]),
    )
    expect(parsed['object-src']).toEqual(["'none'"])
  })

  it("lets pages open the realtime socket on the site's own origin, and no other", () => {
    const secure = directives(
      pagePolicy(
        loadConfig({ PUBLIC_BASE_URL: 'https://techlab.example', ALLOW_EMBEDDED_PAYMENTS: 'true' }),
      )('abc'),
    )
    expect(secure['connect-src']).toEqual(["'self'", 'wss://techlab.example'])
    const plain = directives(pagePolicy(loadConfig({ PORT: '3000' }))('abc'))
    expect(plain['connect-src']).toEqual(["'self'", 'ws://localhost:3000'])
  })

  it('relaxes scripts for Vite in development only', () => {
    const parsed = directives(pagePolicy(loadConfig({ NODE_ENV: 'development' }))('abc'))
    expect(parsed['script-src']).toEqual(["'self'", "'unsafe-inline'", "'unsafe-eval'"])
    expect(parsed['connect-src']).toContain('ws:')
  })
})

describe('withNonce', () => {
  it('sets the policy allowing the nonce the page was rendered with, and keeps the page', async () => {
    const policy = pagePolicy(loadConfig({}))
    const nonce = newNonce()
    const page = new Response(`<script nonce="${nonce}">1</script>`, {
      headers: { 'content-type': 'text/html' },
    })
    const answered = withNonce(page, policy, nonce)
    expect(answered.headers.get('content-security-policy')).toBe(policy(nonce))
    expect(await answered.text()).toBe(`<script nonce="${nonce}">1</script>`)
  })
})

describe('runnerWorkerPolicy', () => {
  it('lets the runners load only their own scripts and Pyodide’s files from the asked host', () => {
    const parsed = directives(runnerWorkerPolicy('127.0.0.1:3000'))
    expect(parsed['default-src']).toEqual(["'none'"])
    expect(parsed['script-src']).toEqual([
      `http://127.0.0.1:3000${RUNNER_WORKER_PATH}`,
      `http://127.0.0.1:3000${PYODIDE_PATH}`,
      "'unsafe-eval'",
      "'wasm-unsafe-eval'",
    ])
    expect(parsed['connect-src']).toEqual([`http://127.0.0.1:3000${PYODIDE_PATH}`])
    expect(parsed['worker-src']).toEqual(["'none'"])
  })

  it('loads nothing for a Host that is not a plain host (no directive can be smuggled in)', () => {
    for (const host of [undefined, '', 'evil.example; script-src *', 'a b', 'x/y', 'h"']) {
      const parsed = directives(runnerWorkerPolicy(host))
      expect(parsed['script-src']).toEqual(["'none'", "'unsafe-eval'", "'wasm-unsafe-eval'"])
      expect(parsed['connect-src']).toEqual(["'none'"])
    }
    expect(directives(runnerWorkerPolicy('[::1]:8080'))['connect-src']).toEqual([
      `http://[::1]:8080${PYODIDE_PATH}`,
    ])
  })
})
