import { z } from 'zod'

/**
 * The HTML constraints of a form field, read from the zod schema the server validates it with
 * (features/*-input.ts), so a limit is written once: `maxLength={fieldLimits(summary).maxLength}`.
 * Wrappers (default, optional, nullable, a transform's pipe) are looked through to the string.
 */
export function fieldLimits(schema: z.ZodType): {
  maxLength: number | undefined
  minLength: number | undefined
  required: boolean
} {
  let inner: z.ZodType = schema
  let optional = false
  for (;;) {
    if (
      inner instanceof z.ZodDefault ||
      inner instanceof z.ZodOptional ||
      inner instanceof z.ZodNullable
    ) {
      optional = true
      inner = inner.unwrap() as z.ZodType
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in as z.ZodType
    } else break
  }
  if (!(inner instanceof z.ZodString)) {
    return { maxLength: undefined, minLength: undefined, required: !optional }
  }
  const minLength = inner.minLength ?? undefined
  return {
    maxLength: inner.maxLength ?? undefined,
    minLength,
    required: !optional && (minLength ?? 0) > 0,
  }
}
