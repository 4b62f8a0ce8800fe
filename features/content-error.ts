import type { z } from 'zod'
import { type ErrorCode, errorCatalogue, type FieldErrors } from '#features/error-catalogue.ts'

export type { FieldErrors } from '#features/error-catalogue.ts'

/** The codes a feature refuses with: the site's one catalogue. */
export type ContentErrorCode = ErrorCode

/**
 * The one error type of the content features (courses, and the kinds built on them). Pages
 * and /api translate it into their own answers; the message is Japanese and safe to show.
 */
export class ContentError extends Error {
  override name = 'ContentError'
  readonly code: ContentErrorCode
  readonly fields: FieldErrors | undefined
  /** When to try again, for a refusal that passes (BUSY): Retry-After in /api's answers. */
  readonly retryAfterSeconds: number | undefined

  constructor(
    code: ContentErrorCode,
    message: string = errorCatalogue[code].message,
    fields?: FieldErrors,
    retryAfterSeconds?: number,
  ) {
    super(message)
    this.code = code
    this.fields = fields
    this.retryAfterSeconds = retryAfterSeconds
  }

  get httpStatus(): number {
    return errorCatalogue[this.code].status
  }

  static notFound(message?: string): ContentError {
    return new ContentError('NOT_FOUND', message)
  }

  /**
   * A shared resource (the code sandbox) refused this user alone, past their share of it;
   * others are still served. The wait is in whole seconds, also in the message.
   */
  static busy(retryAfterMs: number): ContentError {
    const seconds = Math.max(1, Math.ceil(retryAfterMs / 1_000))
    return new ContentError(
      'BUSY',
      `混み合っています。短い時間に実行が続いたため、${seconds} 秒ほど待ってからもう一度お試しください`,
      undefined,
      seconds,
    )
  }

  static signInRequired(): ContentError {
    return new ContentError('SIGN_IN_REQUIRED')
  }

  static stale(): ContentError {
    return new ContentError('STALE_REVISION')
  }

  static validation(
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ): ContentError {
    const fields: FieldErrors = {}
    for (const issue of issues) {
      const field = issue.path.map(String).join('.') || '_'
      fields[field] = [...(fields[field] ?? []), issue.message]
    }
    return new ContentError('VALIDATION_FAILED', undefined, fields)
  }
}

/** Parses input at a feature's boundary; anything invalid becomes a validation ContentError. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input)
  if (!result.success) throw ContentError.validation(result.error.issues)
  return result.data
}
