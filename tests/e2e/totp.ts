import { createHmac } from 'node:crypto'

/** RFC 6238 codes (SHA-1, 30 s, 6 digits), as an authenticator app shows them, for tests. */
export function totpCode(base32Secret: string, at = Date.now()): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'
  let bits = ''
  for (const character of base32Secret.replace(/[\s=]/g, '').toUpperCase()) {
    const value = alphabet.indexOf(character)
    if (value < 0) throw new Error(`not base32: ${character}`)
    bits += value.toString(2).padStart(5, '0')
  }
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((byte) => Number.parseInt(byte, 2)))
  const counter = Buffer.alloc(8)
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)))
  const digest = createHmac('sha1', key).update(counter).digest()
  const offset = (digest.at(-1) ?? 0) & 0xf
  const number = digest.readUInt32BE(offset) & 0x7fffffff
  return String(number % 1_000_000).padStart(6, '0')
}
