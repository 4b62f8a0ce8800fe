import { createHash, hkdfSync, randomBytes } from 'node:crypto'
import {
  claimSignature,
  formatSrpTimestamp,
  g,
  k,
  modPowN,
  N,
  padHex,
  passwordExponent,
  powG,
} from '../srp.ts'

/**
 * For tests only: the client side of Cognito's SRP, computed with OpenSSL like the server.
 * The real clients take a while per sign-in in JavaScript; this is for the many tests that
 * only need a signed-in user (and for a TIMESTAMP no real client would send).
 */
export function srpClient(poolName: string, options: { timestamp?: number } = {}) {
  const a = BigInt(`0x${randomBytes(32).toString('hex')}`)
  const A = powG(a)
  return {
    A: A.toString(16),
    /** The PASSWORD_VERIFIER responses to a challenge's parameters. */
    respond(parameters: Record<string, string>, password: string) {
      const user = parameters.USER_ID_FOR_SRP as string
      const secretBlock = parameters.SECRET_BLOCK as string
      const B = BigInt(`0x${parameters.SRP_B}`)
      const u = hashHex(padHex(A) + padHex(B))
      const x = passwordExponent(poolName, user, password, parameters.SALT as string)
      const base = (((B - k * modPowN(g, x)) % N) + N) % N
      const S = modPowN(base, a + u * x)
      const key = Buffer.from(
        hkdfSync(
          'sha256',
          Buffer.from(padHex(S), 'hex'),
          Buffer.from(padHex(u), 'hex'),
          'Caldera Derived Key',
          16,
        ),
      )
      const timestamp = formatSrpTimestamp(options.timestamp ?? Date.now())
      return {
        USERNAME: user,
        PASSWORD_CLAIM_SECRET_BLOCK: secretBlock,
        TIMESTAMP: timestamp,
        PASSWORD_CLAIM_SIGNATURE: claimSignature(key, poolName, user, secretBlock, timestamp),
      }
    },
  }
}

function hashHex(hex: string): bigint {
  return BigInt(`0x${createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex')}`)
}
