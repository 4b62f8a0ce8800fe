import type { FastifyInstance } from 'fastify'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { browserRoutes } from './browser-routes.ts'
import { clientRoutes } from './client-routes.ts'
import type { Google } from './google.ts'
import { invalidRequest, OAuthError } from './oauth-error.ts'

const FORM_LIMIT_BYTES = 64 * 1024

/**
 * Cognito's hosted OAuth endpoints, without its hosted pages (docs/decisions/009): the
 * browser's redirects (browser-routes.ts) and the clients' JSON calls (client-routes.ts),
 * with forms parsed, answers never cached, and errors in OAuth's shape. Google is the only
 * identity provider. Codes, tokens and Google's answers are never logged.
 */
export async function oauthPlugin(
  app: FastifyInstance,
  options: { ctx: UserPoolContext; google: Google | undefined },
): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT_BYTES },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  )
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store')
  })
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof OAuthError) return reply.code(error.status).send(error.toJSON())
    const status = (error as { statusCode?: number }).statusCode
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send(invalidRequest('The request is malformed.').toJSON())
    }
    request.log.error({ err: error }, 'hosted OAuth endpoint failed')
    return reply.code(500).send({ error: 'server_error' })
  })

  browserRoutes(app, options.ctx, options.google)
  clientRoutes(app, options.ctx)
  app.all('/oauth2', notFound)
  app.all('/oauth2/*', notFound)
}

async function notFound(): Promise<never> {
  throw new OAuthError('invalid_request', 'Not found.', 404)
}
