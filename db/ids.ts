import { randomBytes } from 'node:crypto'

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz'

/**
 * A 16-character lowercase id for content that appears in URLs (`/{user}/courses/{id}`):
 * 36^16 ≈ 2^82 values, unguessable enough that ids never reveal counts or order.
 */
export function newContentId(): string {
  const bytes = randomBytes(16)
  let id = ''
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length]
  return id
}
