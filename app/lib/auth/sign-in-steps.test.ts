import type { SignInOutput } from 'aws-amplify/auth'
import { describe, expect, it } from 'vitest'
import { signInStepOf } from './sign-in-steps.ts'

const step = (nextStep: unknown) =>
  signInStepOf(nextStep as SignInOutput['nextStep'], 'hana', 'テックラボ')

describe("Amplify's next sign-in steps", () => {
  it('gives every step a screen or a way out', () => {
    expect(step({ signInStep: 'DONE' })).toEqual({ kind: 'done' })
    expect(step({ signInStep: 'CONFIRM_SIGN_UP' })).toEqual({ kind: 'confirmSignUp' })
    expect(step({ signInStep: 'RESET_PASSWORD' })).toEqual({ kind: 'resetPassword' })
    expect(step({ signInStep: 'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED' })).toEqual({
      kind: 'newPassword',
    })
    expect(step({ signInStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' })).toEqual({
      kind: 'code',
      method: 'TOTP',
    })
    expect(
      step({
        signInStep: 'CONFIRM_SIGN_IN_WITH_SMS_CODE',
        codeDeliveryDetails: { destination: '+81***1234' },
      }),
    ).toEqual({ kind: 'code', method: 'SMS', destination: '+81***1234' })
    expect(step({ signInStep: 'CONFIRM_SIGN_IN_WITH_EMAIL_CODE' })).toEqual({
      kind: 'code',
      method: 'EMAIL',
    })
    expect(
      step({ signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SELECTION', allowedMFATypes: ['SMS', 'TOTP'] }),
    ).toEqual({ kind: 'selectMfa', options: ['TOTP', 'SMS'] })
    expect(step({ signInStep: 'CONTINUE_SIGN_IN_WITH_MFA_SETUP_SELECTION' })).toEqual({
      kind: 'selectMfaSetup',
      options: ['TOTP'],
    })
    expect(step({ signInStep: 'CONTINUE_SIGN_IN_WITH_EMAIL_SETUP' })).toEqual({
      kind: 'emailSetup',
    })
    expect(step({ signInStep: 'CONFIRM_SIGN_IN_WITH_CUSTOM_CHALLENGE' })).toEqual({
      kind: 'customChallenge',
    })
    expect(step({ signInStep: 'CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION' })).toEqual({
      kind: 'unsupported',
      signInStep: 'CONTINUE_SIGN_IN_WITH_FIRST_FACTOR_SELECTION',
    })
  })

  it('turns the TOTP setup details into a secret and an otpauth URI for the QR code', () => {
    const result = step({
      signInStep: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
      totpSetupDetails: {
        sharedSecret: 'JBSWY3DPEHPK3PXP',
        getSetupUri: (app: string, account: string) =>
          new URL(`otpauth://totp/${app}:${account}?secret=JBSWY3DPEHPK3PXP&issuer=${app}`),
      },
    })
    expect(result).toMatchObject({ kind: 'totpSetup', secret: 'JBSWY3DPEHPK3PXP' })
    expect(result.kind === 'totpSetup' && result.uri).toMatch(/^otpauth:\/\/totp\/.+hana\?secret=/)
  })
})
