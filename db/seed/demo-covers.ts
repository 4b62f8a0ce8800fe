import { encodePng } from './png.ts'

/** The demo covers' size: 16:9, as cards and course pages show covers. */
export const COVER_WIDTH = 640
export const COVER_HEIGHT = 360

/** FNV-1a of the title's UTF-16 units: a small stable number that picks a cover's pattern. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193) >>> 0
  }
  return hash
}

/**
 * The hue and lightness of the `index`-th cover of a set: a two-dimensional low-discrepancy
 * (R2) sequence, so that no two of a few dozen covers share a colour, whatever their titles.
 */
export function coverTone(index: number): { hue: number; lightness: number } {
  const hue = (205 + index * 360 * 0.7548776662) % 360
  const lightness = 0.46 + ((0.5 + index * 0.569840291) % 1) * 0.2
  return { hue, lightness }
}

function hslToRgb(hue: number, saturation: number, lightness: number): [number, number, number] {
  const a = saturation * Math.min(lightness, 1 - lightness)
  const channel = (n: number) => {
    const k = (n + hue / 30) % 12
    return lightness - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))
  }
  return [channel(0), channel(8), channel(4)]
}

const PATTERNS = ['rings', 'stripes', 'dots', 'waves'] as const
export type CoverPattern = (typeof PATTERNS)[number]

/** The pattern a title's cover is drawn with (it depends on the title alone). */
export function coverPattern(title: string): CoverPattern {
  return PATTERNS[hashOf(title) % PATTERNS.length] ?? 'rings'
}

/**
 * How much white a pattern lays over the gradient, as a function of (x, y) made for one cover
 * (what depends on x alone is worked out once per column: the seed draws a few dozen covers).
 */
function patternOf(pattern: CoverPattern, phase: number): (x: number, y: number) => number {
  const columns = (f: (x: number) => number) =>
    Float64Array.from({ length: COVER_WIDTH }, (_, x) => f(x))
  switch (pattern) {
    case 'rings': {
      const cx = COVER_WIDTH * (0.72 + 0.1 * Math.sin(phase))
      const cy = COVER_HEIGHT * 0.35
      return (x, y) => (Math.sqrt((x - cx) ** 2 + (y - cy) ** 2) % 48 < 10 ? 0.16 : 0)
    }
    case 'stripes': {
      const shift = Math.round(phase * 40)
      return (x, y) => ((x + y + shift) % 64 < 22 ? 0.12 : 0)
    }
    case 'dots': {
      const radii = columns((x) => (5 + 2 * Math.sin(phase + x / 160)) ** 2)
      return (x, y) => {
        const dx = (x % 40) - 20
        const dy = (y % 40) - 20
        return dx * dx + dy * dy < (radii[x] ?? 0) ? 0.22 : 0
      }
    }
    case 'waves': {
      const waves = columns((x) => Math.sin(x / 55 + phase) * 22 + Math.sin(x / 23) * 6 + 56)
      return (x, y) => ((y + (waves[x] ?? 0)) % 56 < 14 ? 0.14 : 0)
    }
  }
}

/**
 * A demo cover as PNG bytes: a diagonal two-colour gradient in the set's `index`-th tone, with
 * a light pattern the title picks, and a soft large circle. The same title and index always
 * give the same bytes.
 */
export function demoCoverPng(title: string, index: number): Uint8Array {
  const { hue, lightness } = coverTone(index)
  const pattern = coverPattern(title)
  const phase = (hashOf(title) % 628) / 100
  const from = hslToRgb(hue, 0.7, lightness + 0.08)
  const to = hslToRgb((hue + 45) % 360, 0.65, lightness - 0.16)
  const circle = { x: COVER_WIDTH * 0.18, y: COVER_HEIGHT * 0.95, r: COVER_HEIGHT * 0.55 }
  const whiteAt = patternOf(pattern, phase)
  const rgb = new Uint8Array(COVER_WIDTH * COVER_HEIGHT * 3)
  for (let y = 0; y < COVER_HEIGHT; y++) {
    for (let x = 0; x < COVER_WIDTH; x++) {
      const t = (x / COVER_WIDTH) * 0.6 + (y / COVER_HEIGHT) * 0.4
      let white = whiteAt(x, y)
      if ((x - circle.x) ** 2 + (y - circle.y) ** 2 < circle.r ** 2) white += 0.1
      const at = (y * COVER_WIDTH + x) * 3
      for (let c = 0; c < 3; c++) {
        const base = (from[c] ?? 0) * (1 - t) + (to[c] ?? 0) * t
        rgb[at + c] = Math.round(255 * (base + (1 - base) * white))
      }
    }
  }
  return encodePng(COVER_WIDTH, COVER_HEIGHT, rgb)
}
