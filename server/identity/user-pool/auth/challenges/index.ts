import { customChallenge } from './custom-challenge.ts'
import { mfaSetup } from './mfa-setup.ts'
import { newPasswordRequired } from './new-password-required.ts'
import { passwordVerifier } from './password-verifier.ts'
import { selectMfaType } from './select-mfa-type.ts'
import { smsMfa } from './sms-mfa.ts'
import { softwareTokenMfa } from './software-token-mfa.ts'
import type { ChallengeHandler } from './types.ts'

/**
 * The challenges RespondToAuthChallenge answers, each a ChallengeHandler, with `afterPassword`
 * deciding when to ask them (CUSTOM_CHALLENGE follows the CUSTOM_AUTH flow). Still to come:
 * DEVICE_SRP_AUTH and DEVICE_PASSWORD_VERIFIER.
 */
export const CHALLENGES: Record<string, ChallengeHandler> = {
  PASSWORD_VERIFIER: passwordVerifier,
  NEW_PASSWORD_REQUIRED: newPasswordRequired,
  SOFTWARE_TOKEN_MFA: softwareTokenMfa,
  SMS_MFA: smsMfa,
  SELECT_MFA_TYPE: selectMfaType,
  MFA_SETUP: mfaSetup,
  CUSTOM_CHALLENGE: customChallenge,
}

/** Errors after which the Session stays valid for another try (a mistyped code). */
export const RETRYABLE_ERRORS: ReadonlySet<string> = new Set(['CodeMismatchException'])

export type { ChallengeHandler } from './types.ts'
