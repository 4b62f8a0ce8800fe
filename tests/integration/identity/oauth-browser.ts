import { createHash, randomBytes } from 'node:crypto'
import type { TestServer } from '#tests/support/test-server.ts'
import { CLIENT_ID } from './support.ts'

/**
 * A browser's part in the hosted sign-in, with fetch: a cookie jar per host, redirects
 * followed by hand (so the test sees where each one goes), and the stand-in Google's
 * development login and consent forms filled in.
 */
export class OAuthBrowser {
  private readonly jar = new Map<string, Map<string, string>>()

  /** One request; cookies sent and stored. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}) {
    const target = new URL(url)
    const cookies = this.jar.get(target.host)
    const response = await fetch(target, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      redirect: 'manual',
      headers: {
        ...(cookies?.size && {
          cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; '),
        }),
        ...(init.form && { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
    })
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';')
      const separator = pair.indexOf('=')
      const name = pair.slice(0, separator).trim()
      const value = pair.slice(separator + 1).trim()
      const hostCookies = this.jar.get(target.host) ?? new Map<string, string>()
      if (value === '' || /max-age=0/i.test(header)) hostCookies.delete(name)
      else hostCookies.set(name, value)
      this.jar.set(target.host, hostCookies)
    }
    const location = response.headers.get('location')
    return { response, location: location ? new URL(location, target).href : undefined }
  }

  /**
   * Follows redirects from `url`, signing in at the provider as `login` whenever it shows a
   * form, until a redirect leaves for `stopAt` (our server); returns that address.
   */
  async signInAtProvider(url: string, login: string, stopAt: string): Promise<string> {
    let next = url
    for (let step = 0; step < 20; step += 1) {
      if (next.startsWith(stopAt) && step > 0) return next
      const { response, location } = await this.request(next)
      if (location) {
        next = location
        continue
      }
      const html = await response.text()
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
      const prompt = /name="prompt" value="(\w+)"/.exec(html)?.[1]
      if (!action || !prompt) throw new Error(`unexpected page at ${next}: ${response.status}`)
      const posted = await this.request(new URL(action, next).href, {
        form: prompt === 'login' ? { prompt, login, password: 'any' } : { prompt },
      })
      if (!posted.location) throw new Error(`the ${prompt} form did not redirect`)
      next = posted.location
    }
    throw new Error('too many redirects')
  }
}

/** A client's PKCE pair, as Amplify makes one. */
export function pkcePair() {
  const verifier = randomBytes(64).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

export const callbackUrl = (origin: string) => `${origin}/auth/callback_google`

/** `/oauth2/authorize` as Amplify's signInWithRedirect({ provider: 'Google' }) asks for it. */
export function authorizeUrl(
  origin: string,
  pkce: { challenge: string },
  overrides: Record<string, string | undefined> = {},
) {
  const parameters: Record<string, string | undefined> = {
    redirect_uri: callbackUrl(origin),
    response_type: 'code',
    client_id: CLIENT_ID,
    identity_provider: 'Google',
    scope: 'openid email profile aws.cognito.signin.user.admin',
    state: randomBytes(16).toString('hex'),
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    ...overrides,
  }
  const query = new URLSearchParams(
    Object.entries(parameters).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  return `${origin}/oauth2/authorize?${query}`
}

/** POST /oauth2/token with a form; the JSON answer and status. */
export async function tokenRequest(server: TestServer, form: Record<string, string>) {
  const response = await fetch(`${server.url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  })
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}
