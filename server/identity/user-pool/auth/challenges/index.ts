import type { CognitoError } from '#server/identity/cognito-error.ts'
import { customChallenge } from './custom-challenge.ts'
import { devicePasswordVerifier } from './device-password-verifier.ts'
import { deviceSrpAuth } from './device-srp-auth.ts'
import { mfaSetup } from './mfa-setup.ts'
import { newPasswordRequired } from './new-password-required.ts'
import { passwordVerifier } from './password-verifier.ts'
import { selectMfaType } from './select-mfa-type.ts'
import { smsMfa } from './sms-mfa.ts'
import { softwareTokenMfa, TOTP_ALREADY_USED } from './software-token-mfa.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * The challenges RespondToAuthChallenge answers, each a ChallengeHandler, with `afterPassword`
 * deciding when to ask them (CUSTOM_CHALLENGE follows the CUSTOM_AUTH flow).
 */
export const CHALLENGES: Record<string, ChallengeHandler> = {
  PASSWORD_VERIFIER: passwordVerifier,
  NEW_PASSWORD_REQUIRED: newPasswordRequired,
  SOFTWARE_TOKEN_MFA: softwareTokenMfa,
  SMS_MFA: smsMfa,
  SELECT_MFA_TYPE: selectMfaType,
  MFA_SETUP: mfaSetup,
  CUSTOM_CHALLENGE: customChallenge,
  DEVICE_SRP_AUTH: deviceSrpAuth,
  DEVICE_PASSWORD_VERIFIER: devicePasswordVerifier,
}

const RETRYABLE_ERRORS: ReadonlySet<string> = new Set([
  'CodeMismatchException',
  'ResourceNotFoundException',
])

/**
 * Errors after which the Session stays valid for another try: a mistyped code, an
 * authenticator code already spent (the next one will do), or a stored device the pool does
 * not know (the clients then answer the same step without it).
 */
export function isRetryable(error: CognitoError): boolean {
  return RETRYABLE_ERRORS.has(error.type) || error.message === TOTP_ALREADY_USED
}

export type { ChallengeHandler } from './types.ts'
