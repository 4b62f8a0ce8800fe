import { randomUUID } from 'node:crypto'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { z } from 'zod'
import { CognitoError } from './cognito-error.ts'

/**
 * The AWS JSON 1.1 protocol as the Cognito services speak it: POST to the service root,
 * `X-Amz-Target: {Service}.{Operation}`, JSON in and out, errors as `{"__type","message"}`
 * with `x-amzn-ErrorType`, a request id on every answer, and CORS for browsers.
 */
export type AwsJsonOperation<Input = unknown> = {
  input: z.ZodType<Input>
  handle(input: Input, request: FastifyRequest): Promise<object>
}

export type AwsJsonServiceOptions = {
  /** e.g. `AWSCognitoIdentityService` */
  targetPrefix: string
  // biome-ignore lint/suspicious/noExplicitAny: each operation has its own input type
  operations: Record<string, AwsJsonOperation<any>>
  bodyLimit?: number
}

const CORS_HEADERS = {
  'access-control-allow-methods': 'POST, OPTIONS',
  'access-control-allow-headers':
    'content-type, x-amz-target, x-amz-user-agent, x-amz-date, x-amz-security-token, authorization, cache-control, amz-sdk-invocation-id, amz-sdk-request',
  'access-control-expose-headers': 'x-amzn-requestid, x-amzn-errortype, x-amzn-errormessage, date',
  'access-control-max-age': '86400',
}

export async function awsJsonService(
  service: FastifyInstance,
  options: AwsJsonServiceOptions,
): Promise<void> {
  service.removeAllContentTypeParsers()
  service.addContentTypeParser(
    '*',
    { parseAs: 'string', bodyLimit: options.bodyLimit ?? 64 * 1024 },
    (_request, body, done) => done(null, body),
  )

  service.addHook('onRequest', async (request, reply) => {
    reply.header('x-amzn-requestid', randomUUID())
    reply.header('access-control-allow-origin', request.headers.origin ?? '*')
    reply.header('vary', 'origin')
    for (const [name, value] of Object.entries(CORS_HEADERS)) reply.header(name, value)
  })

  service.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof CognitoError) return sendError(reply, error)
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return sendError(
        reply,
        new CognitoError('InvalidParameterException', 'Request body is too large.'),
      )
    }
    if (error.statusCode && error.statusCode < 500) {
      return sendError(reply, new CognitoError('InvalidParameterException', error.message))
    }
    request.log.error({ err: error }, `${options.targetPrefix} operation failed`)
    return sendError(
      reply,
      new CognitoError('InternalErrorException', 'An internal error occurred.', 500),
    )
  })

  const preflight = async (_request: FastifyRequest, reply: FastifyReply) => reply.code(204).send()
  const dispatch = async (request: FastifyRequest, reply: FastifyReply) => {
    const operation = operationOf(request.headers['x-amz-target'], options)
    const body = parseBody(request.body)
    const input = operation.input.safeParse(body)
    if (!input.success) throw invalidInput(input.error)
    const output = await operation.handle(input.data, request)
    return reply.type('application/x-amz-json-1.1').send(JSON.stringify(output))
  }
  service.options('/', preflight)
  service.post('/', dispatch)
}

function operationOf(target: string | string[] | undefined, options: AwsJsonServiceOptions) {
  const value = Array.isArray(target) ? target[0] : target
  const [prefix, name] = (value ?? '').split('.', 2)
  const operation = prefix === options.targetPrefix && name ? options.operations[name] : undefined
  if (!operation || !Object.hasOwn(options.operations, name as string)) {
    throw new CognitoError('UnknownOperationException', `Unknown operation ${value ?? '(none)'}`)
  }
  return operation
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string' || body.trim() === '') return {}
  try {
    return JSON.parse(body)
  } catch {
    throw new CognitoError('SerializationException', 'The request body is not valid JSON.')
  }
}

function invalidInput(error: z.ZodError): CognitoError {
  const issue = error.issues[0]
  const field = issue?.path.join('.') || 'input'
  return new CognitoError(
    'InvalidParameterException',
    `1 validation error detected: Value at '${field}' failed to satisfy constraint: ${issue?.message ?? 'invalid'}`,
  )
}

function sendError(reply: FastifyReply, error: CognitoError) {
  return reply
    .code(error.status)
    .header('x-amzn-errortype', error.type)
    .type('application/x-amz-json-1.1')
    .send(JSON.stringify(error.toJSON()))
}
