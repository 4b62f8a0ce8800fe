import { z } from 'zod'
import { CognitoError } from '#server/identity/cognito-error.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/** Input shapes shared by the operations, with Amazon Cognito's length limits. */
export const clientId = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[\w+]+$/, 'must be a client id')
export const username = z.string().min(1).max(128)
export const password = z.string().min(1).max(256)
export const confirmationCode = z
  .string()
  .min(1)
  .max(2048)
  .regex(/^\S+$/, 'must not contain spaces')
export const token = z
  .string()
  .min(1)
  .max(16_384)
  .regex(/^[A-Za-z0-9_.=+/-]+$/, 'must be a token')
export const session = z.string().min(20).max(2048)
export const attributeName = z.string().min(1).max(32)

export const deviceKey = z
  .string()
  .min(1)
  .max(55)
  .regex(/^[\w-]+_[0-9a-f-]+$/, 'must be a device key')

function stringMap(maxEntries: number) {
  return z
    .record(z.string().min(1).max(256), z.string().max(4096))
    .refine((map) => Object.keys(map).length <= maxEntries, `at most ${maxEntries} entries`)
}

/**
 * AuthParameters and ChallengeResponses. A null value means "not given": after a "Device does
 * not exist." amazon-cognito-identity-js sends the same step again with DEVICE_KEY null.
 */
export const parameterMap = z
  .record(z.string().min(1).max(256), z.string().max(4096).nullable())
  .refine((map) => Object.keys(map).length <= 32, 'at most 32 entries')
  .transform((map) =>
    Object.fromEntries(
      Object.entries(map).filter((entry): entry is [string, string] => entry[1] !== null),
    ),
  )
export const clientMetadata = stringMap(50).optional()
export const attributes = z
  .array(z.object({ Name: attributeName, Value: z.string().max(2048) }))
  .max(100)

/** Members every client may send and the pool ignores (analytics, risk data). */
export const ignored = {
  AnalyticsMetadata: z.unknown().optional(),
  UserContextData: z.unknown().optional(),
  ClientMetadata: clientMetadata,
  SecretHash: z.string().max(128).optional(),
}

export function assertClient(ctx: UserPoolContext, id: string): void {
  if (id !== ctx.settings.clientId) {
    throw new CognitoError('ResourceNotFoundException', `User pool client ${id} does not exist.`)
  }
}
