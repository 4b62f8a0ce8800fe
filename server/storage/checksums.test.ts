import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { checksumOf, createChecksummer, isChecksumValue } from './checksums.ts'

const CHECK = Buffer.from('123456789')
const hex = (algorithm: Parameters<typeof checksumOf>[0], data: Buffer) =>
  Buffer.from(checksumOf(algorithm, data), 'base64').toString('hex')

describe('checksums', () => {
  it('gives the catalogued check values for "123456789"', () => {
    expect(hex('CRC32', CHECK)).toBe('cbf43926')
    expect(hex('CRC32C', CHECK)).toBe('e3069283')
    expect(hex('CRC64NVME', CHECK)).toBe('ae8b14860a799888')
    expect(hex('SHA1', CHECK)).toBe(createHash('sha1').update(CHECK).digest('hex'))
    expect(hex('SHA256', CHECK)).toBe(createHash('sha256').update(CHECK).digest('hex'))
  })

  it('gives the same value however the bytes are split', () => {
    const data = Buffer.from('a longer body, fed to the checksum in uneven pieces '.repeat(50))
    for (const algorithm of ['CRC32', 'CRC32C', 'CRC64NVME', 'SHA1', 'SHA256'] as const) {
      const checksummer = createChecksummer(algorithm)
      for (let offset = 0; offset < data.length; offset += 77) {
        checksummer.update(data.subarray(offset, offset + 77))
      }
      expect(checksummer.digest().toString('base64')).toBe(checksumOf(algorithm, data))
    }
  })

  it('accepts only canonical base64 of the right size', () => {
    expect(isChecksumValue('CRC32', checksumOf('CRC32', CHECK))).toBe(true)
    expect(isChecksumValue('CRC32', checksumOf('SHA1', CHECK))).toBe(false)
    expect(isChecksumValue('CRC32', 'not base64!')).toBe(false)
    expect(isChecksumValue('CRC64NVME', checksumOf('CRC64NVME', CHECK))).toBe(true)
  })
})
