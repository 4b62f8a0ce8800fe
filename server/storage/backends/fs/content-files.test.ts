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

  it('removes a file; a reader that opened it first still reads its bytes, its snapshot', async () => {
    const { files } = temporary
    const old = await putText(files, 'old bytes')
    const reader = await files.open(old, 9)
    await files.remove(old)
    expect(temporary.exists(old)).toBe(false)
    expect(await files.open(old, 9)).toBeUndefined()
    const replacement = await putText(files, 'new bytes')
    expect(await text(reader?.read() ?? Readable.from([]))).toBe('old bytes')
    expect(await text((await files.open(replacement, 9))?.read() ?? Readable.from([]))).toBe(
      'new bytes',
    )
  })

  it('takes removing a missing item as done, and leaves no temporary file after writes', async () => {
    const { files } = temporary
    await files.remove('f'.repeat(32))
    await putText(files, 'bytes')
    expect(await readdir(path.join(temporary.directory, 'tmp'))).toEqual([])
  })
})
