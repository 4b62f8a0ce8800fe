import { invalidParameter } from '#server/identity/cognito-error.ts'
import type { PoolUser } from '#server/identity/user-pool/users.ts'

/**
 * Where a step of a sign-in leads: another challenge (with what its handler will need,
 * kept server-side under a Session), or a signed-in user, or refreshed tokens.
 */
export type ChallengeStep = {
  kind: 'challenge'
  name: string
  /** What the client sees; values are strings (lists are JSON in a string, as in Cognito). */
  parameters: Record<string, string>
  sub: string | null
  state: object
}

export type AuthenticationResult = {
  AccessToken: string
  IdToken: string
  ExpiresIn: number
  TokenType: 'Bearer'
  RefreshToken?: string
  NewDeviceMetadata?: { DeviceKey: string; DeviceGroupKey: string }
}

export type AuthOutcome =
  | ChallengeStep
  /** `deviceKey`: the device the sign-in proved it came from, or null for a new device. */
  | { kind: 'signed-in'; user: PoolUser; deviceKey: string | null }
  | { kind: 'tokens'; result: AuthenticationResult }

/** What InitiateAuth and RespondToAuthChallenge answer. */
export type AuthResponse =
  | { ChallengeName: string; Session: string; ChallengeParameters: Record<string, string> }
  | { ChallengeParameters: Record<string, string>; AuthenticationResult: AuthenticationResult }

/** The parameters a step needs, or Cognito's "Missing required parameter" error. */
export function required(
  values: Record<string, string> | undefined,
  ...names: string[]
): Record<string, string> {
  const found: Record<string, string> = {}
  for (const name of names) {
    const value = values && Object.hasOwn(values, name) ? values[name] : undefined
    if (value === undefined || value === '') {
      throw invalidParameter(`Missing required parameter ${name}`)
    }
    found[name] = value
  }
  return found
}
