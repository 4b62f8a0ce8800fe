import { createHmac, randomInt, timingSafeEqual } from 'node:crypto'
import { CognitoError } from '#server/identity/cognito-error.ts'
import { createVerifier, passwordExponent, powG } from '#server/identity/srp.ts'
import type { PoolUser } from './users.ts'

/**
 * Passwords are never stored: only an SRP salt and verifier (v = g^x mod N), from which the
 * clients' SRP exchange, and the plain-password flow here, are checked.
 */

const SYMBOLS = '^$*.[]{}()?"!@#%&/\\,><\':;|_~`=+- '

/** The pool's policy (≥ 8 characters with upper, lower, digit and symbol), in Cognito's words. */
export function passwordPolicyViolation(password: string): string | undefined {
  const problem =
    password.length < 8
      ? 'Password not long enough'
      : !/[A-Z]/.test(password)
        ? 'Password must have uppercase characters'
        : !/[a-z]/.test(password)
          ? 'Password must have lowercase characters'
          : !/[0-9]/.test(password)
            ? 'Password must have numeric characters'
            : ![...password].some((c) => SYMBOLS.includes(c))
              ? 'Password must have symbol characters'
              : undefined
  return problem && `Password did not conform with policy: ${problem}`
}

export function assertPasswordPolicy(password: string): void {
  const problem = passwordPolicyViolation(password)
  if (problem) throw new CognitoError('InvalidPasswordException', problem)
}

/** The columns that replace a password. */
export function passwordColumns(poolName: string, username: string, password: string) {
  const { saltHex, verifierHex } = createVerifier(poolName, username, password)
  return { password_salt: saltHex, password_verifier: verifierHex }
}

/** Does the password match the stored verifier? Costs the same whether or not it does. */
export function passwordMatches(
  poolName: string,
  user: Pick<PoolUser, 'username' | 'password_salt' | 'password_verifier'>,
  password: string,
): boolean {
  if (!user.password_salt || !user.password_verifier) return false
  const x = passwordExponent(poolName, user.username, password, user.password_salt)
  const computed = Buffer.from(powG(x).toString(16).padStart(768, '0'), 'hex')
  const stored = Buffer.from(
    BigInt(`0x${user.password_verifier}`).toString(16).padStart(768, '0'),
    'hex',
  )
  return computed.length === stored.length && timingSafeEqual(computed, stored)
}

/**
 * A stand-in salt and verifier for a name that matches no account, derived from a secret so
 * that it is stable across attempts and indistinguishable from a real one.
 */
export function decoyVerifier(secret: Buffer, poolName: string, name: string) {
  const derive = (label: string) =>
    createHmac('sha256', secret).update(`${label}\0${poolName}\0${name}`).digest('hex')
  const saltHex = derive('salt').slice(0, 32)
  const verifierHex = powG(BigInt(`0x${derive('verifier')}`)).toString(16)
  return { saltHex, verifierHex }
}

/** A temporary password that satisfies the policy (for AdminCreateUser). */
export function temporaryPassword(): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!#%&*+-=?@']
  const all = sets.join('')
  const characters = sets.map((set) => set[randomInt(set.length)] as string)
  while (characters.length < 12) characters.push(all[randomInt(all.length)] as string)
  for (let i = characters.length - 1; i > 0; i--) {
    const j = randomInt(i + 1)
    ;[characters[i], characters[j]] = [characters[j] as string, characters[i] as string]
  }
  return characters.join('')
}
