import type { SignInOutput } from 'aws-amplify/auth'

export type MfaMethod = 'TOTP' | 'EMAIL' | 'SMS'

/**
 * The sign-in screen's steps, from Amplify's `nextStep`: plain data (the form carries the
 * current step in a hidden field), every Amplify step given a screen or a way out.
 */
export type SignInStep =
  | { kind: 'done' }
  | { kind: 'confirmSignUp' }
  | { kind: 'resetPassword' }
  | { kind: 'newPassword' }
  | { kind: 'code'; method: MfaMethod; destination?: string }
  | { kind: 'selectMfa'; options: MfaMethod[] }
  | { kind: 'selectMfaSetup'; options: MfaMethod[] }
  | { kind: 'totpSetup'; secret: string; uri: string }
  | { kind: 'emailSetup' }
  | { kind: 'customChallenge' }
  | { kind: 'unsupported'; signInStep: string }

const METHODS: readonly MfaMethod[] = ['TOTP', 'EMAIL', 'SMS']

function methods(allowed: readonly string[] | undefined): MfaMethod[] {
  const offered = METHODS.filter((method) => allowed?.includes(method))
  return offered.length > 0 ? offered : ['TOTP']
}

export function signInStepOf(
  nextStep: SignInOutput['nextStep'],
  username: string,
  totpIssuer: string,
): SignInStep {
  switch (nextStep.signInStep) {
    case 'DONE':
      return { kind: 'done' }
    case 'CONFIRM_SIGN_UP':
      return { kind: 'confirmSignUp' }
    case 'RESET_PASSWORD':
      return { kind: 'resetPassword' }
    case 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED':
      return { kind: 'newPassword' }
    case 'CONFIRM_SIGN_IN_WITH_TOTP_CODE':
      return { kind: 'code', method: 'TOTP' }
    case 'CONFIRM_SIGN_IN_WITH_SMS_CODE':
    case 'CONFIRM_SIGN_IN_WITH_EMAIL_CODE': {
      const destination = nextStep.codeDeliveryDetails?.destination
      return {
        kind: 'code',
        method: nextStep.signInStep === 'CONFIRM_SIGN_IN_WITH_SMS_CODE' ? 'SMS' : 'EMAIL',
        ...(destination && { destination }),
      }
    }
    case 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION':
      return { kind: 'selectMfa', options: methods(nextStep.allowedMFATypes) }
    case 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION':
      return { kind: 'selectMfaSetup', options: methods(nextStep.allowedMFATypes) }
    case 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP':
      return {
        kind: 'totpSetup',
        secret: nextStep.totpSetupDetails.sharedSecret,
        uri: nextStep.totpSetupDetails.getSetupUri(totpIssuer, username).toString(),
      }
    case 'CONTINUE_SIGN_IN_WITH_EMAIL_SETUP':
      return { kind: 'emailSetup' }
    case 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE':
      return { kind: 'customChallenge' }
    default:
      // Passwordless first-factor steps (USER_AUTH): this site signs in with SRP.
      return { kind: 'unsupported', signInStep: nextStep.signInStep }
  }
}
