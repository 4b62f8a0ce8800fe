import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto'
import { CognitoError } from '#server/identity/cognito-error.ts'
import { limitExceeded, limitMail } from './abuse-limits.ts'
import { maskEmail } from './attributes.ts'
import type { UserPoolContext } from './context.ts'
import { type CodePurpose, codeMessage } from './messages.ts'
import type { PoolUser } from './users.ts'

/**
 * Six-digit codes sent by email (sign-up confirmation, password reset, email verification,
 * the SMS_MFA sign-in code, which goes to the email address until there is SMS, and the
 * code of CUSTOM_AUTH, sign-in by emailed code).
 * Only an HMAC of each code is stored. The newest code of a purpose is the one that counts;
 * it expires, allows a few wrong tries, and is spent once used. Sending is rate limited per
 * user, per recipient address and per client address (abuse-limits.ts). Spent and replaced
 * codes stay until the sweep so that they still count for the limit.
 */
export const CODE_TTL_MS: Record<CodePurpose, number> = {
  sign_up: 24 * 3600 * 1000,
  verify_email: 24 * 3600 * 1000,
  forgot_password: 3600 * 1000,
  sms_mfa: 3 * 60 * 1000,
  custom_auth: 3 * 60 * 1000,
}
const VALID_FOR: Record<CodePurpose, string> = {
  sign_up: '24時間',
  verify_email: '24時間',
  forgot_password: '1時間',
  sms_mfa: '3分',
  custom_auth: '3分',
}
export const MAX_CODE_ATTEMPTS = 5
export const CODES_PER_WINDOW = 5
export const CODE_WINDOW_MS = 3600 * 1000

export type CodeDeliveryDetails = {
  Destination: string
  DeliveryMedium: 'EMAIL'
  AttributeName: 'email'
}

/**
 * What a code's delivery looks like for a name with no account (PreventUserExistenceErrors):
 * the same shape, a plausible masked address, no mail. Counted against the mail limits like a
 * real one, so the limits do not tell who exists either.
 */
export async function simulatedDelivery(
  ctx: UserPoolContext,
  name: string,
): Promise<CodeDeliveryDetails> {
  await limitMail(ctx, name)
  return {
    Destination: simulatedDestination(name),
    DeliveryMedium: 'EMAIL',
    AttributeName: 'email',
  }
}

export const simulatedDestination = (name: string) => maskEmail(name.includes('@') ? name : 'u@e')

/** Makes a code, mails it to the user's email, and says where it went. */
export async function sendCode(
  ctx: UserPoolContext,
  user: PoolUser,
  purpose: CodePurpose,
): Promise<CodeDeliveryDetails> {
  const destination = user.email
  if (!destination) {
    throw new CognitoError('InvalidParameterException', 'The user has no email address.')
  }
  const now = ctx.now()
  const recent = await ctx.db
    .selectFrom('identity_codes')
    .select(ctx.db.fn.countAll<number>().as('count'))
    .where('sub', '=', user.sub)
    .where('created_at', '>', now - CODE_WINDOW_MS)
    .executeTakeFirstOrThrow()
  if (Number(recent.count) >= CODES_PER_WINDOW) throw limitExceeded()
  // Per recipient and per client address too: many accounts may name one victim's address.
  await limitMail(ctx, destination)

  const id = randomUUID()
  const code = String(randomInt(1_000_000)).padStart(6, '0')
  await ctx.db
    .insertInto('identity_codes')
    .values({
      id,
      sub: user.sub,
      purpose,
      code_hash: codeHash(ctx, id, code),
      destination,
      expires_at: now + CODE_TTL_MS[purpose],
      created_at: now,
    })
    .execute()
  await ctx.mailer.send(codeMessage(purpose, destination, user.username, code, VALID_FOR[purpose]))
  return { Destination: maskEmail(destination), DeliveryMedium: 'EMAIL', AttributeName: 'email' }
}

/** Accepts the newest code of the purpose and spends it, or throws Cognito's error. */
export async function spendCode(
  ctx: UserPoolContext,
  user: PoolUser,
  purpose: CodePurpose,
  code: string,
): Promise<void> {
  const now = ctx.now()
  const row = await ctx.db
    .selectFrom('identity_codes')
    .selectAll()
    .where('sub', '=', user.sub)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .executeTakeFirst()
  if (!row) throw codeMismatch()
  if (row.attempts >= MAX_CODE_ATTEMPTS) throw limitExceeded()
  if (row.expires_at <= now) throw expiredCode()
  const expected = Buffer.from(row.code_hash, 'base64url')
  const given = Buffer.from(codeHash(ctx, row.id, code), 'base64url')
  // A code sent to an address the user has since replaced proves nothing.
  if (!timingSafeEqual(expected, given) || row.destination !== user.email) {
    await ctx.db
      .updateTable('identity_codes')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', row.id)
      .execute()
    throw codeMismatch()
  }
  const spent = await ctx.db
    .updateTable('identity_codes')
    .set({ expires_at: 0 })
    .where('id', '=', row.id)
    .where('expires_at', '>', now)
    .executeTakeFirst()
  if (Number(spent.numUpdatedRows) === 0) throw expiredCode()
}

function codeHash(ctx: UserPoolContext, id: string, code: string): string {
  return createHmac('sha256', ctx.keys.secret).update(`${id}:${code}`).digest('base64url')
}

export const codeMismatch = () =>
  new CognitoError('CodeMismatchException', 'Invalid verification code provided, please try again.')
const expiredCode = () =>
  new CognitoError('ExpiredCodeException', 'Invalid code provided, please request a code again.')
