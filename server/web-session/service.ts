import { redirect } from 'react-router'
import type { AppContext } from '#app/load-context.ts'
import type { IdentitySettings } from '#server/config.ts'
import { SIGN_UP_COOKIE } from '#server/identity/oauth/cookies.ts'
import {
  isSessionRequest,
  lastAuthUserCookie,
  parseCookies,
  readSessionCookies,
} from './cookies.ts'
import {
  createSessionReader,
  jwksTokenVerifier,
  type SessionReader,
  type SignedInUser,
  type TokenVerifier,
} from './reader.ts'

type WebSession = AppContext['auth']
type ClientIdentitySettings = WebSession['client']

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
 * The web app's one session module, handed to loaders and actions as `context.auth`:
 * Amplify's public settings for the browser, the signed-in user read from the request's
 * cookies, `requireUser` for pages only for members, and whether a request is personal (the
 * page cache and private caching ask the same question through `isSessionRequest`).
 *
 * `verify` checks a token of our own user pool (its exported verifier, which also knows
 * about revocation); against Amazon Cognito the tokens are checked with Cognito's JWKS.
 */
export function createWebSession(
  identity: IdentitySettings,
  options: { verify?: TokenVerifier; embedded: EmbeddedCapabilities; httpsPort?: number },
): RequestSessions {
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
    sessionCookie: lastAuthUserCookie(identity.clientId),
  }
  const reader = createSessionReader({ clientId: identity.clientId, verify })
  const cookieHeader = (request: Request) => request.headers.get('cookie')
  const sessions = (currentUser: WebSession['currentUser']): RequestSessions => ({
    client,
    currentUser,
    async requireUser(request) {
      const user = await currentUser(request)
      if (user) return user
      const url = new URL(request.url)
      const back = new URLSearchParams({ redirectTo: `${url.pathname}${url.search}` })
      throw redirect(`/auth/signin?${back}`)
    },
    hasSession: (request) =>
      readSessionCookies(cookieHeader(request), identity.clientId) !== undefined,
    isPersonal: (request) => isSessionRequest(cookieHeader(request)),
    hasPendingGoogleSignUp: (request) => parseCookies(cookieHeader(request)).has(SIGN_UP_COOKIE),
    bearerUser: (authorization) => reader.bearerUser(authorization),
    cookieUser: (header) => reader.cookieUser(header),
    forRequest() {
      // React Router hands each loader a Request of its own: one answer per Cookie header
      // for the whole request, so the root's and the page's loaders verify the tokens once.
      let last: { cookie: string | null; user: Promise<SignedInUser | undefined> } | undefined
      return sessions((request) => {
        const cookie = cookieHeader(request)
        if (last?.cookie !== cookie) last = { cookie, user: reader.cookieUser(cookie) }
        return last.user
      })
    },
  })
  return sessions((request) => reader.currentUser(request))
}

/** The web session, with what the server (not the app) also asks of it. */
export type RequestSessions = WebSession &
  Pick<SessionReader, 'bearerUser' | 'cookieUser'> & {
    /** The same sessions for one request's loaders and actions: see `currentUser` there. */
    forRequest(): RequestSessions
  }
