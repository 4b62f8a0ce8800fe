import type { Page } from 'playwright-core'

/**
 * Makes the user pool answer a correct password with a second-factor challenge, for the
 * screens the embedded pool cannot reach yet (MFA arrives later): Playwright answers the
 * PASSWORD_VERIFIER step (and AssociateSoftwareToken) as Amazon Cognito would; every other
 * call reaches the real server. A code sent back is refused with CodeMismatchException.
 */
export type FakeChallenge =
  | { ChallengeName: 'SOFTWARE_TOKEN_MFA' }
  | { ChallengeName: 'SELECT_MFA_TYPE'; MFAS_CAN_CHOOSE: string[] }
  | { ChallengeName: 'MFA_SETUP'; MFAS_CAN_SETUP: string[] }

export const FAKE_TOTP_SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'

export async function answerPasswordWith(page: Page, challenge: FakeChallenge): Promise<void> {
  const json = (
    status: number,
    body: unknown,
    errorType?: string,
  ): { status: number; contentType: string; headers: Record<string, string>; body: string } => ({
    status,
    contentType: 'application/x-amz-json-1.1',
    headers: errorType ? { 'x-amzn-errortype': errorType } : ({} as Record<string, string>),
    body: JSON.stringify(body),
  })
  await page.route('**/cognito-idp', async (route) => {
    const request = route.request()
    const target = request.headers()['x-amz-target'] ?? ''
    const body = request.postDataJSON() as {
      ChallengeName?: string
      ChallengeResponses?: { USERNAME?: string }
    }
    if (target.endsWith('.RespondToAuthChallenge') && body.ChallengeName === 'PASSWORD_VERIFIER') {
      const { ChallengeName } = challenge
      const parameters: Record<string, string> = {
        USERNAME: body.ChallengeResponses?.USERNAME ?? '',
      }
      if ('MFAS_CAN_CHOOSE' in challenge) {
        parameters.MFAS_CAN_CHOOSE = JSON.stringify(challenge.MFAS_CAN_CHOOSE)
      }
      if ('MFAS_CAN_SETUP' in challenge) {
        parameters.MFAS_CAN_SETUP = JSON.stringify(challenge.MFAS_CAN_SETUP)
      }
      return route.fulfill(
        json(200, { ChallengeName, Session: 'fake-session-1', ChallengeParameters: parameters }),
      )
    }
    if (target.endsWith('.AssociateSoftwareToken')) {
      return route.fulfill(json(200, { SecretCode: FAKE_TOTP_SECRET, Session: 'fake-session-2' }))
    }
    if (target.endsWith('.RespondToAuthChallenge') || target.endsWith('.VerifySoftwareToken')) {
      return route.fulfill(
        json(
          400,
          { __type: 'CodeMismatchException', message: 'Invalid code received for user' },
          'CodeMismatchException',
        ),
      )
    }
    return route.continue()
  })
}
