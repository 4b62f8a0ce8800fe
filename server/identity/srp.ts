import {
  createDiffieHellman,
  createHash,
  createHmac,
  type DiffieHellman,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'

/**
 * The server side of the Secure Remote Password protocol exactly as Amazon Cognito and its
 * clients (amazon-cognito-identity-js, Amplify) compute it: the RFC 5054 3072-bit group with
 * g = 2, SHA-256, Cognito's hex padding, its HKDF ("Caldera Derived Key") and its claim
 * signature. Modular exponentiation runs in OpenSSL through node:crypto's Diffie-Hellman
 * object (x^e mod N is `computeSecret` with private key e), not in a JavaScript loop.
 */

const N_HEX =
  'FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD' +
  'EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED' +
  'EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F' +
  '83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B' +
  'E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510' +
  '15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7' +
  'ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C' +
  'BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF'

export const N = BigInt(`0x${N_HEX}`)
export const g = 2n
const N_BYTES = Buffer.from(N_HEX, 'hex')
const N_LENGTH = N_BYTES.length

/** Cognito's hex form of a non-negative integer: even length, and a leading 00 if the top bit is set. */
export function padHex(value: bigint): string {
  let hex = value.toString(16)
  if (hex.length % 2 === 1) hex = `0${hex}`
  else if ('89abcdef'.includes(hex[0] as string)) hex = `00${hex}`
  return hex
}

function hashHex(hex: string): Buffer {
  return createHash('sha256').update(Buffer.from(hex, 'hex')).digest()
}

function toBigInt(bytes: Buffer): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${bytes.toString('hex')}`)
}

function toBytes(value: bigint, length = N_LENGTH): Buffer {
  return Buffer.from(value.toString(16).padStart(length * 2, '0'), 'hex')
}

/** k = H(pad(N) | pad(g)) */
export const k = toBigInt(hashHex(padHex(N) + padHex(g)))

// Creating the object makes OpenSSL check that N is a safe prime: about two seconds of CPU.
// Make it once; each use sets its own private key and computes synchronously, so sharing it
// between requests is safe.
let cachedGroup: DiffieHellman | undefined
function groupN(): DiffieHellman {
  cachedGroup ??= createDiffieHellman(N_BYTES, Buffer.from([2]))
  return cachedGroup
}

/** base^exponent mod N, computed by OpenSSL. */
export function modPowN(base: bigint, exponent: bigint): bigint {
  const reduced = ((base % N) + N) % N
  if (exponent === 0n) return 1n
  if (reduced === 0n) return 0n
  if (reduced === 1n) return 1n
  const dh = groupN()
  dh.setPrivateKey(toBytes(exponent, Math.ceil(exponent.toString(16).length / 2)))
  // OpenSSL refuses N-1 as a peer key (it is a small-subgroup element); its powers are ±1.
  if (reduced === N - 1n) return exponent % 2n === 0n ? 1n : N - 1n
  return toBigInt(dh.computeSecret(toBytes(reduced)))
}

/** g^exponent mod N. */
export function powG(exponent: bigint): bigint {
  return modPowN(g, exponent)
}

/** x = H(pad(salt) | H(realm | user | ":" | secret)) — realm is the pool name or device group. */
export function passwordExponent(
  realm: string,
  user: string,
  secret: string,
  saltHex: string,
): bigint {
  const inner = createHash('sha256').update(`${realm}${user}:${secret}`, 'utf8').digest('hex')
  return toBigInt(hashHex(padHex(BigInt(`0x${saltHex}`)) + inner))
}

export type Verifier = { saltHex: string; verifierHex: string }

/** What the server keeps instead of a password: a random salt and v = g^x mod N. */
export function createVerifier(realm: string, user: string, secret: string): Verifier {
  const saltHex = randomBytes(16).toString('hex')
  const v = powG(passwordExponent(realm, user, secret, saltHex))
  return { saltHex, verifierHex: v.toString(16) }
}

export type ServerEphemeral = { bHex: string; BHex: string }

/** B = (k·v + g^b) mod N, with b random; retried in the (negligible) case B ≡ 0. */
export function serverEphemeral(verifierHex: string): ServerEphemeral {
  const v = BigInt(`0x${verifierHex}`)
  for (;;) {
    const b = toBigInt(randomBytes(32))
    const B = (k * v + powG(b)) % N
    if (B !== 0n) return { bHex: b.toString(16), BHex: B.toString(16) }
  }
}

/** Rejects a client value A ≡ 0 (mod N), which would let anyone forge the session key. */
export function isValidClientEphemeral(AHex: string): boolean {
  if (!/^[0-9a-fA-F]{1,1024}$/.test(AHex)) return false
  return BigInt(`0x${AHex}`) % N !== 0n
}

/**
 * The 16-byte key both sides derive: u = H(pad(A) | pad(B)), S = (A·v^u)^b mod N,
 * key = HKDF-SHA256(ikm = pad(S), salt = pad(u), info = "Caldera Derived Key").
 * Returns undefined when u is 0 (the exchange must then be abandoned).
 */
export function serverSessionKey(params: {
  AHex: string
  BHex: string
  bHex: string
  verifierHex: string
}): Buffer | undefined {
  const A = BigInt(`0x${params.AHex}`)
  const B = BigInt(`0x${params.BHex}`)
  const b = BigInt(`0x${params.bHex}`)
  const v = BigInt(`0x${params.verifierHex}`)
  const u = toBigInt(hashHex(padHex(A) + padHex(B)))
  if (u === 0n) return undefined
  const S = modPowN((A * modPowN(v, u)) % N, b)
  return hkdf(Buffer.from(padHex(S), 'hex'), Buffer.from(padHex(u), 'hex'))
}

/**
 * The client's side of the same exchange (what amazon-cognito-identity-js and Amplify compute),
 * for tools and tests that sign in without a JavaScript big-integer library:
 * S = (B - k·g^x)^(a + u·x) mod N.
 */
export function clientSessionKey(params: {
  aHex: string
  AHex: string
  BHex: string
  saltHex: string
  realm: string
  user: string
  secret: string
}): Buffer | undefined {
  const A = BigInt(`0x${params.AHex}`)
  const B = BigInt(`0x${params.BHex}`)
  if (B % N === 0n) return undefined
  const u = toBigInt(hashHex(padHex(A) + padHex(B)))
  if (u === 0n) return undefined
  const x = passwordExponent(params.realm, params.user, params.secret, params.saltHex)
  const base = (((B - ((k * powG(x)) % N)) % N) + N) % N
  const S = modPowN(base, BigInt(`0x${params.aHex}`) + u * x)
  return hkdf(Buffer.from(padHex(S), 'hex'), Buffer.from(padHex(u), 'hex'))
}

/** A client's random a and A = g^a mod N. */
export function clientEphemeral(): { aHex: string; AHex: string } {
  const a = toBigInt(randomBytes(32))
  return { aHex: a.toString(16), AHex: powG(a).toString(16) }
}

function hkdf(ikm: Buffer, salt: Buffer): Buffer {
  const prk = createHmac('sha256', salt).update(ikm).digest()
  const info = Buffer.concat([Buffer.from('Caldera Derived Key', 'utf8'), Buffer.from([1])])
  return createHmac('sha256', prk).update(info).digest().subarray(0, 16)
}

/** The claim signature: base64 HMAC-SHA256(key, realm | user | secretBlock | timestamp). */
export function claimSignature(
  key: Buffer,
  realm: string,
  user: string,
  secretBlockBase64: string,
  timestamp: string,
): string {
  return createHmac('sha256', key)
    .update(
      Buffer.concat([
        Buffer.from(realm, 'utf8'),
        Buffer.from(user, 'utf8'),
        Buffer.from(secretBlockBase64, 'base64'),
        Buffer.from(timestamp, 'utf8'),
      ]),
    )
    .digest('base64')
}

export function signaturesMatch(expectedBase64: string, claimedBase64: string): boolean {
  const expected = Buffer.from(expectedBase64, 'base64')
  const claimed = Buffer.from(claimedBase64, 'base64')
  return expected.length === claimed.length && timingSafeEqual(expected, claimed)
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec']
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** Parses the clients' TIMESTAMP ("Tue Nov 3 04:05:06 UTC 2026"); undefined if malformed. */
export function parseSrpTimestamp(value: string): number | undefined {
  const match = /^(\w{3}) (\w{3}) (\d{1,2}) (\d{2}):(\d{2}):(\d{2}) UTC (\d{4})$/.exec(value)
  if (!match) return undefined
  const [, day, month, date, hours, minutes, seconds, year] = match
  const monthIndex = MONTHS.indexOf(month as string)
  if (monthIndex < 0 || !DAYS.includes(day as string)) return undefined
  const time = Date.UTC(
    Number(year),
    monthIndex,
    Number(date),
    Number(hours),
    Number(minutes),
    Number(seconds),
  )
  return Number.isNaN(time) ? undefined : time
}

/** Formats a time the way the clients do, for tests and tools. */
export function formatSrpTimestamp(time: number): string {
  const d = new Date(time)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC ${d.getUTCFullYear()}`
}
