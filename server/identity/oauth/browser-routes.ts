import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import type { PoolUser } from '#server/identity/user-pool/users.ts'
import {
  authorizeQuery,
  type ClientRequest,
  clientRequest,
  signOutAllowed,
  trustedRedirect,
  withParameters,
} from './authorize-request.ts'
import { clearCookie, readCookie, SIGN_UP_COOKIE, STATE_COOKIE, setCookie } from './cookies.ts'
import { accountOfGoogleIdentity, createFederatedUser, GOOGLE } from './federated-users.ts'
import type { Google } from './google.ts'
import { openGrant, takeGrant } from './grants.ts'
import { invalidRequest, OAuthError, parseOrRefuse } from './oauth-error.ts'

/** The app's page where a first Google sign-in chooses its username. */
export const SETUP_USERNAME_PATH = '/auth/setupUsername'

const STEP_COOKIE_SECONDS = 10 * 60

const idpResponseQuery = z.object({
  state: z.string().max(2048).optional(),
  code: z.string().max(4096).optional(),
  error: z
    .string()
    .regex(/^[\w.-]{1,64}$/)
    .optional(),
})

const usernameForm = z.object({ username: z.string().max(128).default('') })

const logoutQuery = z.object({
  client_id: z.string().max(128).optional(),
  logout_uri: z.string().max(2048).optional(),
})

/**
 * Where the browser goes during a hosted sign-in and sign-out (redirects): `/oauth2/authorize`
 * federates to Google, `/oauth2/idpresponse` takes Google's answer, `/oauth2/setupUsername`
 * takes the username form of the app's `/auth/setupUsername`, and `/logout` sends the
 * browser back to the app.
 */
