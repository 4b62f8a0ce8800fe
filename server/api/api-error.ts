import { z } from 'zod'
import { ContentError } from '#features/content-error.ts'
import { type ErrorCode, errorCatalogue, type FieldErrors } from '#features/error-catalogue.ts'

/** Fastify's own 4xx refusals (unreadable JSON, unsupported media type…) keep Fastify's code. */
export type FastifyErrorCode = `FST_${string}`

/**
 * The one error type of the /api boundary, sent as
 * `{ error: { code, message, fields?, retryAfterSeconds? } }` (the last also as Retry-After).
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly code: ErrorCode | FastifyErrorCode
  readonly fields: FieldErrors | undefined
  readonly retryAfterSeconds: number | undefined

  /** The status, and the message unless one is given, come from the error catalogue. */
  constructor(code: ErrorCode, message?: string, fields?: FieldErrors, retryAfterSeconds?: number)
  constructor(
    code: FastifyErrorCode,
    message: string,
    fields: undefined,
    retryAfterSeconds: undefined,
    status: number,
  )
  constructor(
    code: ErrorCode | FastifyErrorCode,
    message?: string,
    fields?: FieldErrors,
    retryAfterSeconds?: number,
    status?: number,
  ) {
    const known = code in errorCatalogue ? errorCatalogue[code as ErrorCode] : undefined
    super(message ?? known?.message)
    this.status = status ?? known?.status ?? 500
    this.code = code
    this.fields = fields
    this.retryAfterSeconds = retryAfterSeconds
  }

  static validation(error: z.ZodError): ApiError {
    const fields: FieldErrors = {}
    for (const issue of error.issues) {
      const field = issue.path.join('.') || '_'
      fields[field] = [...(fields[field] ?? []), issue.message]
    }
    return new ApiError('VALIDATION_FAILED', undefined, fields)
  }

  /** The API's answer for an error a feature or a parameter schema threw; undefined for others. */
  static from(error: unknown): ApiError | undefined {
    if (error instanceof ApiError) return error
    if (error instanceof z.ZodError) return ApiError.validation(error)
    if (error instanceof ContentError) {
      return new ApiError(error.code, error.message, error.fields, error.retryAfterSeconds)
    }
    return undefined
  }

  static notFound(message?: string): ApiError {
    return new ApiError('NOT_FOUND', message)
  }

  /** Fastify's own 4xx refusal, with its status and code (BAD_REQUEST when it has none). */
  static ofFastify(status: number, code: string | undefined, message: string): ApiError {
    return code?.startsWith('FST_')
      ? new ApiError(code as FastifyErrorCode, message, undefined, undefined, status)
      : new ApiError('BAD_REQUEST', message)
  }

  toJSON() {
    return {
      error: {
        code: this.code,
        message: this.message,
        ...(this.fields && { fields: this.fields }),
        ...(this.retryAfterSeconds !== undefined && { retryAfterSeconds: this.retryAfterSeconds }),
      },
    }
  }
}
