import type { z } from 'zod'

export type FieldErrors = Record<string, string[]>

/** The one error type of the /api boundary, sent as `{ error: { code, message, fields? } }`. */
export class ApiError extends Error {
  override name = 'ApiError'
  readonly status: number
  readonly code: string
  readonly fields: FieldErrors | undefined

  constructor(status: number, code: string, message: string, fields?: FieldErrors) {
    super(message)
    this.status = status
    this.code = code
    this.fields = fields
  }

  static validation(error: z.ZodError): ApiError {
    const fields: FieldErrors = {}
    for (const issue of error.issues) {
      const field = issue.path.join('.') || '_'
      fields[field] = [...(fields[field] ?? []), issue.message]
    }
    return new ApiError(400, 'VALIDATION_FAILED', '入力内容に誤りがあります', fields)
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
      },
    }
  }
}
