import type { SignInOutput } from 'aws-amplify/auth'
import { formString, parseForm } from './flow.ts'
import { codeError, emailError, newPasswordPair, normalizeCode } from './validation.ts'

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

/** The step the form was showing, from its hidden field; nothing usable gives undefined. */
export function parseStep(text: string): SignInStep | undefined {
  try {
    const step = JSON.parse(text) as SignInStep | null
    return step && typeof step === 'object' && typeof step.kind === 'string' ? step : undefined
  } catch {
    return undefined
  }
}

/** The answer a challenge form carries, checked as the step expects it, or its field errors. */
export function challengeAnswer(
  step: SignInStep,
  form: FormData,
): { value: string } | { errors: Record<string, string> } {
  switch (step.kind) {
    case 'newPassword': {
      const parsed = parseForm(newPasswordPair, form)
      return 'result' in parsed
        ? { errors: parsed.result.errors }
        : { value: parsed.data.newPassword }
    }
    case 'selectMfa':
    case 'selectMfaSetup': {
      const method = formString(form, 'method') as MfaMethod
      if (!step.options.includes(method)) return { errors: { method: '方法を選んでください。' } }
      return { value: method }
    }
    case 'emailSetup': {
      const email = formString(form, 'email').trim()
      const error = emailError(email)
      return error ? { errors: { email: error } } : { value: email }
    }
    case 'customChallenge': {
      const code = normalizeCode(formString(form, 'code'))
      return code ? { value: code } : { errors: { code: 'コードを入力してください。' } }
    }
    default: {
      const code = normalizeCode(formString(form, 'code'))
      // Codes sent by mail may be longer (Amazon Cognito's email codes have 8 digits).
      const mailed = step.kind === 'code' && step.method === 'EMAIL' && /^\d{6,8}$/.test(code)
      const error = mailed ? undefined : codeError(code)
      return error ? { errors: { code: error } } : { value: code }
    }
  }
}
