import * as oidc from 'openid-client'

/**
 * Google's OpenID Connect, through openid-client: the redirect to Google with our own state,
 * nonce and PKCE, and the check of its answer (code exchanged, id token verified). The
 * issuer is configurable (GOOGLE_ISSUER) so that tests can put a local provider in its place.
 */
export type GoogleSettings = { clientId: string; clientSecret: string; issuer: string }

/** What a sign-in at Google leaves us: the verified id token's claims that matter. */
export type GoogleIdentity = {
  sub: string
  email: string | undefined
  emailVerified: boolean
  name: string | undefined
}

/** The secrets of one redirect to Google, kept server-side until it answers. */
export type GoogleRequest = { codeVerifier: string; nonce: string; redirectUri: string }

export type Google = {
  /** New secrets for one redirect to Google, which returns to `redirectUri`. */
  newRequest(redirectUri: string): GoogleRequest
  /** Google's authorization URL for the request, carrying `state`. */
  authorizationUrl(state: string, request: GoogleRequest): Promise<string>
  /** Exchanges the code in `callbackUrl`; throws when anything about the answer is wrong. */
  identity(callbackUrl: URL, state: string, request: GoogleRequest): Promise<GoogleIdentity>
}

export function createGoogle(settings: GoogleSettings): Google {
  let discovered: Promise<oidc.Configuration> | undefined
  // Discovered on first use, and again after a failure (Google or the network may be down).
  const configuration = () => {
    discovered ??= oidc
      .discovery(
        new URL(settings.issuer),
        settings.clientId,
        undefined,
        oidc.ClientSecretPost(settings.clientSecret),
        // Only a local test provider is plain http (config allows it on loopback hosts only).
        settings.issuer.startsWith('http:') ? { execute: [oidc.allowInsecureRequests] } : {},
      )
      .catch((error: unknown) => {
        discovered = undefined
        throw error
      })
    return discovered
  }

  return {
    newRequest(redirectUri) {
      return { codeVerifier: oidc.randomPKCECodeVerifier(), nonce: oidc.randomNonce(), redirectUri }
    },

    async authorizationUrl(state, request) {
      const config = await configuration()
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: request.redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
        nonce: request.nonce,
        code_challenge: await oidc.calculatePKCECodeChallenge(request.codeVerifier),
        code_challenge_method: 'S256',
      })
      return url.href
    },

    async identity(callbackUrl, state, request) {
      const config = await configuration()
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: request.codeVerifier,
        expectedState: state,
        expectedNonce: request.nonce,
        idTokenExpected: true,
      })
      const claims = tokens.claims()
      if (!claims) throw new Error('Google sent no id token')
      return {
        sub: claims.sub,
        email: typeof claims.email === 'string' ? claims.email : undefined,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : undefined,
      }
    },
  }
}
