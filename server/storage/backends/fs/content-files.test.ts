import { readdir } from 'node:fs/promises'
import path from 'node:path'
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryContentFiles, putText } from './temporary-content-files.ts'

describe('content files', () => {
  let temporary: Awaited<ReturnType<typeof openTemporaryContentFiles>>
  beforeEach(async () => {
    temporary = await openTemporaryContentFiles()
  })
  afterEach(async () => {
    await temporary.files.close()
    await temporary.remove()
  })
  const text = async (stream: Readable) => Buffer.concat(await stream.toArray()).toString()
  const spares = async () =>
    (await readdir(path.join(temporary.directory, 'tmp'))).filter((name) => name.endsWith('.spare'))

  it('reuses removed files for later writes', async () => {
    const { files } = temporary
    const first = await putText(files, 'first')
    await files.remove(first)
    expect(await spares()).toHaveLength(1)
    const second = await putText(files, 'second')
    expect(await spares()).toEqual([])
    expect(temporary.exists(first)).toBe(false)
    expect(await text((await files.open(second, 6))?.read() ?? Readable.from([]))).toBe('second')
  })

  it('keeps a file a reader has open until the reader is done: its bytes are its snapshot', async () => {
    const { files } = temporary
    const old = await putText(files, 'old bytes')
    const reader = await files.open(old, 9)
    await files.remove(old)
    // Were the file recycled now, this write would fill it.
    await putText(files, 'new bytes')
    expect(await spares()).toEqual([])
    expect(await text(reader?.read() ?? Readable.from([]))).toBe('old bytes')
    // Once read, it is retired.
    await expect.poll(() => temporary.exists(old)).toBe(false)
  })

  it('opens an id being removed as gone', async () => {
    const { files } = temporary
    const id = await putText(files, 'bytes')
    const removing = files.remove(id)
    expect(await files.open(id, 5)).toBeUndefined()
    await removing
    expect(await files.open(id, 5)).toBeUndefined()
  })
})
