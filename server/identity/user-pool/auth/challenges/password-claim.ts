import { notAuthorized } from '#server/identity/cognito-error.ts'
import { claimSignature, parseSrpTimestamp, signaturesMatch } from '#server/identity/srp.ts'
import { required } from '#server/identity/user-pool/auth/outcome.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/** How far the client's TIMESTAMP may be from the server's clock. */
export const TIMESTAMP_TOLERANCE_MS = 5 * 60 * 1000

const CLAIM = [
  'USERNAME',
  'PASSWORD_CLAIM_SECRET_BLOCK',
  'TIMESTAMP',
  'PASSWORD_CLAIM_SIGNATURE',
] as const

/** The responses of PASSWORD_VERIFIER and DEVICE_PASSWORD_VERIFIER. */
export function claimResponses(
  responses: Record<string, string> | undefined,
): Record<(typeof CLAIM)[number], string> {
  return required(responses, ...CLAIM) as Record<(typeof CLAIM)[number], string>
}

/**
 * Checks the client's proof of an SRP exchange (user or device): its TIMESTAMP, that it names
 * the user and secret block of this exchange, and its signature over them with the derived
 * key. Throws NotAuthorized for a malformed or foreign claim; false for a wrong signature,
 * which the caller counts toward the lockout.
 */
export function passwordClaimHolds(
  ctx: UserPoolContext,
  responses: Record<(typeof CLAIM)[number], string>,
  exchange: {
    username: string
    realm: string
    srpUser: string
    keyHex: string
    secretBlock: string
  },
): boolean {
  const time = parseSrpTimestamp(responses.TIMESTAMP)
  if (time === undefined || Math.abs(time - ctx.now()) > TIMESTAMP_TOLERANCE_MS) {
    throw notAuthorized('TIMESTAMP is missing, malformed or too far from the server time.')
  }
  if (
    responses.USERNAME.toLowerCase() !== exchange.username ||
    responses.PASSWORD_CLAIM_SECRET_BLOCK !== exchange.secretBlock
  ) {
    throw notAuthorized()
  }
  const expected = claimSignature(
    Buffer.from(exchange.keyHex, 'hex'),
    exchange.realm,
    exchange.srpUser,
    exchange.secretBlock,
    responses.TIMESTAMP,
  )
  return signaturesMatch(expected, responses.PASSWORD_CLAIM_SIGNATURE)
}