export function browserRoutes(
  app: FastifyInstance,
  ctx: UserPoolContext,
  google: Google | undefined,
): void {
  // Long by design: one registrar for the browser's sign-in routes; each route's handler is its own closure.
  const providers = google ? [GOOGLE] : []
  const origin = (request: FastifyRequest) =>
    ctx.settings.oauth.publicOrigin ?? `${request.protocol}://${request.host}`

  /** Sends the browser back to the client with a code for this user. */
  async function toClientWithCode(reply: FastifyReply, client: ClientRequest, user: PoolUser) {
    if (user.enabled !== 1) {
      return toClientWithError(reply, client, invalidRequest('User is disabled.'))
    }
    const code = await openGrant(ctx, 'authorizationCode', user.sub, { client })
    return reply.redirect(withParameters(client.redirectUri, { code, state: client.state }))
  }

  function toClientWithError(
    reply: FastifyReply,
    client: ClientRequest | { redirectUri: string; state?: string },
    error: OAuthError,
  ) {
    return reply.redirect(
      withParameters(client.redirectUri, {
        error_description: error.message,
        state: client.state,
        error: error.error,
      }),
    )
  }

  app.get('/oauth2/authorize', async (request, reply) => {
    const query = parseOrRefuse(authorizeQuery, request.query)
    const trusted = trustedRedirect(ctx.settings, query)
    let client: ClientRequest
    try {
      client = clientRequest(query, trusted, providers)
    } catch (error) {
      if (!(error instanceof OAuthError)) throw error
      return toClientWithError(reply, { ...trusted, state: query.state }, error)
    }
    if (!google) throw new Error('a provider was accepted without Google configured')
    const googleRequest = google.newRequest(`${origin(request)}/oauth2/idpresponse`)
    // The grant's handle is the `state` Google returns with its answer.
    const state = await openGrant(ctx, 'googleRequest', null, { client, google: googleRequest })
    let url: string
    try {
      url = await google.authorizationUrl(state, googleRequest)
    } catch (error) {
      // Google's discovery document could not be read: tell the client, as Cognito would.
      request.log.warn({ error: (error as Error).message }, 'Google discovery failed')
      return toClientWithError(
        reply,
        client,
        new OAuthError(
          'temporarily_unavailable',
          'Google sign-in is unavailable; try again later.',
        ),
      )
    }
    setCookie(request, reply, STATE_COOKIE, state, STEP_COOKIE_SECONDS)
    return reply.redirect(url)
  })

  app.get('/oauth2/idpresponse', async (request, reply) => {
    const query = parseOrRefuse(idpResponseQuery, request.query)
    const cookie = readCookie(request, STATE_COOKIE)
    clearCookie(request, reply, STATE_COOKIE)
    // The state must come back to the browser that started the sign-in (no login CSRF).
    if (!query.state || cookie !== query.state) {
      throw invalidRequest('The state does not belong to this browser.')
    }
    const pending = await takeGrant(ctx, 'googleRequest', query.state)
    if (!pending || !google) throw invalidRequest('The sign-in has expired; start again.')
    const { client } = pending.state
    if (query.error || !query.code) {
      return toClientWithError(
        reply,
        client,
        new OAuthError(query.error ?? 'invalid_request', 'Google sign-in did not complete.'),
      )
    }
    const callbackUrl = new URL(pending.state.google.redirectUri)
    callbackUrl.search = new URL(request.url, 'http://localhost').search
    let identity: Awaited<ReturnType<Google['identity']>>
    try {
      identity = await google.identity(callbackUrl, query.state, pending.state.google)
    } catch (error) {
      request.log.warn(
        { error: (error as Error).name, code: (error as { code?: string }).code },
        'Google answer refused',
      )
      return toClientWithError(
        reply,
        client,
        invalidRequest('Google sign-in could not be verified.'),
      )
    }
    const user = await accountOfGoogleIdentity(ctx, identity)
    if (user) return toClientWithCode(reply, client, user)
    const handle = await openGrant(ctx, 'pendingSignUp', null, { client, identity })
    setCookie(request, reply, SIGN_UP_COOKIE, handle, STEP_COOKIE_SECONDS)
    return reply.redirect(
      `${SETUP_USERNAME_PATH}?${new URLSearchParams({ suggestion: suggestedUsername(identity.email) })}`,
    )
  })

  app.post('/oauth2/setupUsername', async (request, reply) => {
    const form = parseOrRefuse(usernameForm, request.body ?? {})
    const handle = readCookie(request, SIGN_UP_COOKIE)
    const pending = handle ? await takeGrant(ctx, 'pendingSignUp', handle) : undefined
    if (!pending) {
      clearCookie(request, reply, SIGN_UP_COOKIE)
      return reply.redirect(`${SETUP_USERNAME_PATH}?expired=1`)
    }
    const result = await createFederatedUser(ctx, pending.state.identity, form.username)
    if ('refusal' in result) {
      // Another try with a new handle; the step keeps its original purpose and data.
      const next = await openGrant(ctx, 'pendingSignUp', null, pending.state)
      setCookie(request, reply, SIGN_UP_COOKIE, next, STEP_COOKIE_SECONDS)
      return reply.redirect(
        `${SETUP_USERNAME_PATH}?${new URLSearchParams({ username: form.username, error: result.refusal })}`,
      )
    }
    clearCookie(request, reply, SIGN_UP_COOKIE)
    ctx.log.info({ sub: result.user.sub }, 'user pool account created by a Google sign-in')
    return toClientWithCode(reply, pending.state.client, result.user)
  })

  app.get('/logout', async (request, reply) => {
    const query = parseOrRefuse(logoutQuery, request.query)
    if (query.client_id !== ctx.settings.clientId) throw invalidRequest('Invalid client id.')
    if (!query.logout_uri || !signOutAllowed(ctx.settings, query.logout_uri)) {
      throw new OAuthError('redirect_mismatch', 'The logout_uri is not allowed for this client.')
    }
    clearCookie(request, reply, STATE_COOKIE)
    clearCookie(request, reply, SIGN_UP_COOKIE)
    return reply.redirect(query.logout_uri)
  })
}

/** A username to offer a first-time Google user: their email's local part, made valid. */
function suggestedUsername(email: string | undefined): string {
  const local = (email ?? '').split('@')[0] ?? ''
  const cleaned = local
    .toLowerCase()
    .replace(/[^a-z0-9_]/g, '_')
    .slice(0, 20)
  return cleaned.length >= 3 ? cleaned : ''
}
