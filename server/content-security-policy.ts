import { randomBytes } from 'node:crypto'
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
