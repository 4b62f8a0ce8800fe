import { describe, expect, it } from 'vitest'
import {
  type CopyStore,
  copyToRestore,
  forgetSavedCopy,
  LOCAL_COPY_KINDS,
  localCopyKey,
  readLocalCopy,
  writeLocalCopy,
} from './local-copy.ts'

/** An in-memory stand-in for localStorage. */
function memoryStore(): CopyStore & { values: Map<string, string> } {
  const values = new Map<string, string>()
  return {
    values,
    getItem: (key) => values.get(key) ?? null,
    setItem: (key, value) => {
      values.set(key, value)
    },
    removeItem: (key) => {
      values.delete(key)
    },
  }
}

describe('local copies of editors', () => {
  it('keeps every kind of editor apart, and new items apart from saved ones', () => {
    const keys = LOCAL_COPY_KINDS.flatMap((kind) => [
      localCopyKey(kind, 'abc'),
      localCopyKey(kind, undefined),
      localCopyKey(kind, undefined, 'study1'),
    ])
    expect(new Set(keys).size).toBe(LOCAL_COPY_KINDS.length * 3)
    expect(LOCAL_COPY_KINDS).toEqual(['course', 'lesson', 'study', 'lab', 'lab_story', 'question'])
  })

  it.each(LOCAL_COPY_KINDS)('restores unsaved text of a %s after a reload', (kind) => {
    const store = memoryStore()
    const key = localCopyKey(kind, 'item1')
    const server = { title: '変数', body: '保存済みの本文' }
    writeLocalCopy(store, key, { title: '変数', body: '保存前に閉じた本文' }, 1_000)
    const copy = copyToRestore(readLocalCopy<Partial<typeof server>>(store, key), server)
    expect(copy).toEqual({ value: { title: '変数', body: '保存前に閉じた本文' }, at: 1_000 })
  })

  it('restores nothing when the server already has the same text', () => {
    const store = memoryStore()
    const key = localCopyKey('study', 's1')
    writeLocalCopy(store, key, { title: 'A', summary: 'B' }, 5)
    expect(
      copyToRestore(readLocalCopy<{ title: string }>(store, key), { title: 'A', summary: 'B' }),
    ).toBeUndefined()
  })

  it('fills fields a copy lacks from the server (a form that gained a field)', () => {
    const store = memoryStore()
    const key = localCopyKey('lab', 'l1')
    writeLocalCopy(store, key, { description: '新しい説明' }, 7)
    const copy = copyToRestore(readLocalCopy<{ description: string }>(store, key), {
      title: 'ラボ',
      description: '古い',
    })
    expect(copy?.value).toEqual({ title: 'ラボ', description: '新しい説明' })
  })

  it('drops the copy once a save carried exactly that text, not before', () => {
    const store = memoryStore()
    const key = localCopyKey('course', 'c1')
    writeLocalCopy(store, key, { title: '二文字目まで' }, 1)
    forgetSavedCopy(store, key, { title: '二文' })
    expect(readLocalCopy(store, key)).toBeDefined()
    forgetSavedCopy(store, key, { title: '二文字目まで' })
    expect(store.values.size).toBe(0)
  })

  it('drops a damaged copy instead of restoring it', () => {
    const store = memoryStore()
    const key = localCopyKey('lesson', 'x')
    store.setItem(key, '{not json')
    expect(readLocalCopy(store, key)).toBeUndefined()
    expect(store.values.size).toBe(0)
  })

  it('never fails an edit when storage refuses to write (full or blocked)', () => {
    const store: CopyStore = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('full', 'QuotaExceededError')
      },
      removeItem: () => {},
    }
    expect(() =>
      writeLocalCopy(store, localCopyKey('question', 'q'), { prompt: 'x' }, 1),
    ).not.toThrow()
  })

  it('does not put a copy back over text another tab or device saved since', () => {
    const store = memoryStore()
    const key = localCopyKey('lesson', 'l1')
    writeLocalCopy(store, key, { body: 'このタブの本文' }, 3, 4)
    expect(
      copyToRestore(readLocalCopy<{ body: string }>(store, key), { body: '別のタブの本文' }, 5),
    ).toBeUndefined()
    expect(
      copyToRestore(readLocalCopy<{ body: string }>(store, key), { body: '保存前の本文' }, 4)
        ?.value,
    ).toEqual({
      body: 'このタブの本文',
    })
  })
})
