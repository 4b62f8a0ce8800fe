import { createHash, type Hash } from 'node:crypto'
import type { Readable } from 'node:stream'

/**
 * Where an indexed object store keeps bytes: immutable content items named by fresh random ids
 * (never by keys), each written whole or not at all. The index in the database says which item
 * holds which object or part; an item no index row names is a leftover. Implemented on local
 * disk (../fs/content-files.ts) and in an S3-compatible bucket (../s3/s3-content-objects.ts).
 */
export type ContentStore = {
  /** Streams the source into a new item, with its MD5. On any error nothing is left behind. */
  write(source: AsyncIterable<Uint8Array>): Promise<HashedContent>
  /** The same without the MD5, for Complete: a multipart ETag comes from the parts' MD5s. */
  writeUnhashed(source: AsyncIterable<Uint8Array>): Promise<WrittenContent>
  /**
   * A snapshot of one item, or undefined when it is gone (replaced meanwhile). `size` is the
   * item's size as written (the index has it), so opening need not ask the disk.
   */
  open(id: string, size: number): Promise<ContentReader | undefined>
  /** Removes an item; a missing one is not an error. */
  remove(id: string): Promise<void>
  /** Start-up only: removes every unfinished write and every item not in `referenced`. */
  removeLeftovers(referenced: ReadonlySet<string>): Promise<number>
  /** Lets go of what the store holds open; called once, when its object store closes. */
  close(): Promise<void>
}

export type WrittenContent = { fileId: string; size: number }
export type HashedContent = WrittenContent & { md5: Buffer }

export type ContentReader = {
  /**
   * Bytes `start`..`end` inclusive, or all; called once, and the stream releases the reader.
   * `released` as in OpenedObject.read.
   */
  read(range?: { start: number; end: number }, released?: Promise<boolean>): Readable
}

/**
 * `write` and `writeUnhashed` from one writer that feeds every chunk to `md5` when given one:
 * what both content stores share.
 */
export function contentWriters(
  write: (source: AsyncIterable<Uint8Array>, md5: Hash | undefined) => Promise<WrittenContent>,
): Pick<ContentStore, 'write' | 'writeUnhashed'> {
  return {
    async write(source) {
      const md5 = createHash('md5')
      return { ...(await write(source, md5)), md5: md5.digest() }
    },
    writeUnhashed: (source) => write(source, undefined),
  }
}
