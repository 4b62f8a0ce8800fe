import type { z } from 'zod'

/** Japanese messages per field, keyed by the field's path (`title`, `tags.0`…). */
export type FieldErrors = Record<string, string[]>

export type ContentErrorCode =
  | 'SIGN_IN_REQUIRED'
  | 'NOT_FOUND'
  | 'FORBIDDEN'
  | 'STALE_REVISION'
  | 'CONFLICT'
  | 'VALIDATION_FAILED'
  | 'LOCKED'
  | 'RATE_LIMITED'
  | 'UNAVAILABLE'
  | 'BUSY'

/** The HTTP status pages and /api answer each code with. */
const HTTP_STATUS: Record<ContentErrorCode, number> = {
  SIGN_IN_REQUIRED: 401,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  LOCKED: 403,
  STALE_REVISION: 409,
  CONFLICT: 409,
  VALIDATION_FAILED: 400,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
  BUSY: 503,
}

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
    message: string,
    fields?: FieldErrors,
    retryAfterSeconds?: number,
  ) {
    super(message)
    this.code = code
    this.fields = fields
    this.retryAfterSeconds = retryAfterSeconds
  }

  get httpStatus(): number {
    return HTTP_STATUS[this.code]
  }

  static notFound(message = '見つかりませんでした'): ContentError {
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
    return new ContentError('SIGN_IN_REQUIRED', 'この操作にはログインが必要です')
  }

  static stale(): ContentError {
    return new ContentError(
      'STALE_REVISION',
      'ほかのタブまたは端末で先に保存されています。ページを再読み込みして最新の内容を確認してから、もう一度保存してください',
    )
  }

  static validation(
    issues: readonly { path: readonly PropertyKey[]; message: string }[],
  ): ContentError {
    const fields: FieldErrors = {}
    for (const issue of issues) {
      const field = issue.path.map(String).join('.') || '_'
      fields[field] = [...(fields[field] ?? []), issue.message]
    }
    return new ContentError('VALIDATION_FAILED', '入力内容に誤りがあります', fields)
  }
}

/** Parses input at a feature's boundary; anything invalid becomes a validation ContentError. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input)
  if (!result.success) throw ContentError.validation(result.error.issues)
  return result.data
}
