import { notAuthorized } from '../../../cognito-error.ts'
import { claimSignature, parseSrpTimestamp, signaturesMatch } from '../../../srp.ts'
import { assertNotLocked, recordFailedSignIn } from '../../lockout.ts'
import { findUserBySub } from '../../users.ts'
import { afterPassword } from '../after-password.ts'
import type { PasswordVerifierState } from '../flows/user-srp.ts'
import { required } from '../outcome.ts'
import type { ChallengeHandler } from './types.ts'

/** How far the client's TIMESTAMP may be from the server's clock. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000

/** PASSWORD_VERIFIER: the client's proof that it derived the same SRP key. */
export const passwordVerifier: ChallengeHandler = {
  precheck(responses) {
    required(
      responses,
      'USERNAME',
      'PASSWORD_CLAIM_SECRET_BLOCK',
      'TIMESTAMP',
      'PASSWORD_CLAIM_SIGNATURE',
    )
  },
  async respond(ctx, step) {
    const state = step.state as PasswordVerifierState
    const responses = required(
      step.responses,
      'USERNAME',
      'PASSWORD_CLAIM_SECRET_BLOCK',
      'TIMESTAMP',
      'PASSWORD_CLAIM_SIGNATURE',
    ) as Record<
      'USERNAME' | 'PASSWORD_CLAIM_SECRET_BLOCK' | 'TIMESTAMP' | 'PASSWORD_CLAIM_SIGNATURE',
      string
    >
    const time = parseSrpTimestamp(responses.TIMESTAMP)
    if (time === undefined || Math.abs(time - ctx.now()) > TIMESTAMP_TOLERANCE_MS) {
      throw notAuthorized('TIMESTAMP is missing, malformed or too far from the server time.')
    }
    if (
      responses.USERNAME.toLowerCase() !== state.username ||
      responses.PASSWORD_CLAIM_SECRET_BLOCK !== state.secretBlock
    ) {
      throw notAuthorized()
    }
    const user = step.sub ? await findUserBySub(ctx.db, step.sub) : undefined
    if (!user) throw notAuthorized()
    const expected = claimSignature(
      Buffer.from(state.keyHex, 'hex'),
      ctx.poolName,
      state.username,
      state.secretBlock,
      responses.TIMESTAMP,
    )
    if (!signaturesMatch(expected, responses.PASSWORD_CLAIM_SIGNATURE)) {
      await recordFailedSignIn(ctx, user)
      throw notAuthorized()
    }
    assertNotLocked(user, ctx.now())
    return afterPassword(ctx, user)
  },
}
