import type { AuthService } from '#app/load-context.ts'
import type { IdentitySettings } from '#server/config.ts'
import type { ClientIdentitySettings } from './identity-config.ts'
import {
  createSessionReader,
  jwksTokenVerifier,
  type SessionReader,
  type TokenVerifier,
} from './session.server.ts'

/**
 * What the embedded identity services can do today. Screens hide what cannot work yet
 * rather than offer a button that fails; each flag turns on when its service lands.
 * Against Amazon Cognito (`IDENTITY_ENDPOINTS=aws`) everything is available.
 */
export type EmbeddedCapabilities = {
  identityPool: boolean
  totpMfa: boolean
  rememberedDevices: boolean
}

/**
 * The web app's session service: Amplify's public settings for the browser, and the
 * signed-in user read from the request's cookies.
 *
 * `verify` checks a token of our own user pool (its exported verifier, which also knows
 * about revocation); against Amazon Cognito the tokens are checked with Cognito's JWKS.
 */
export function createAuthService(
  identity: IdentitySettings,
  options: { verify?: TokenVerifier; embedded: EmbeddedCapabilities; httpsPort?: number },
): AuthService & Pick<SessionReader, 'bearerUser'> {
  const aws = identity.endpoints === 'aws'
  const capabilities: EmbeddedCapabilities = aws
    ? { identityPool: true, totpMfa: true, rememberedDevices: true }
    : options.embedded
  const verify =
    aws || !options.verify
      ? jwksTokenVerifier(
          aws
            ? { kind: 'aws', userPoolId: identity.userPoolId, clientId: identity.clientId }
            : { kind: 'issuer', issuer: identity.issuer, clientId: identity.clientId },
        )
      : options.verify
  const client: ClientIdentitySettings = {
    region: identity.region,
    userPoolId: identity.userPoolId,
    userPoolClientId: identity.clientId,
    endpoints: identity.endpoints,
    userPoolEndpoint: aws ? undefined : '/cognito-idp',
    identityPoolEndpoint: aws || !capabilities.identityPool ? undefined : '/cognito-identity',
    identityPoolId: capabilities.identityPool ? identity.identityPoolId : undefined,
    allowGuestAccess: identity.guestCredentials,
    // Amplify's hosted sign-in needs the OAuth domain: ours in embedded mode. A Cognito
    // domain for `aws` mode is not configurable yet, so Google stays off there.
    googleSignIn: identity.google !== undefined && !aws,
    httpsPort: options.httpsPort || undefined,
    features: { totpMfa: capabilities.totpMfa, rememberedDevices: capabilities.rememberedDevices },
  }
  const reader = createSessionReader({ clientId: identity.clientId, verify })
  return {
    client,
    currentUser: (request) => reader.currentUser(request),
    bearerUser: (authorization) => reader.bearerUser(authorization),
  }
}
