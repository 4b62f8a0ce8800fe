import { sign, verify } from 'node:crypto'
import type { KeyStore, SigningKey } from './keys.ts'

/** RS256 JSON Web Tokens, signed and checked by node:crypto; nothing else is accepted. */
export type JwtClaims = Record<string, unknown>

export function signJwt(claims: JwtClaims, key: SigningKey): string {
  const header = encode({ kid: key.kid, alg: 'RS256' })
  const body = encode(claims)
  const signature = sign('sha256', Buffer.from(`${header}.${body}`), key.privateKey)
  return `${header}.${body}.${signature.toString('base64url')}`
}

/** Returns the claims when the signature is ours and valid; undefined for anything else. */
export function verifyJwtSignature(token: string, keys: KeyStore): JwtClaims | undefined {
  const parts = token.split('.')
  if (parts.length !== 3 || !parts.every((part) => /^[A-Za-z0-9_-]+$/.test(part))) {
    return undefined
  }
  const [headerPart, bodyPart, signaturePart] = parts as [string, string, string]
  const header = decode(headerPart)
  if (header?.alg !== 'RS256' || typeof header.kid !== 'string') return undefined
  const key = keys.find(header.kid)
  if (!key) return undefined
  const valid = verify(
    'sha256',
    Buffer.from(`${headerPart}.${bodyPart}`),
    key.publicKey,
    Buffer.from(signaturePart, 'base64url'),
  )
  return valid ? decode(bodyPart) : undefined
}

/** The `kid` a token names, without checking anything else. */
export function jwtKid(token: string): string | undefined {
  const header = decode(token.split('.', 1)[0] ?? '')
  return typeof header?.kid === 'string' ? header.kid : undefined
}

function encode(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url')
}

function decode(part: string): JwtClaims | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'))
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as JwtClaims)
      : undefined
  } catch {
    return undefined
  }
}
