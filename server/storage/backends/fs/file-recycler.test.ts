import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFileRecycler } from './file-recycler.ts'

describe('the file recycler', () => {
  let directory: string
  let spareCount = 0
  const spareName = () => path.join(directory, `spare-${spareCount++}`)
  beforeEach(async () => {
    directory = await mkdtemp(path.join(tmpdir(), 'file-recycler-'))
  })
  afterEach(() => rm(directory, { recursive: true, force: true }))

  const files = async (count: number) => {
    const paths = Array.from({ length: count }, (_, index) => path.join(directory, `f${index}`))
    for (const file of paths) await writeFile(file, 'old bytes')
    return paths
  }

  it('retires every file asked for, and takes a file already gone as retired', async () => {
    const recycler = createFileRecycler({ maxSpares: 0, spareName })
    const paths = await files(50)
    await Promise.all([...paths, path.join(directory, 'never-there')].map(recycler.retire))
    expect(await readdir(directory)).toEqual([])
    expect(recycler.takeSpare()).toBeUndefined()
    // Later turns start new batches on the same thread.
    const [again] = await files(1)
    await recycler.retire(again as string)
    expect(existsSync(again as string)).toBe(false)
    await recycler.close()
  })

  it('keeps up to maxSpares retired files, emptied, under spare names, and unlinks the rest', async () => {
    const recycler = createFileRecycler({ maxSpares: 3, spareName })
    const paths = await files(5)
    await Promise.all(paths.map(recycler.retire))
    for (const file of paths) expect(existsSync(file)).toBe(false)
    expect((await readdir(directory)).sort()).toEqual(['spare-0', 'spare-1', 'spare-2'])
    const spare = recycler.takeSpare()
    if (!spare) throw new Error('no spare')
    expect(readFileSync(spare, 'utf8')).toBe('')
    // Taken spares are the caller's; the others go when the recycler closes.
    await recycler.close()
    expect(await readdir(directory)).toEqual([path.basename(spare)])
  })

  it('fails only the retirements that failed, with the reason', async () => {
    const recycler = createFileRecycler({ maxSpares: 0, spareName })
    const [file] = await files(1)
    const folder = path.join(directory, 'a-directory')
    await mkdir(folder)
    const results = await Promise.allSettled([
      recycler.retire(folder),
      recycler.retire(file as string),
    ])
    expect(results[0]).toMatchObject({ status: 'rejected', reason: { message: /EISDIR|EPERM/ } })
    expect(results[1]).toEqual({ status: 'fulfilled', value: undefined })
    expect(existsSync(folder)).toBe(true)
    await recycler.close()
  })

  it('finishes the retirements under way before it closes', async () => {
    const recycler = createFileRecycler({ maxSpares: 8, spareName })
    const paths = await files(200)
    const retirements = paths.map(recycler.retire)
    await recycler.close()
    expect(await readdir(directory)).toEqual([])
    await Promise.all(retirements)
  })
})
