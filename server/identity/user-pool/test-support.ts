import { createHash, hkdfSync, randomBytes } from 'node:crypto'
import {
  claimSignature,
  createVerifier,
  formatSrpTimestamp,
  g,
  k,
  modPowN,
  N,
  padHex,
  passwordExponent,
  powG,
} from '#server/identity/srp.ts'

/**
 * For tests only: the client side of Cognito's SRP, computed with OpenSSL like the server.
 * The real clients take a while per sign-in in JavaScript; this is for the many tests that
 * only need a signed-in user (and for a TIMESTAMP no real client would send).
 */
export function srpClient(poolName: string, options: { timestamp?: number } = {}) {
  const a = BigInt(`0x${randomBytes(32).toString('hex')}`)
  const A = powG(a)
  /** The claim of one exchange: the realm is the pool name, or a device's group key. */
  function claim(parameters: Record<string, string>, realm: string, user: string, secret: string) {
    const secretBlock = parameters.SECRET_BLOCK as string
    const B = BigInt(`0x${parameters.SRP_B}`)
    const u = hashHex(padHex(A) + padHex(B))
    const x = passwordExponent(realm, user, secret, parameters.SALT as string)
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
      PASSWORD_CLAIM_SECRET_BLOCK: secretBlock,
      TIMESTAMP: timestamp,
      PASSWORD_CLAIM_SIGNATURE: claimSignature(key, realm, user, secretBlock, timestamp),
    }
  }
  return {
    A: A.toString(16),
    /** The PASSWORD_VERIFIER responses to a challenge's parameters. */
    respond(parameters: Record<string, string>, password: string) {
      const user = parameters.USER_ID_FOR_SRP as string
      return { USERNAME: user, ...claim(parameters, poolName, user, password) }
    },
    /** The DEVICE_PASSWORD_VERIFIER responses, for a device confirmed with `device`. */
    respondForDevice(parameters: Record<string, string>, device: DeviceSecret) {
      return {
        USERNAME: parameters.USERNAME as string,
        DEVICE_KEY: device.deviceKey,
        ...claim(parameters, device.deviceGroupKey, device.deviceKey, device.secret),
      }
    },
  }
}

/** What a client keeps for a device it confirmed: its keys and random secret. */
export type DeviceSecret = { deviceKey: string; deviceGroupKey: string; secret: string }

/**
 * For tests only: what a client makes for ConfirmDevice (a random secret, and the SRP salt and
 * verifier for it, base64 of their hex bytes as amazon-cognito-identity-js and Amplify send).
 */
export function newDeviceSecret(metadata: { DeviceKey: string; DeviceGroupKey: string }) {
  const secret = randomBytes(40).toString('base64')
  const { saltHex, verifierHex } = createVerifier(
    metadata.DeviceGroupKey,
    metadata.DeviceKey,
    secret,
  )
  const base64 = (hex: string) => Buffer.from(hex, 'hex').toString('base64')
  return {
    device: {
      deviceKey: metadata.DeviceKey,
      deviceGroupKey: metadata.DeviceGroupKey,
      secret,
    } satisfies DeviceSecret,
    verifierConfig: {
      Salt: base64(saltHex),
      PasswordVerifier: base64(padHex(BigInt(`0x${verifierHex}`))),
    },
  }
}

function hashHex(hex: string): bigint {
  return BigInt(`0x${createHash('sha256').update(Buffer.from(hex, 'hex')).digest('hex')}`)
}
