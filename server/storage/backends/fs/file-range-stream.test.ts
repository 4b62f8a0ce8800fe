import { randomBytes } from 'node:crypto'
import { mkdtemp, open, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FileRangeStream, ReadBuffers } from './file-range-stream.ts'

const CHUNK = 64 * 1024
const content = randomBytes(3 * CHUNK + 100)
let directory: string
let file: string

beforeAll(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'file-range-stream-'))
  file = path.join(directory, 'content')
  await writeFile(file, content)
})
afterAll(() => rm(directory, { recursive: true, force: true }))

/** Reads the whole stream; then, as a finished response does, says whether it kept chunks. */
async function readAll(
  range: { start: number; end: number },
  buffers: ReadBuffers,
  releasedAfterwards?: boolean,
) {
  let release = (_reusable: boolean) => {}
  const released =
    releasedAfterwards === undefined
      ? undefined
      : new Promise<boolean>((resolve) => {
          release = resolve
        })
  const chunks: Buffer[] = []
  for await (const chunk of new FileRangeStream(await open(file), range, buffers, released)) {
    chunks.push(chunk as Buffer)
  }
  release(releasedAfterwards ?? false)
  await released
  return chunks
}

describe('FileRangeStream', () => {
  it('reads exactly the range asked, in chunks of the buffers’ size', async () => {
    const chunks = await readAll({ start: 10, end: 2 * CHUNK + 20 }, new ReadBuffers(CHUNK, 4))
    expect(chunks.map((chunk) => chunk.byteLength)).toEqual([CHUNK, CHUNK, 11])
    expect(Buffer.concat(chunks).equals(content.subarray(10, 2 * CHUNK + 21))).toBe(true)
  })

  it('reads nothing for an empty range', async () => {
    expect(await readAll({ start: 0, end: -1 }, new ReadBuffers(CHUNK, 4))).toEqual([])
  })

  it('fails instead of ending early when the file is shorter than the range', async () => {
    await expect(
      readAll({ start: 0, end: content.byteLength + 10 }, new ReadBuffers(CHUNK, 4)),
    ).rejects.toThrow('shorter')
  })

  it('reuses the lent buffers once they are released, and not when they may still be held', async () => {
    const buffers = new ReadBuffers(CHUNK, 4)
    const whole = { start: 0, end: 2 * CHUNK - 1 }
    const first = await readAll(whole, buffers, true)
    const second = await readAll(whole, buffers, false)
    const backing = (chunks: Buffer[]) => chunks.map((chunk) => chunk.buffer)
    expect(new Set([...backing(first), ...backing(second)]).size).toBe(2)
    expect(Buffer.concat(second).equals(content.subarray(0, 2 * CHUNK))).toBe(true)
    const third = await readAll(whole, buffers, true)
    expect(backing(third).some((buffer) => backing(second).includes(buffer))).toBe(false)
  })
})
