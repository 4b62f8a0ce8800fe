import type { FileHandle } from 'node:fs/promises'
import { Readable } from 'node:stream'

/**
 * Buffers of `size` bytes kept for reuse by reads, at most `capacity` of them. Allocating a
 * fresh 1 MiB buffer for every read of a large object made garbage collection a quarter of the
 * time spent serving 1 MiB GETs.
 */
export class ReadBuffers {
  readonly size: number
  private readonly capacity: number
  private readonly free: Buffer[] = []

  constructor(size: number, capacity: number) {
    this.size = size
    this.capacity = capacity
  }

  take(): Buffer {
    return this.free.pop() ?? Buffer.allocUnsafeSlow(this.size)
  }

  giveBack(buffers: Buffer[]): void {
    for (const buffer of buffers) {
      if (this.free.length >= this.capacity) return
      this.free.push(buffer)
    }
  }
}

/** Reads under this size get a buffer of their own; a pooled one would mostly go unused. */
const MIN_LENT_READ_BYTES = 64 * 1024

/**
 * Bytes `start`..`end` (inclusive) of an open file, in reads of up to `buffers.size` bytes,
 * closing the file when the stream ends or is destroyed. When `released` is given, reads large
 * enough use buffers from `buffers` and return them once it resolves true; when it resolves
 * false (the consumer may still hold them, e.g. a socket closed mid-write), they are left to
 * the garbage collector.
 */
export class FileRangeStream extends Readable {
  private readonly file: FileHandle
  private readonly buffers: ReadBuffers
  private readonly end: number
  private readonly lending: boolean
  private readonly lent: Buffer[] = []
  private position: number

  constructor(
    file: FileHandle,
    range: { start: number; end: number },
    buffers: ReadBuffers,
    released: Promise<boolean> | undefined,
  ) {
    super()
    this.file = file
    this.buffers = buffers
    this.position = range.start
    this.end = range.end
    this.lending = released !== undefined
    released?.then((reusable) => {
      // Only after the last read: a stream cut short may still have one under way.
      if (reusable && this.readableEnded) buffers.giveBack(this.lent)
      this.lent.length = 0
    })
  }

  override _read(): void {
    const length = Math.min(this.buffers.size, this.end - this.position + 1)
    if (length <= 0) {
      this.push(null)
      return
    }
    const buffer = this.buffer(length)
    this.file.read(buffer, 0, length, this.position).then(
      ({ bytesRead }) => {
        if (bytesRead === 0) {
          this.destroy(new Error('The content file is shorter than its index row says'))
          return
        }
        this.position += bytesRead
        this.push(buffer.subarray(0, bytesRead))
      },
      (error: Error) => this.destroy(error),
    )
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.file.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    )
  }

  private buffer(length: number): Buffer {
    if (!this.lending || length < MIN_LENT_READ_BYTES) return Buffer.allocUnsafe(length)
    const buffer = this.buffers.take()
    this.lent.push(buffer)
    return buffer
  }
}
