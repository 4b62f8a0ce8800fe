import type { z } from 'zod'
import { browserHasCookie } from './browser-cookie.ts'
import { type AuthAction, type AuthErrorMessage, authErrorMessage } from './errors.ts'

/** What a form submission on an auth screen comes back with when it does not move on. */
export type FormResult = {
  errors?: Partial<Record<string, string>>
  formError?: string
  notice?: string
  help?: AuthErrorMessage['help']
}

export function formString(form: FormData, name: string): string {
  const value = form.get(name)
  return typeof value === 'string' ? value : ''
}

/** Field errors from a map of checks; undefined when every field is fine. */
export function fieldErrors(checks: Record<string, string | undefined>): FormResult | undefined {
  const errors = Object.fromEntries(Object.entries(checks).filter(([, error]) => error))
  return Object.keys(errors).length > 0 ? { errors } : undefined
}

/**
 * A submitted form checked against a zod schema, the site's one validation idiom (features
 * parse their input the same way): the parsed data, or each field's first message.
 */
export function parseForm<T extends z.ZodType>(
  schema: T,
  form: FormData,
): { data: z.output<T> } | { result: { errors: Record<string, string> } } {
  const parsed = schema.safeParse(Object.fromEntries(form))
  if (parsed.success) return { data: parsed.data }
  const errors: Record<string, string> = {}
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.') || 'form'
    errors[field] ??= issue.message
  }
  return { result: { errors } }
}

/** An error from Amplify or the user pool, as the form shows it. */
export function errorResult(error: unknown, action: AuthAction): FormResult {
  const { message, field, help } = authErrorMessage(error, action)
  return {
    ...(field ? { errors: { [field]: message } } : { formError: message }),
    ...(help && { help }),
  }
}

// Only for parsing: a target that resolves anywhere else is another origin.
const SITE = 'http://site.invalid'

/**
 * Where to go after signing in: a path on this site only, never back to an auth screen.
 * The target is parsed as browsers parse it (they drop tabs and newlines, so `/\t/host` is
 * `//host`); control characters, other origins and paths a browser would read as `//host`
 * are refused. Every redirect target taken from input goes through here.
 */
export function safeRedirect(target: string | null | undefined, fallback = '/'): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing them is the point
  if (!target?.startsWith('/') || /[\u0000-\u001f\u007f\\]/.test(target)) return fallback
  let url: URL
  try {
    url = new URL(target, SITE)
  } catch {
    return fallback
  }
  const path = `${url.pathname}${url.search}${url.hash}`
  if (url.origin !== SITE || path.startsWith('//')) return fallback
  if (/^\/auth(\/|$|\?)/.test(path)) return fallback
  return path
}

/**
 * Amplify's signOut() clears the cookies without waiting for it; the next request must not
 * carry them. Resolves once the session cookie is gone (or after a second).
 */
export async function sessionCookieCleared(cookieName: string): Promise<void> {
  for (let tries = 0; tries < 50; tries++) {
    if (!browserHasCookie(cookieName)) return
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
