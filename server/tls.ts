import { X509Certificate } from 'node:crypto'
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { generate } from 'selfsigned'
import type { Config } from './config.ts'

/**
 * The certificate of the local TLS listener (HTTPS_PORT). Given files (TLS_CERT_FILE and
 * TLS_KEY_FILE) are read as they are; otherwise a self-signed certificate for localhost is
 * kept in the data directory, made on first start and again once it has expired. Browsers
 * warn about it (tests run Chromium with --ignore-certificate-errors); production puts a
 * real certificate here or, more usually, terminates TLS in a proxy (docs/decisions/009).
 */
export async function loadCertificate(
  https: NonNullable<Config['https']>,
  now = Date.now(),
): Promise<{ cert: string; key: string }> {
  const existing = await readPair(https.certFile, https.keyFile)
  if (!https.selfSigned) {
    if (!existing) throw new Error(`${https.certFile} or ${https.keyFile} cannot be read`)
    return existing
  }
  if (existing && Date.parse(new X509Certificate(existing.cert).validTo) > now) return existing
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 60_000),
    notAfterDate: new Date(now + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  })
  await mkdir(path.dirname(https.keyFile), { recursive: true, mode: 0o700 })
  await writeFile(https.keyFile, pems.private, { mode: 0o600 })
  await writeFile(https.certFile, pems.cert)
  return { cert: pems.cert, key: pems.private }
}

async function readPair(certFile: string, keyFile: string) {
  try {
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
}
