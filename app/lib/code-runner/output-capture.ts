import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import type { OutputStream } from './protocol.ts'

const encoder = new TextEncoder()

/** The longest prefix of `text` that is at most `bytes` bytes of UTF-8 (never half a character). */
export function truncateUtf8(text: string, bytes: number): string {
  if (bytes <= 0) return ''
  // Each UTF-16 unit is at most 3 bytes; shorter texts fit whole.
  if (text.length * 3 <= bytes) return text
  const encoded = encoder.encode(text)
  if (encoded.byteLength <= bytes) return text
  let end = bytes
  // Back off continuation bytes (10xxxxxx) to the start of the character that does not fit.
  while (end > 0 && ((encoded[end] ?? 0) & 0xc0) === 0x80) end -= 1
  return new TextDecoder().decode(encoded.subarray(0, end))
}

/**
 * stdout and stderr of one run, together at most `limit` bytes of UTF-8 (MAX_OUTPUT_BYTES): the
 * write that would go past it is cut at the limit and `append` answers false, after which the
 * run is to be stopped as 'output-limit'.
 */
export class OutputCapture {
  stdout = ''
  stderr = ''
  #bytes = 0
  #full = false

  readonly limit: number

  constructor(limit = MAX_OUTPUT_BYTES) {
    this.limit = limit
  }

  get bytes(): number {
    return this.#bytes
  }

  get full(): boolean {
    return this.#full
  }

  append(stream: OutputStream, text: string): boolean {
    if (this.#full) return false
    const size = encoder.encode(text).byteLength
    const room = this.limit - this.#bytes
    if (size <= room) {
      this[stream] += text
      this.#bytes += size
      return true
    }
    const kept = truncateUtf8(text, room)
    this[stream] += kept
    this.#bytes += encoder.encode(kept).byteLength
    this.#full = true
    return false
  }
}
