import type { FastifyRequest } from 'fastify'

/**
 * Query parameters that carry a credential: OAuth codes and states on the way back from
 * Google and to the app's callback, tokens some clients put in URLs, and a presigned S3 URL's
 * signature, session token and access key id. Request logs show them as `***`.
 */
const SECRET_PARAMETERS = new Set([
  'code',
  'state',
  'id_token',
  'access_token',
  'refresh_token',
  'token',
  'code_verifier',
  'x-amz-signature',
  'x-amz-security-token',
  'x-amz-credential',
])

/** The request URL for logs, with the values of secret parameters removed. */
export function loggableUrl(url: string): string {
  const question = url.indexOf('?')
  if (question < 0) return url
  const parameters = new URLSearchParams(url.slice(question + 1))
  let changed = false
  for (const name of new Set(parameters.keys())) {
    if (SECRET_PARAMETERS.has(name.toLowerCase())) {
      parameters.set(name, '***')
      changed = true
    }
  }
  return changed ? `${url.slice(0, question)}?${parameters}` : url
}

/** Fastify's default request serializer, with the URL made loggable. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: loggableUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  }
}
