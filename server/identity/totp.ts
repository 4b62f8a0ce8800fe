import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

/**
 * Time-based one-time passwords (RFC 6238 over RFC 4226): SHA-1, 6 digits, 30-second steps,
 * as authenticator apps implement them. Secrets travel as base32 (RFC 4648, no padding).
 */
export const TOTP_STEP_SECONDS = 30
const DIGITS = 6
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

export function generateTotpSecret(): string {
  return base32Encode(randomBytes(20))
}

export function base32Encode(bytes: Buffer): string {
  let bits = 0
  let value = 0
  let output = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      output += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  if (bits > 0) output += BASE32[(value << (5 - bits)) & 31]
  return output
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/=+$/, '').toUpperCase()
  let bits = 0
  let value = 0
  const bytes: number[] = []
  for (const char of clean) {
    const index = BASE32.indexOf(char)
    if (index < 0) throw new Error('Not base32')
    value = (value << 5) | index
    bits += 5
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 255)
      bits -= 8
    }
  }
  return Buffer.from(bytes)
}

/** The code for a given time step (HOTP of the step counter). */
export function totpCode(secret: string, step: number): string {
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(step))
  const digest = createHmac('sha1', base32Decode(secret)).update(counter).digest()
  const offset = (digest[digest.length - 1] as number) & 0x0f
  const binary = digest.readUInt32BE(offset) & 0x7fffffff
  return String(binary % 10 ** DIGITS).padStart(DIGITS, '0')
}

export function totpStep(now: number): number {
  return Math.floor(now / 1000 / TOTP_STEP_SECONDS)
}

/**
 * The step a code matches, allowing one step of clock drift either way, or undefined.
 * Steps at or before `lastUsedStep` are refused so a code cannot be replayed.
 */
export function verifyTotp(
  secret: string,
  code: string,
  now: number,
  lastUsedStep: number | null = null,
): number | undefined {
  if (!/^\d{6}$/.test(code)) return undefined
  const current = totpStep(now)
  for (const step of [current, current - 1, current + 1]) {
    if (lastUsedStep !== null && step <= lastUsedStep) continue
    const expected = Buffer.from(totpCode(secret, step))
    if (timingSafeEqual(expected, Buffer.from(code))) return step
  }
  return undefined
}

/**
 * Whether a code that verifyTotp refused is a right code already spent: it matches a step
 * within the drift window at or before `lastUsedStep`. Cognito tells this case apart
 * (ExpiredCodeException) so that the person waits for the next code instead of retyping.
 */
export function totpReplayed(
  secret: string,
  code: string,
  now: number,
  lastUsedStep: number | null,
): boolean {
  if (lastUsedStep === null || !/^\d{6}$/.test(code)) return false
  const current = totpStep(now)
  return [current, current - 1, current + 1].some(
    (step) =>
      step <= lastUsedStep &&
      timingSafeEqual(Buffer.from(totpCode(secret, step)), Buffer.from(code)),
  )
}

/** The `otpauth://` URI authenticator apps scan from a QR code. */
export function otpauthUri(options: { secret: string; account: string; issuer: string }): string {
  const label = encodeURIComponent(`${options.issuer}:${options.account}`)
  const query = new URLSearchParams({
    secret: options.secret,
    issuer: options.issuer,
    algorithm: 'SHA1',
    digits: '6',
    period: '30',
  })
  return `otpauth://totp/${label}?${query}`
}
