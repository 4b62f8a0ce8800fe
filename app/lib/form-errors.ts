import { ContentError } from '#features/content-error.ts'

/**
 * A feature's validation error as a form shows it: the first message of each field (by its
 * top-level name). Anything else is not the form's to show and is thrown on.
 */
export function formFieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof ContentError) || !error.fields) throw error
  const errors: Record<string, string> = {}
  for (const [path, messages] of Object.entries(error.fields)) {
    const field = path.split('.')[0] ?? path
    errors[field] ??= messages[0] ?? error.message
  }
  return errors
}
