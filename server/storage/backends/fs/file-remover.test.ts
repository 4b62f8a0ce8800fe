import { existsSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileRemover } from './file-remover.ts'

describe('the file remover', () => {
  let directory: string
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'file-remover-'))
  })
  afterEach(() => rm(directory, { recursive: true, force: true }))

  const files = async (count: number) => {
    const paths = Array.from({ length: count }, (_, index) => path.join(directory, `f${index}`))
    for (const file of paths) await writeFile(file, 'old bytes')
    return paths
  }

  it('removes every file asked for, and takes a file already gone as removed', async () => {
    const remover = createFileRemover()
    const paths = await files(50)
    await Promise.all([...paths, path.join(directory, 'never-there')].map(remover.remove))
    expect(await readdir(directory)).toEqual([])
    // Later turns start new batches on the same thread.
    const [again] = await files(1)
    await remover.remove(again as string)
    expect(existsSync(again as string)).toBe(false)
    await remover.close()
  })

  it('fails only the removals that failed, with the reason', async () => {
    const remover = createFileRemover()
    const [file] = await files(1)
    const folder = path.join(directory, 'a-directory')
    await mkdir(folder)
    const results = await Promise.allSettled([
      remover.remove(folder),
      remover.remove(file as string),
    ])
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: /EISDIR|EPERM/ } })
    expect(results[1]).toEqual({ status: 'fulfilled', value: undefined })
    expect(existsSync(folder)).toBe(true)
    await remover.close()
  })

  it('finishes the removals under way before it closes', async () => {
    const remover = createFileRemover()
    const paths = await files(200)
    const removals = paths.map(remover.remove)
    await remover.close()
    expect(await readdir(directory)).toEqual([])
    await Promise.all(removals)
  })
})
