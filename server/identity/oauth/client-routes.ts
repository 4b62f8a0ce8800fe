import type { FastifyInstance } from 'fastify'
import { z } from 'zod'
import { findRefreshToken, revokeRefreshToken } from '#server/identity/tokens/refresh-tokens.ts'
import { TokenRejected } from '#server/identity/tokens/verifier.ts'
import { attributeList } from '#server/identity/user-pool/attributes.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import { identitiesOf } from '#server/identity/user-pool/linked-identities.ts'
import { findUserBySub, type PoolUser } from '#server/identity/user-pool/users.ts'
import { invalidRequest, OAuthError, parseOrRefuse } from './oauth-error.ts'
import { exchangeAtTokenEndpoint, tokenForm } from './token-endpoint.ts'

const revokeForm = z.object({
  token: z.string().max(16_384).optional(),
  client_id: z.string().max(128).optional(),
})

/**
 * What OAuth clients call directly (JSON answers): `/oauth2/token`, `/oauth2/userInfo` and
 * `/oauth2/revoke`, as Cognito's domain answers them.
 */
export function clientRoutes(app: FastifyInstance, ctx: UserPoolContext): void {
  app.post('/oauth2/token', async (request, reply) => {
    const form = parseOrRefuse(tokenForm, request.body ?? {})
    reply.header('pragma', 'no-cache')
    return reply.send(await exchangeAtTokenEndpoint(ctx, form))
  })

  app.route({
    method: ['GET', 'POST'],
    url: '/oauth2/userInfo',
    handler: async (request, reply) => {
      const match = /^Bearer ([A-Za-z0-9_.=-]{1,16384})$/.exec(request.headers.authorization ?? '')
      let user: PoolUser | undefined
      try {
        const claims = match?.[1] ? await ctx.verifyToken(match[1], 'access') : undefined
        user = claims ? await findUserBySub(ctx.db, String(claims.sub)) : undefined
      } catch (error) {
        if (!(error instanceof TokenRejected)) throw error
      }
      if (!user) {
        reply.header('www-authenticate', 'Bearer error="invalid_token"')
        return reply
          .code(401)
          .send(new OAuthError('invalid_token', 'Access token is invalid.', 401).toJSON())
      }
      const identities = await identitiesOf(ctx.db, user.sub)
      return reply.send({
        ...Object.fromEntries(
          attributeList(user).map((attribute) => [attribute.Name, attribute.Value]),
        ),
        username: user.username,
        ...(identities.length > 0 && {
          identities: JSON.stringify(
            identities.map((identity) => ({
              userId: identity.userId,
              providerName: identity.providerName,
              providerType: identity.providerName,
              issuer: null,
              primary: true,
              dateCreated: identity.dateCreated,
            })),
          ),
        }),
      })
    },
  })

  app.post('/oauth2/revoke', async (request, reply) => {
    const form = parseOrRefuse(revokeForm, request.body ?? {})
    if (!form.token) throw invalidRequest('token is required.')
    if (form.client_id !== ctx.settings.clientId) {
      throw new OAuthError('invalid_client', 'Client authentication failed.')
    }
    const row = await findRefreshToken(ctx.db, form.token)
    if (row && row.client_id === form.client_id)
      await revokeRefreshToken(ctx.db, form.token, ctx.now())
    return reply.send({})
  })
}
