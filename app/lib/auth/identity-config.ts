import type { ResourcesConfig } from 'aws-amplify'

/**
 * What the browser needs to reach the user pool and identity pool: ids and, in embedded
 * mode, the paths of this site's own AWS-compatible endpoints. Nothing secret.
 */
export type ClientIdentitySettings = {
  region: string
  userPoolId: string
  userPoolClientId: string
  /** `embedded`: this site answers `/cognito-idp` and `/cognito-identity`; `aws`: Cognito does. */
  endpoints: 'embedded' | 'aws'
  /** Paths on this site, resolved against the page's origin in the browser (embedded only). */
  userPoolEndpoint: string | undefined
  identityPoolEndpoint: string | undefined
  /** Set only while the identity pool answers; Amplify calls it for every session otherwise. */
  identityPoolId: string | undefined
  allowGuestAccess: boolean
  googleSignIn: boolean
  /**
   * The port of this site's TLS listener (HTTPS_PORT), if any: Amplify's hosted sign-in only
   * speaks https, so on a plain-http page the Google button moves to the https page first.
   */
  httpsPort: number | undefined
  /** What the user pool can do today; screens hide what cannot work yet. */
  features: { totpMfa: boolean; rememberedDevices: boolean }
  /**
   * The name of Amplify's cookie that names the signed-in user: present exactly while the
   * browser holds a session (the server's web-session module owns the names).
   */
  sessionCookie: string
}

/** The password rules of the user pool, also shown to people as a checklist. */
export const PASSWORD_FORMAT = {
  minLength: 8,
  requireLowercase: true,
  requireUppercase: true,
  requireNumbers: true,
  requireSpecialCharacters: true,
} as const

export const GOOGLE_CALLBACK_PATH = '/auth/callback_google'

/**
 * Amplify's configuration for this page. `origin` is the page's own origin
 * (`window.location.origin`), which is where the embedded endpoints live.
 */
export function amplifyResourcesConfig(
  settings: ClientIdentitySettings,
  origin: string,
): ResourcesConfig {
  const at = (path: string | undefined) =>
    settings.endpoints === 'embedded' && path ? new URL(path, origin).href : undefined
  const userPoolEndpoint = at(settings.userPoolEndpoint)
  const identityPoolEndpoint = at(settings.identityPoolEndpoint)
  const host = new URL(origin).host
  const userPool = {
    userPoolId: settings.userPoolId,
    userPoolClientId: settings.userPoolClientId,
    ...(userPoolEndpoint && { userPoolEndpoint }),
    signUpVerificationMethod: 'code' as const,
    passwordFormat: PASSWORD_FORMAT,
    loginWith: {
      username: true,
      email: true,
      ...(settings.googleSignIn && {
        oauth: {
          // The embedded hosted endpoints (`/oauth2/*`) are this site's.
          domain: host,
          scopes: ['openid', 'email', 'profile', 'aws.cognito.signin.user.admin'],
          redirectSignIn: [`${origin}${GOOGLE_CALLBACK_PATH}`],
          redirectSignOut: [`${origin}/`],
          responseType: 'code' as const,
          providers: ['Google' as const],
        },
      }),
    },
  }
  if (!settings.identityPoolId) return { Auth: { Cognito: userPool } }
  return {
    Auth: {
      Cognito: {
        ...userPool,
        identityPoolId: settings.identityPoolId,
        ...(identityPoolEndpoint && { identityPoolEndpoint }),
        allowGuestAccess: settings.allowGuestAccess,
      },
    },
  }
}

/**
 * The seed's cookie defaults: a year, the whole site, `lax`. Secure everywhere except plain
 * http on the loopback host, where browsers would drop a secure cookie set by script.
 */
export function sessionCookieOptions(location: { protocol: string; hostname: string }) {
  const loopback = ['localhost', '127.0.0.1', '[::1]', '::1'].includes(location.hostname)
  return {
    expires: 365,
    path: '/',
    secure: !(location.protocol === 'http:' && loopback),
    sameSite: 'lax' as const,
  }
}
