import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import Provider from 'oidc-provider'

/** Someone who can sign in at the stand-in for Google, by typing their `sub` as the login. */
export type GoogleAccount = {
  sub: string
  email: string
  emailVerified: boolean
  name: string
}

export type GoogleProvider = {
  /** GOOGLE_ISSUER for the test server. */
  issuer: string
  /** GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET, ready to spread into its environment. */
  environment: Record<string, string>
  /** Registers our client once the server's idpresponse URLs are known, and starts answering. */
  start(redirectUris: string[]): void
  addAccount(account: GoogleAccount): void
  close(): Promise<void>
}

/**
 * A real OpenID provider (oidc-provider) on a free local port standing in for Google:
 * discovery, authorization with PKCE, id tokens carrying email and email_verified as
 * Google's do, and its development login and consent pages, where any password works for a
 * login this test added.
 */
export async function startGoogleProvider(): Promise<GoogleProvider> {
  const accounts = new Map<string, GoogleAccount>()
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const clientId = 'google-client.apps.test'
  const clientSecret = randomBytes(24).toString('base64url')

  return {
    issuer,
    environment: {
      GOOGLE_ISSUER: issuer,
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
    },
    start(redirectUris) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: redirectUris,
            response_types: ['code'],
            grant_types: ['authorization_code'],
            token_endpoint_auth_method: 'client_secret_post',
          },
        ],
        async findAccount(_context: unknown, id: string) {
          const found = accounts.get(id)
          if (!found) return undefined
          return {
            accountId: found.sub,
            claims: async () => ({
              sub: found.sub,
              email: found.email,
              email_verified: found.emailVerified,
              name: found.name,
            }),
          }
        },
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
        // Google puts the email in the id token itself.
        conformIdTokenClaims: false,
        cookies: { keys: [randomBytes(16).toString('hex')] },
        features: { devInteractions: { enabled: true } },
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
      })
      server.on('request', provider.callback())
    },
    addAccount(account) {
      accounts.set(account.sub, account)
    },
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
