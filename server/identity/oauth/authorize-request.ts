import { z } from 'zod'
import type { IdentitySettings } from '#server/config.ts'
import { OAuthError } from './oauth-error.ts'

/** The path of the app's page that finishes a hosted sign-in (Amplify's redirectSignIn). */
export const APP_CALLBACK_PATH = '/auth/callback_google'

/** The scopes our app client may ask for, as a Cognito app client allows them. */
export const ALLOWED_SCOPES = [
  'openid',
  'email',
  'phone',
  'profile',
  'aws.cognito.signin.user.admin',
]

const text = (max: number) => z.string().max(max).optional()

/** `/oauth2/authorize`'s query, before any check of what it asks for. */
export const authorizeQuery = z.object({
  client_id: text(128),
  redirect_uri: text(2048),
  response_type: text(32),
  state: text(2048),
  scope: text(1024),
  identity_provider: text(64),
  idp_identifier: text(64),
  code_challenge: text(128),
  code_challenge_method: text(16),
  nonce: text(512),
})

/** A checked authorization request: what the code issued at its end is bound to. */
export type ClientRequest = {
  clientId: string
  redirectUri: string
  state: string | undefined
  scope: string
  codeChallenge: string
  nonce: string | undefined
}

/**
 * Checks the client and its redirect URI first: until both are trusted, errors are answered
 * here (never redirected). After that, errors go back to the client as `error=…` redirects.
 */
export function trustedRedirect(
  settings: IdentitySettings,
  query: z.infer<typeof authorizeQuery>,
): { clientId: string; redirectUri: string } {
  if (query.client_id !== settings.clientId) {
    throw new OAuthError('invalid_request', 'Invalid client id.')
  }
  if (!query.redirect_uri || !isAllowed(query.redirect_uri, callbackUrls(settings))) {
    throw new OAuthError('redirect_mismatch', 'The redirect_uri is not allowed for this client.')
  }
  return { clientId: query.client_id, redirectUri: query.redirect_uri }
}

/** The rest of the request: code flow with PKCE S256, a known provider, allowed scopes. */
export function clientRequest(
  query: z.infer<typeof authorizeQuery>,
  trusted: { clientId: string; redirectUri: string },
  providers: readonly string[],
): ClientRequest {
  if (query.response_type !== 'code') {
    throw new OAuthError('unsupported_response_type', 'Only response_type=code is supported.')
  }
  if (!query.code_challenge || query.code_challenge_method !== 'S256') {
    throw new OAuthError('invalid_request', 'PKCE with code_challenge_method=S256 is required.')
  }
  if (!/^[A-Za-z0-9_-]{43}$/.test(query.code_challenge)) {
    throw new OAuthError('invalid_request', 'The code_challenge is not a S256 challenge.')
  }
  const provider = query.identity_provider ?? query.idp_identifier
  if (!provider || !providers.includes(provider)) {
    throw new OAuthError(
      'invalid_request',
      `identity_provider must be one of: ${providers.join(', ') || 'none configured'}.`,
    )
  }
  const scopes = [
    ...new Set((query.scope ?? ALLOWED_SCOPES.join(' ')).split(/\s+/).filter(Boolean)),
  ]
  if (scopes.length === 0 || scopes.some((scope) => !ALLOWED_SCOPES.includes(scope))) {
    throw new OAuthError('invalid_scope', 'The requested scope is invalid.')
  }
  return {
    ...trusted,
    state: query.state,
    scope: scopes.join(' '),
    codeChallenge: query.code_challenge,
    nonce: query.nonce,
  }
}

/** Where `/logout` may send the browser: configured URLs, or the site's home page. */
export function signOutAllowed(settings: IdentitySettings, url: string) {
  const { signOutUrls, siteOrigins } = settings.oauth
  return isAllowed(url, signOutUrls ?? siteOrigins.map((origin) => `${origin}/`))
}

function callbackUrls(settings: IdentitySettings): string[] {
  const { callbackUrls, siteOrigins } = settings.oauth
  return callbackUrls ?? siteOrigins.map((origin) => `${origin}${APP_CALLBACK_PATH}`)
}

function isAllowed(url: string, allowed: readonly string[]): boolean {
  return allowed.includes(url)
}

/** `redirectUri` with the answer's parameters added (kept after any it already has). */
export function withParameters(
  redirectUri: string,
  parameters: Record<string, string | undefined>,
) {
  const url = new URL(redirectUri)
  for (const [name, value] of Object.entries(parameters)) {
    if (value !== undefined) url.searchParams.append(name, value)
  }
  return url.href
}
