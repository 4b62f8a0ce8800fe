import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto'
import { mkdir, open, readFile, rename } from 'node:fs/promises'
import path from 'node:path'

/**
 * Symmetric encryption (AES-256-GCM) for the few secrets the server must be able to read back,
 * such as a temporary credential's secret key, which the object store needs to check
 * signatures. The key comes from the environment (shared by every instance) or from a file in
 * the data directory created on first use.
 */
export type SecretBox = {
  seal(plaintext: string): string
  open(sealed: string): string
}

const VERSION = 'v1'

export function createSecretBox(key: Buffer): SecretBox {
  if (key.length !== 32) throw new Error('A secret box key must be 32 bytes')
  return {
    seal(plaintext) {
      const iv = randomBytes(12)
      const cipher = createCipheriv('aes-256-gcm', key, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      return [
        VERSION,
        iv.toString('base64url'),
        cipher.getAuthTag().toString('base64url'),
        body.toString('base64url'),
      ].join('.')
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split('.')
      if (version !== VERSION || !iv || !tag || body === undefined)
        throw new Error('Not a sealed secret')
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8')
    },
  }
}

/** Reads the key file, creating it (0600, atomically) on first use. */
export async function loadOrCreateKeyFile(file: string): Promise<Buffer> {
  try {
    return decodeKey(await readFile(file, 'utf8'))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 })
  const temporary = `${file}.${process.pid}.tmp`
  const handle = await open(temporary, 'wx', 0o600)
  try {
    await handle.writeFile(`${randomBytes(32).toString('base64')}\n`)
    await handle.sync()
  } finally {
    await handle.close()
  }
  await rename(temporary, file)
  return decodeKey(await readFile(file, 'utf8'))
}

export function decodeKey(text: string): Buffer {
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== 32) throw new Error('The key must be 32 bytes, base64-encoded')
  return key
}
