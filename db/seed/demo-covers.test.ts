import { inflateSync, crc32 as zlibCrc32 } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { sniffImageType } from '#features/images/image-rules.ts'
import { demoCourses } from './demo-content.ts'
import { COVER_HEIGHT, COVER_WIDTH, coverPattern, demoCoverPng } from './demo-covers.ts'
import { demoLabs } from './demo-labs.ts'
import { crc32, encodePng } from './png.ts'

/** A PNG's chunks, each with its CRC checked against zlib's own CRC-32. */
function chunksOf(png: Uint8Array) {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength)
  const chunks: { type: string; data: Uint8Array }[] = []
  for (let at = 8; at < png.length; ) {
    const length = view.getUint32(at)
    const typed = png.subarray(at + 4, at + 8 + length)
    expect(view.getUint32(at + 8 + length)).toBe(zlibCrc32(typed))
    chunks.push({ type: new TextDecoder().decode(typed.subarray(0, 4)), data: typed.subarray(4) })
    at += 12 + length
  }
  return chunks
}

/** Width, height and RGB pixels of a PNG this encoder wrote (8-bit RGB, filter 0 rows). */
function decode(png: Uint8Array) {
  const chunks = chunksOf(png)
  expect(chunks.map((chunk) => chunk.type)).toEqual(['IHDR', 'IDAT', 'IEND'])
  const header = chunks[0]?.data ?? new Uint8Array()
  const view = new DataView(header.buffer, header.byteOffset, header.byteLength)
  const width = view.getUint32(0)
  const height = view.getUint32(4)
  expect([...header.subarray(8)]).toEqual([8, 2, 0, 0, 0])
  const raw = inflateSync(chunks[1]?.data ?? new Uint8Array())
  expect(raw.length).toBe((width * 3 + 1) * height)
  const rgb = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    const row = y * (width * 3 + 1)
    expect(raw[row]).toBe(0)
    rgb.set(raw.subarray(row + 1, row + 1 + width * 3), y * width * 3)
  }
  return { width, height, rgb }
}

function averageColour({ rgb }: { rgb: Uint8Array }): [number, number, number] {
  const sum = [0, 0, 0]
  for (let i = 0; i < rgb.length; i++) sum[i % 3] = (sum[i % 3] ?? 0) + (rgb[i] ?? 0)
  const pixels = rgb.length / 3
  return [(sum[0] ?? 0) / pixels, (sum[1] ?? 0) / pixels, (sum[2] ?? 0) / pixels]
}

describe('encodePng', () => {
  it('writes a PNG any decoder reads back: signature, checked chunks, the same pixels', () => {
    const rgb = Uint8Array.from({ length: 3 * 4 * 3 }, (_, i) => (i * 37) % 256)
    const png = encodePng(3, 4, rgb)
    expect(sniffImageType(png)).toBe('image/png')
    expect(decode(png)).toEqual({ width: 3, height: 4, rgb })
  })

  it('computes CRC-32 as zlib does', () => {
    for (const text of ['', 'IEND', 'テックラボ']) {
      const bytes = new TextEncoder().encode(text)
      expect(crc32(bytes)).toBe(zlibCrc32(bytes))
    }
  })

  it('refuses a size that does not match the pixels', () => {
    expect(() => encodePng(2, 2, new Uint8Array(11))).toThrow('2×2 RGB pixels are 12 bytes')
    expect(() => encodePng(0, 2, new Uint8Array())).toThrow('positive whole size')
  })
})

describe('demo covers', () => {
  const titles = [...demoCourses, ...demoLabs].map((item) => item.title)

  it('draws a 16:9 PNG, the same bytes for the same title and place', () => {
    const cover = demoCoverPng(titles[0] ?? '', 0)
    const decoded = decode(cover)
    expect([decoded.width, decoded.height]).toEqual([COVER_WIDTH, COVER_HEIGHT])
    expect(COVER_WIDTH / COVER_HEIGHT).toBeCloseTo(16 / 9)
    expect(demoCoverPng(titles[0] ?? '', 0)).toEqual(cover)
    // Not a flat fill: a gradient with a pattern has many colours.
    const colours = new Set<number>()
    for (let i = 0; i < decoded.rgb.length; i += 3) {
      colours.add(
        ((decoded.rgb[i] ?? 0) << 16) |
          ((decoded.rgb[i + 1] ?? 0) << 8) |
          (decoded.rgb[i + 2] ?? 0),
      )
    }
    expect(colours.size).toBeGreaterThan(100)
  })

  it('gives every demo course and lab a colour of its own, and varies the pattern', () => {
    const averages = titles.map((title, index) => averageColour(decode(demoCoverPng(title, index))))
    for (const [i, a] of averages.entries()) {
      for (const [j, b] of averages.entries()) {
        if (j <= i) continue
        const distance = Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2])
        expect(distance, `${titles[i]} / ${titles[j]}`).toBeGreaterThan(12)
      }
    }
    expect(new Set(titles.map(coverPattern)).size).toBeGreaterThan(2)
  })
})
