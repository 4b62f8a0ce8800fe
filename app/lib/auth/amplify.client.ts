import { Amplify } from 'aws-amplify'
import { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
import { ConsoleLogger, CookieStorage } from 'aws-amplify/utils'
import { amplifyResourcesConfig, sessionCookieOptions } from './identity-config.ts'
import { identitySettings } from './identity-settings.ts'

/**
 * The browser's one Amplify configuration, made when this module is first imported (always
 * through `loadAuth()`), from the settings the server put in the root loader's data. Tokens
 * live in cookies so that the server can render the signed-in page on the first request.
 */
const settings = identitySettings()
// Amplify warns at every configuration that names custom endpoints ("ensure the endpoint is
// correct"); ours are this site's own /cognito-idp and /cognito-identity, so that warning is
// noise on every page that signs in. Quieted for this one call only: later warnings still show.
const level = ConsoleLogger.LOG_LEVEL
ConsoleLogger.LOG_LEVEL = 'ERROR'
try {
  Amplify.configure(amplifyResourcesConfig(settings, window.location.origin))
} finally {
  ConsoleLogger.LOG_LEVEL = level
}
cognitoUserPoolsTokenProvider.setKeyValueStorage(
  new CookieStorage(sessionCookieOptions(window.location)),
)

export * from 'aws-amplify/auth'
export { cognitoUserPoolsTokenProvider } from 'aws-amplify/auth/cognito'
export { Hub } from 'aws-amplify/utils'
export { settings }
