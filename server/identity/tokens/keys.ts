import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPair,
  type KeyObject,
  randomBytes,
} from 'node:crypto'
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'

/**
 * The user pool's key material, kept in one JSON file (0600, replaced atomically):
 * RSA-2048 signing keys, each with a `kid`, and one HMAC secret for what must be unguessable
 * but never read back (confirmation-code hashes, the stand-in salts of unknown users).
 *
 * Rotation: the newest key signs; when it is older than `rotateAfterMs` a new one is made and
 * the old one is retired, staying in the JWKS until every token it signed has expired.
 * Several instances behind one issuer share the file (USER_POOL_KEYS_FILE); a token signed
 * with a key this instance does not know makes it re-read the file (docs/decisions/006).
 */
export type PublicJwk = { kty: 'RSA'; kid: string; use: 'sig'; alg: 'RS256'; n: string; e: string }

export type SigningKey = {
  kid: string
  createdAt: number
  retiredAt: number | null
  privateKey: KeyObject
  publicKey: KeyObject
  jwk: PublicJwk
}

export type KeyStore = {
  /** 32 random bytes for HMACs. */
  readonly secret: Buffer
  /** The key that signs new tokens. */
  signingKey(): SigningKey
  /** A published key by its `kid` (active or retired). */
  find(kid: string): SigningKey | undefined
  /**
   * Re-reads the file, so that a key another instance rotated in becomes known; at most once
   * per `reloadIntervalMs`. Resolves to whether anything changed.
   */
  reload(): Promise<boolean>
  jwks(): { keys: PublicJwk[] }
  /** Makes a new signing key and retires the current one; persists the change. */
  rotate(): Promise<void>
}

export type KeyStoreOptions = {
  file: string
  /** How long a signing key signs before it is rotated at start-up (default 90 days). */
  rotateAfterMs?: number
  /** How long a retired key stays published: the longest token lifetime. */
  keepRetiredMs: number
  reloadIntervalMs?: number
  /** Told when the file cannot be written and a due rotation is put off. */
  warn?: (message: string) => void
  now?: () => number
}

type KeyFile = {
  version: 1
  secret: string
  keys: { kid: string; createdAt: number; retiredAt: number | null; privateKey: string }[]
}

const DAY_MS = 24 * 3600 * 1000
const generateRsa = promisify(generateKeyPair)

export async function openKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  const now = options.now ?? Date.now
  const rotateAfterMs = options.rotateAfterMs ?? 90 * DAY_MS
  const reloadIntervalMs = options.reloadIntervalMs ?? 30_000
  const existing = await readKeyFile(options.file)
  const secretText = existing?.secret ?? randomBytes(32).toString('base64')
  const secret = Buffer.from(secretText, 'base64')
  if (secret.length !== 32) throw new Error(`${options.file}: the secret must be 32 bytes`)
  let keys = (existing?.keys ?? []).map(loadKey)
  let lastRead = now()

  const active = () => keys.findLast((key) => key.retiredAt === null)
  const pruned = (list: SigningKey[]) =>
    list.filter((key) => key.retiredAt === null || key.retiredAt + options.keepRetiredMs > now())
  const withNewKey = async (list: SigningKey[]) => {
    const time = now()
    const next = await newKey(time)
    return [...list.map((key) => ({ ...key, retiredAt: key.retiredAt ?? time })), next]
  }
  const save = (list: SigningKey[]) =>
    writeAtomically(options.file, `${JSON.stringify(toFile(secretText, list), null, 2)}\n`)

  if (!existing) {
    keys = await withNewKey([])
    await save(keys)
  } else {
    const current = active()
    const next = pruned(
      !current || now() - current.createdAt >= rotateAfterMs ? await withNewKey(keys) : keys,
    )
    if (next.length !== keys.length || next.some((key, i) => key !== keys[i])) {
      try {
        await save(next)
        keys = next
      } catch (error) {
        // A read-only file (a mounted secret): keep signing with the keys it has.
        if (!current) throw error
        options.warn?.(
          `${options.file} cannot be written (${(error as Error).message}); not rotating`,
        )
      }
    }
  }

  return {
    secret,
    signingKey() {
      const key = active()
      if (!key) throw new Error('no signing key')
      return key
    },
    find(kid) {
      return keys.find((key) => key.kid === kid)
    },
    async reload() {
      if (now() - lastRead < reloadIntervalMs) return false
      lastRead = now()
      const stored = await readKeyFile(options.file)
      if (!stored || stored.secret !== secretText) return false
      const before = keys.map((key) => key.kid).join()
      keys = pruned(stored.keys.map(loadKey))
      return keys.map((key) => key.kid).join() !== before
    },
    jwks() {
      return { keys: keys.map((key) => key.jwk) }
    },
    async rotate() {
      const next = pruned(await withNewKey(keys))
      await save(next)
      keys = next
      lastRead = now()
    },
  }
}

function toFile(secret: string, keys: SigningKey[]): KeyFile {
  return {
    version: 1,
    secret,
    keys: keys.map((key) => ({
      kid: key.kid,
      createdAt: key.createdAt,
      retiredAt: key.retiredAt,
      privateKey: key.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    })),
  }
}

async function newKey(createdAt: number): Promise<SigningKey> {
  const { privateKey } = await generateRsa('rsa', { modulusLength: 2048 })
  return fromPrivateKey(privateKey, createdAt, null)
}

function loadKey(stored: KeyFile['keys'][number]): SigningKey {
  const key = fromPrivateKey(
    createPrivateKey(stored.privateKey),
    stored.createdAt,
    stored.retiredAt,
  )
  if (key.kid !== stored.kid) throw new Error(`signing key ${stored.kid} does not match its kid`)
  return key
}

function fromPrivateKey(
  privateKey: KeyObject,
  createdAt: number,
  retiredAt: number | null,
): SigningKey {
  const publicKey = createPublicKey(privateKey)
  const { n, e } = publicKey.export({ format: 'jwk' })
  if (typeof n !== 'string' || typeof e !== 'string') throw new Error('not an RSA key')
  // RFC 7638 thumbprint: stable, derived from the key itself.
  const kid = createHash('sha256')
    .update(JSON.stringify({ e, kty: 'RSA', n }))
    .digest('base64url')
  return {
    kid,
    createdAt,
    retiredAt,
    privateKey,
    publicKey,
    jwk: { kty: 'RSA', kid, use: 'sig', alg: 'RS256', n, e },
  }
}

async function readKeyFile(file: string): Promise<KeyFile | undefined> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  const parsed = JSON.parse(text) as Partial<KeyFile>
  if (parsed.version !== 1 || typeof parsed.secret !== 'string' || !Array.isArray(parsed.keys)) {
    throw new Error(`${file} is not a user pool key file`)
  }
  return parsed as KeyFile
}

async function writeAtomically(file: string, content: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(content)
    await handle.sync()
  } catch (error) {
    await handle.close()
    await rm(temporary, { force: true })
    throw error
  }
  await handle.close()
  await rename(temporary, file)
}
