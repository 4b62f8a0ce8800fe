/**
 * A query string from values, leaving out the empty ones. Its own module: links to sign-in on
 * pages that only read must not download the auth flow's messages.
 */
export function query(values: Record<string, string | undefined | null>): string {
  const parameters = new URLSearchParams()
  for (const [name, value] of Object.entries(values)) if (value) parameters.set(name, value)
  const text = parameters.toString()
  return text ? `?${text}` : ''
}
