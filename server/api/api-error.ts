import { z } from 'zod'
import { ContentError } from '#features/content-error.ts'

export type FieldErrors = Record<string, string[]>

/**
 * The one error type of the /api boundary, sent as
 * `{ error: { code, message, fields?, retryAfterSeconds? } }` (the last also as Retry-After).
 */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly fields: FieldErrors | undefined
  readonly retryAfterSeconds: number | undefined

  constructor(
    status: number,
    code: string,
    message: string,
    fields?: FieldErrors,
    retryAfterSeconds?: number,
  ) {
    super(message)
    this.status = status
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
    return new ApiError(400, 'VALIDATION_FAILED', '入力内容に誤りがあります', fields)
  }

  /** The API's answer for an error a feature or a parameter schema threw; undefined for others. */
  static from(error: unknown): ApiError | undefined {
    if (error instanceof ApiError) return error
    if (error instanceof z.ZodError) return ApiError.validation(error)
    if (error instanceof ContentError) {
      return new ApiError(
        error.httpStatus,
        error.code,
        error.message,
        error.fields,
        error.retryAfterSeconds,
      )
    }
    return undefined
  }

  static notFound(message = '見つかりませんでした'): ApiError {
    return new ApiError(404, 'NOT_FOUND', message)
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
