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
  const connect = ["'self'", ...publicObjects]
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

const NONCE_IN_POLICY = /'nonce-([\w-]+)'/

/**
 * A page rendered for someone else (the guest page cache replays one render to many visitors)
 * carries that render's nonce: give this response a nonce of its own, in the policy and in every
 * place the page names it. The old nonce was random when that page was rendered, so no stored
 * content can contain it.
 */
export async function withNonce(
  response: Response,
  policy: PagePolicy,
  nonce: string,
): Promise<Response> {
  const headers = new Headers(response.headers)
  const previous = NONCE_IN_POLICY.exec(headers.get('content-security-policy') ?? '')?.[1]
  headers.set('content-security-policy', policy(nonce))
  const html = headers.get('content-type')?.startsWith('text/html') === true
  if (!previous || previous === nonce || !html || !response.body) {
    return new Response(response.body, { status: response.status, headers })
  }
  // Nonces are all 22 characters: each occurrence is overwritten in place, in a copy of the
  // bytes (the cache's own copy stays as it is), without decoding the page.
  const body = Buffer.from(await response.arrayBuffer())
  const [from, to] = [Buffer.from(previous), Buffer.from(nonce)]
  if (from.length !== to.length) throw new Error('nonces of different lengths')
  for (let at = body.indexOf(from); at >= 0; at = body.indexOf(from, at + from.length)) {
    to.copy(body, at)
  }
  return new Response(body, { status: response.status, headers })
}
