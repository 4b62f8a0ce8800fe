import { randomBytes } from 'node:crypto'
import { PYODIDE_PATH, RUNNER_WORKER_PATH } from '#features/exercises/runner-assets.ts'
import type { Config } from './config.ts'

/**
 * The pages' Content-Security-Policy (docs/decisions/020): scripts only from this origin or
 * inline with the response's nonce, no plugins, no `<base>`, never framed. Styles may be inline
 * (React's style attributes, CodeMirror's injected sheets); images may be any https URL, since
 * Markdown may show them (features/markdown/urls.ts).
 */
export type PagePolicy = (nonce: string) => string

/** 128 random bits, base64url: a fresh one for every page response. */
export function newNonce(): string {
  return randomBytes(16).toString('base64url')
}

export function pagePolicy(config: Config): PagePolicy {
  const { identity, storage } = config
  const publicObjects = storage.publicUrl ? [new URL(storage.publicUrl).origin] : []
  // The realtime socket (/realtime): CSP 3 lets 'self' cover ws(s) to the same host, older
  // engines need the site's own origin in its WebSocket scheme.
  const socketOrigin = new URL(config.public.baseUrl).origin.replace(/^http/, 'ws')
  const connect = ["'self'", socketOrigin, ...publicObjects]
  if (identity.endpoints === 'aws') {
    connect.push(
      `https://cognito-idp.${identity.region}.amazonaws.com`,
      `https://cognito-identity.${identity.region}.amazonaws.com`,
    )
  }
  const awsBucket = `https://${storage.bucket}.s3.${storage.region}.amazonaws.com`
  if (storage.browserEndpoint === 'aws') {
    connect.push(awsBucket)
    publicObjects.push(awsBucket)
  }
  if (/^https?:/.test(config.public.apiGatewayUrl)) {
    connect.push(new URL(config.public.apiGatewayUrl).origin)
  }
  const development = config.env === 'development'
  // Vite's dev server injects inline scripts without our nonce and talks over a WebSocket.
  const scripts = development ? ["'unsafe-inline'", "'unsafe-eval'"] : []
  if (development) connect.push('ws:', 'wss:')
  const fixed = [
    "default-src 'self'",
    `style-src 'self' 'unsafe-inline'`,
    `img-src 'self' data: blob: https: ${publicObjects.join(' ')}`.trimEnd(),
    `media-src 'self' blob: ${publicObjects.join(' ')}`.trimEnd(),
    "font-src 'self' data:",
    `connect-src ${connect.join(' ')}`,
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
  ]
  return (nonce) =>
    [`script-src 'self' ${development ? scripts.join(' ') : `'nonce-${nonce}'`}`, ...fixed].join(
      '; ',
    )
}

/**
 * The rendered page with its policy: the nonce React and React Router put on the page's inline
 * scripts is the one the header allows. A page the guest cache replays keeps its render's nonce
 * (decision 029): it was random when the page was rendered, so no stored content can contain it.
 */
export function withNonce(response: Response, policy: PagePolicy, nonce: string): Response {
  const headers = new Headers(response.headers)
  headers.set('content-security-policy', policy(nonce))
  return new Response(response.body, { status: response.status, headers })
}

/** A Host header that is a host name or address with an optional port, and nothing else. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9.-]{0,252})|\[[0-9a-f:.]{2,45}\])(?::\d{1,5})?$/i

/**
 * The code runners' Workers' own policy (docs/decisions/032), sent with their scripts (a
 * dedicated worker follows its script's response policy, not the page's). Code that is not the
 * learner's runs there, so: no network except Pyodide's files, scripts only the runner's and
 * Pyodide's, no nested workers, nothing else (`default-src 'none'`). Eval (the JavaScript
 * runner runs the program with it) and WebAssembly (Pyodide) are allowed here only, never on a
 * page. Sources with a path need the absolute origin: the one the browser asked (`Host`),
 * which must be a plain host; any other gets a policy that loads nothing. An `http:` source
 * also matches the `https:` URL of the same host.
 */
export function runnerWorkerPolicy(host: string | undefined): string {
  const origin = host && HOST.test(host) ? `http://${host.toLowerCase()}` : undefined
  const runner = origin ? `${origin}${RUNNER_WORKER_PATH}` : "'none'"
  const pyodide = origin ? `${origin}${PYODIDE_PATH}` : ''
  return [
    "default-src 'none'",
    `script-src ${runner} ${pyodide} 'unsafe-eval' 'wasm-unsafe-eval'`.replace(/ {2,}/g, ' '),
    `connect-src ${pyodide || "'none'"}`,
    "worker-src 'none'",
    "base-uri 'none'",
  ].join('; ')
}
