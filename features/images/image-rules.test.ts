import { describe, expect, it } from 'vitest'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { IMAGE_SIGNATURE_BYTES, IMAGE_TYPES, sniffImageType } from './image-rules.ts'

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === 'string' ? [...Buffer.from(part, 'latin1')] : part)),
  )

describe('sniffImageType', () => {
  it('knows each accepted type by its signature, from the first IMAGE_SIGNATURE_BYTES bytes', () => {
    const samples = {
      'image/png': PNG_1X1,
      'image/jpeg': bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF\0'),
      'image/gif': bytes('GIF89a', [1, 0, 1, 0, 0x80, 0]),
      'image/webp': bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
    }
    for (const [type, sample] of Object.entries(samples)) {
      expect(sniffImageType(sample.subarray(0, IMAGE_SIGNATURE_BYTES))).toBe(type)
    }
    expect(sniffImageType(bytes('GIF87a', [1, 0]))).toBe('image/gif')
    expect(Object.keys(samples).sort()).toEqual([...IMAGE_TYPES].sort())
  })

  it('refuses markup, SVG, other formats, truncated signatures and nothing at all', () => {
    for (const sample of [
      bytes('<!doctype html><script>'),
      bytes('<svg xmlns="http://www.w3.org/2000/svg">'),
      bytes('%PDF-1.7'),
      bytes('RIFF', [0, 0, 0, 0], 'WAVE'),
      bytes('GIF88a'),
      PNG_1X1.subarray(0, 7),
      bytes([0xff, 0xd8]),
      bytes(),
    ]) {
      expect(sniffImageType(sample)).toBeUndefined()
    }
  })
})
