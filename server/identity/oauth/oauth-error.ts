import type { z } from 'zod'

/**
 * The one error type of the hosted OAuth endpoints, in RFC 6749's words as Cognito's hosted
 * UI uses them: a JSON `{"error"}` body from the token endpoint, or `error` and
 * `error_description` added to the client's redirect URI once that URI is trusted.
 */
export class OAuthError extends Error {
  readonly error: string
  readonly status: number

  constructor(error: string, description: string, status = 400) {
    super(description)
    this.name = 'OAuthError'
    this.error = error
    this.status = status
  }

  toJSON() {
    return { error: this.error, error_description: this.message }
  }
}

export const invalidGrant = (description = 'The grant is invalid or has expired.') =>
  new OAuthError('invalid_grant', description)
export const invalidRequest = (description: string) =>
  new OAuthError('invalid_request', description)

/** The value as the schema reads it, or `invalid_request` naming the first bad field. */
export function parseOrRefuse<T extends z.ZodType>(schema: T, value: unknown): z.infer<T> {
  const result = schema.safeParse(value)
  if (!result.success) {
    const issue = result.error.issues[0]
    throw invalidRequest(`${String(issue?.path[0] ?? 'request')} ${issue?.message ?? 'is invalid'}`)
  }
  return result.data
}
