import { beforeAll, describe, expect, it } from 'vitest'
import type { ListEntry, ListQuery } from '#server/storage/backends/object-store.ts'
import { bodyOf, type Contract, md5, owned } from './support.ts'

export function describeListing(contract: Contract): void {
  describe('listing', () => {
    const { newBucket } = contract
    let bucket: string
    const keys = [
      'photos/2026/january/a.jpg',
      'photos/2026/february/b.jpg',
      'photos/2025/c.jpg',
      'photos/index.html',
      'notes/日本語のメモ.md',
      'notes/ひらがな/深い.txt',
      'notes/with space.txt',
      'notes/100%.txt',
      'notes/%2F encoded',
      // Byte order puts U+FF21 before U+1F600; UTF-16 code unit order would not.
      'order/\uFF21',
      'order/\u{1F600}',
      'order/z',
      'order/Z',
      'top',
      `long/${'あ'.repeat(339)}/${'k'.repeat(1)}`,
      `long/${'x'.repeat(1019)}`,
    ]
    const byteOrder = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b))
    const sorted = [...keys].sort(byteOrder)
    const names = (entries: ListEntry[]) =>
      entries.map((e) => ('commonPrefix' in e ? `prefix:${e.commonPrefix}` : e.object.key))
    async function listAll(query: Omit<ListQuery, 'startAfter'>): Promise<string[]> {
      const all: string[] = []
      let startAfter: string | undefined
      for (let pages = 0; pages < 100; pages++) {
        const page = await contract.store.listObjects(bucket, { ...query, startAfter })
        all.push(...names(page.entries))
        expect(page.entries.length).toBeLessThanOrEqual(query.maxKeys)
        if (!page.isTruncated) return all
        startAfter = page.nextStartAfter
        expect(startAfter).toBeDefined()
      }
      throw new Error('listing did not end')
    }

    beforeAll(async () => {
      bucket = await newBucket()
      for (const key of keys) await contract.store.putObject(bucket, key, bodyOf(key), owned)
    })

    it('has 1024-byte keys in the set', () => {
      expect(keys.filter((key) => Buffer.byteLength(key) === 1024)).toHaveLength(2)
    })

    it('lists every key in UTF-8 byte order with its information', async () => {
      const page = await contract.store.listObjects(bucket, { maxKeys: 1000 })
      expect(names(page.entries)).toEqual(sorted)
      expect(page.isTruncated).toBe(false)
      const first = page.entries[0]
      expect(first && 'object' in first && first.object).toMatchObject({
        key: sorted[0],
        size: Buffer.byteLength(sorted[0] ?? ''),
        etag: `"${md5(sorted[0] ?? '')}"`,
        owner: owned.owner,
      })
    })

    it('pages with maxKeys and startAfter, in every page size', async () => {
      for (const maxKeys of [1, 2, 3, 7]) {
        expect(await listAll({ maxKeys })).toEqual(sorted)
      }
    })

    it('starts after any string, present as a key or not', async () => {
      const page = await contract.store.listObjects(bucket, {
        maxKeys: 1000,
        startAfter: 'order/\uFF21',
      })
      expect(names(page.entries)).toEqual(
        sorted.filter((key) => byteOrder(key, 'order/\uFF21') > 0),
      )
      const between = await contract.store.listObjects(bucket, { maxKeys: 2, startAfter: 'p' })
      expect(names(between.entries)).toEqual(
        sorted.filter((key) => byteOrder(key, 'p') > 0).slice(0, 2),
      )
      expect(between.isTruncated).toBe(true)
    })

    it('filters by prefix, including multibyte and % prefixes', async () => {
      for (const prefix of [
        'notes/',
        'notes/ひ',
        'notes/1',
        'notes/%',
        'photos/2026/',
        'nothing/',
      ]) {
        const page = await contract.store.listObjects(bucket, { prefix, maxKeys: 1000 })
        expect(names(page.entries)).toEqual(sorted.filter((key) => key.startsWith(prefix)))
      }
    })

    it('rolls keys up to common prefixes with a delimiter, one entry each', async () => {
      const root = await contract.store.listObjects(bucket, { delimiter: '/', maxKeys: 1000 })
      expect(names(root.entries)).toEqual([
        'prefix:long/',
        'prefix:notes/',
        'prefix:order/',
        'prefix:photos/',
        'top',
      ])
      const photos = await contract.store.listObjects(bucket, {
        prefix: 'photos/',
        delimiter: '/',
        maxKeys: 1000,
      })
      expect(names(photos.entries)).toEqual([
        'prefix:photos/2025/',
        'prefix:photos/2026/',
        'photos/index.html',
      ])
      const notes = await contract.store.listObjects(bucket, {
        prefix: 'notes/',
        delimiter: '/',
        maxKeys: 1000,
      })
      expect(names(notes.entries)).toEqual([
        'notes/%2F encoded',
        'notes/100%.txt',
        'notes/with space.txt',
        'prefix:notes/ひらがな/',
        'notes/日本語のメモ.md',
      ])
      const spaces = await contract.store.listObjects(bucket, { delimiter: ' ', maxKeys: 1000 })
      expect(names(spaces.entries)).toContain('prefix:notes/%2F ')
      expect(names(spaces.entries)).toContain('prefix:notes/with ')
    })

    it('pages through common prefixes, which count toward maxKeys', async () => {
      const first = await contract.store.listObjects(bucket, { delimiter: '/', maxKeys: 2 })
      expect(names(first.entries)).toEqual(['prefix:long/', 'prefix:notes/'])
      expect(first).toMatchObject({ isTruncated: true, nextStartAfter: 'notes/' })
      for (const maxKeys of [1, 2, 3]) {
        expect(await listAll({ delimiter: '/', maxKeys })).toEqual([
          'prefix:long/',
          'prefix:notes/',
          'prefix:order/',
          'prefix:photos/',
          'top',
        ])
        expect(await listAll({ prefix: 'photos/', delimiter: '/', maxKeys })).toEqual([
          'prefix:photos/2025/',
          'prefix:photos/2026/',
          'photos/index.html',
        ])
      }
    })

    it('is not truncated when the last page is exactly full', async () => {
      const page = await contract.store.listObjects(bucket, { prefix: 'order/', maxKeys: 4 })
      expect(page.entries).toHaveLength(4)
      expect(page.isTruncated).toBe(false)
    })

    it('lists an empty bucket', async () => {
      const empty = await newBucket()
      expect(await contract.store.listObjects(empty, { maxKeys: 1000 })).toEqual({
        entries: [],
        isTruncated: false,
      })
    })
  })
}
