/**
 * Removes the SMTP credentials from text that is about to be stored or logged (an error
 * message, a server's answer). The URL carries the password, possibly percent-encoded; an
 * SMTP conversation carries it base64-encoded (AUTH PLAIN and AUTH LOGIN), so every form
 * is removed, and any URL with credentials in it too.
 */
export function secretRedactor(smtpUrl: string | undefined): (text: string) => string {
  const secrets = new Set<string>()
  if (smtpUrl) {
    secrets.add(smtpUrl)
    const credentials = urlCredentials(smtpUrl)
    if (credentials?.password) {
      const { user, password, rawPassword } = credentials
      for (const form of [
        rawPassword,
        password,
        base64(password),
        base64(`\0${user}\0${password}`),
        base64(`${user}\0${user}\0${password}`),
      ]) {
        secrets.add(form)
      }
    }
  }
  // Longest first, so that a secret containing another is removed whole.
  const ordered = [...secrets].filter(Boolean).sort((a, b) => b.length - a.length)
  return (text) => {
    let result = text
    for (const secret of ordered) result = result.split(secret).join('***')
    return result.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@]*@/gi, '$1***@')
  }
}

/** The user and password of `scheme://user:password@host…`, read by hand so that no parser's
 * normalisation makes them differ from what is in the string. */
function urlCredentials(
  url: string,
): { user: string; password: string; rawPassword: string } | undefined {
  const scheme = url.indexOf('://')
  if (scheme < 0) return undefined
  const authority = url.slice(scheme + 3).split(/[/?#]/)[0] ?? ''
  const at = authority.lastIndexOf('@')
  if (at < 0) return undefined
  const userinfo = authority.slice(0, at)
  const colon = userinfo.indexOf(':')
  if (colon < 0) return undefined
  const rawPassword = userinfo.slice(colon + 1)
  return {
    user: safeDecode(userinfo.slice(0, colon)),
    password: safeDecode(rawPassword),
    rawPassword,
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

function base64(value: string): string {
  return Buffer.from(value, 'utf8').toString('base64')
}
