import type { FastifyInstance, FastifyRequest } from 'fastify'
import { awsJsonService } from '#server/identity/aws-json-protocol.ts'
import { CognitoError } from '#server/identity/cognito-error.ts'
import type { UserPoolContext } from './context.ts'
import { userPoolOperations } from './operations/index.ts'

export const BODY_LIMIT_BYTES = 64 * 1024

/**
 * The user pool over HTTP, mounted at /cognito-idp: the JSON protocol at the root (with and
 * without a trailing slash), the JWKS beneath the issuer, and a JSON 404 for anything else
 * under the prefix so that no such path falls through to the pages.
 */
export async function userPoolPlugin(
  service: FastifyInstance,
  options: { ctx: UserPoolContext },
): Promise<void> {
  const { ctx } = options
  // Each request's operations see its client address (abuse limits, lockout); the operations
  // are closures over the context, cheap to make per request.
  const shared = userPoolOperations(ctx)
  const names = Object.keys(shared) as (keyof typeof shared)[]
  const operations = Object.fromEntries(
    names.map((name) => [
      name,
      {
        input: shared[name].input,
        handle: (body: never, request: FastifyRequest) =>
          userPoolOperations({ ...ctx, sourceIp: request.ip })[name].handle(body, request),
      },
    ]),
  )
  // Called directly, not registered, so its hooks (request id, CORS, errors) cover the
  // routes below as well.
  await awsJsonService(service, {
    targetPrefix: 'AWSCognitoIdentityProviderService',
    operations,
    bodyLimit: BODY_LIMIT_BYTES,
  })

  service.get('/:userPoolId/.well-known/jwks.json', async (request, reply) => {
    const { userPoolId } = request.params as { userPoolId: string }
    if (userPoolId !== ctx.settings.userPoolId) throw notFound()
    return reply.header('cache-control', 'public, max-age=300').send(ctx.keys.jwks())
  })
  service.route({
    method: ['GET', 'PUT', 'DELETE', 'PATCH'],
    url: '/',
    handler: async () => {
      throw new CognitoError('UnknownOperationException', 'Send operations as POST requests.')
    },
  })
  service.all('/*', async () => {
    throw notFound()
  })
}

const notFound = () => new CognitoError('ResourceNotFoundException', 'Not found.', 404)
