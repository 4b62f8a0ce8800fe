import { createHash, type Hash } from 'node:crypto'
import { crc32 } from 'node:zlib'
import type { ChecksumAlgorithm } from './backends/object-store.ts'
import { S3Error } from './s3-error.ts'

/** An incremental checksum; `digest()` gives the big-endian bytes S3 base64-encodes. */
export type Checksummer = { update(data: Buffer): void; digest(): Buffer }

export const CHECKSUM_ALGORITHMS: readonly ChecksumAlgorithm[] = [
  'CRC32',
  'CRC32C',
  'CRC64NVME',
  'SHA1',
  'SHA256',
]

/** `x-amz-checksum-crc32` and so on: the header (and trailer) carrying each algorithm's value. */
export const checksumHeader = (algorithm: ChecksumAlgorithm) =>
  `x-amz-checksum-${algorithm.toLowerCase()}`

export function algorithmOfHeader(name: string): ChecksumAlgorithm | undefined {
  return CHECKSUM_ALGORITHMS.find((algorithm) => checksumHeader(algorithm) === name.toLowerCase())
}

/** `ChecksumCRC32` and so on: the element naming each algorithm's value in S3's XML. */
export const checksumElement = (algorithm: ChecksumAlgorithm) => `Checksum${algorithm}`

const DIGEST_BYTES: Record<ChecksumAlgorithm, number> = {
  CRC32: 4,
  CRC32C: 4,
  CRC64NVME: 8,
  SHA1: 20,
  SHA256: 32,
}

/** Whether a header value is the base64 of a digest of the algorithm's size. */
export function isChecksumValue(algorithm: ChecksumAlgorithm, value: string): boolean {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value)) return false
  const bytes = Buffer.from(value, 'base64')
  return bytes.length === DIGEST_BYTES[algorithm] && bytes.toString('base64') === value
}

export function createChecksummer(algorithm: ChecksumAlgorithm): Checksummer {
  switch (algorithm) {
    case 'CRC32':
      return crc32Checksummer()
    case 'CRC32C':
      return crc32cChecksummer()
    case 'CRC64NVME':
      return crc64NvmeChecksummer()
    case 'SHA1':
      return hashChecksummer(createHash('sha1'))
    case 'SHA256':
      return hashChecksummer(createHash('sha256'))
  }
}

/** The base64 checksum of a whole buffer. */
export function checksumOf(algorithm: ChecksumAlgorithm, data: Buffer): string {
  const checksummer = createChecksummer(algorithm)
  checksummer.update(data)
  return checksummer.digest().toString('base64')
}

export function badDigest(algorithm: ChecksumAlgorithm): S3Error {
  return new S3Error(
    'BadDigest',
    `The ${algorithm} you specified did not match the calculated checksum.`,
  )
}

function hashChecksummer(hash: Hash): Checksummer {
  return { update: (data) => void hash.update(data), digest: () => hash.digest() }
}

function uint32(value: number): Buffer {
  const bytes = Buffer.alloc(4)
  bytes.writeUInt32BE(value >>> 0)
  return bytes
}

function crc32Checksummer(): Checksummer {
  let value = 0
  return {
    update: (data) => {
      value = crc32(data, value)
    },
    digest: () => uint32(value),
  }
}

// Castagnoli, reflected (iSCSI, RFC 3720): the table-driven form.
const CRC32C_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n += 1) {
    let c = n
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0x82f63b78 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

function crc32cChecksummer(): Checksummer {
  let crc = 0xffffffff
  return {
    update: (data) => {
      for (const byte of data) crc = (CRC32C_TABLE[(crc ^ byte) & 0xff] as number) ^ (crc >>> 8)
    },
    digest: () => uint32(crc ^ 0xffffffff),
  }
}

// CRC-64/NVME: reflected polynomial 0x9a6c9329ac4bc9b5, held as two 32-bit halves for speed.
const CRC64_TABLES = (() => {
  const high = new Uint32Array(256)
  const low = new Uint32Array(256)
  const polynomial = 0x9a6c9329ac4bc9b5n
  for (let n = 0; n < 256; n += 1) {
    let c = BigInt(n)
    for (let k = 0; k < 8; k += 1) c = c & 1n ? polynomial ^ (c >> 1n) : c >> 1n
    high[n] = Number(c >> 32n)
    low[n] = Number(c & 0xffffffffn)
  }
  return { high, low }
})()

function crc64NvmeChecksummer(): Checksummer {
  let high = 0xffffffff
  let low = 0xffffffff
  const { high: tableHigh, low: tableLow } = CRC64_TABLES
  return {
    update: (data) => {
      for (const byte of data) {
        const index = (low ^ byte) & 0xff
        low = (((low >>> 8) | ((high & 0xff) << 24)) ^ (tableLow[index] as number)) >>> 0
        high = ((high >>> 8) ^ (tableHigh[index] as number)) >>> 0
      }
    },
    digest: () => Buffer.concat([uint32(high ^ 0xffffffff), uint32(low ^ 0xffffffff)]),
  }
}
