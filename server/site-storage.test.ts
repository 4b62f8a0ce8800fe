import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { demoLabs } from '#db/seed/demo-labs.ts'
import { seedDemoContent } from '#db/seed/seed.ts'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { sniffImageType } from '#features/images/image-rules.ts'
import { refusalOfUploadedImage } from '#features/images/uploaded-image.server.ts'
import { loadConfig } from './config.ts'
import { userPoolSubOf } from './identity/identity-pool/identities.ts'
import { ownImageStore, siteStorage } from './site-storage.ts'
import type { ObjectStore } from './storage/backends/object-store.ts'
import { openObjectStore } from './storage/index.ts'

/**
 * The demo's drawn covers, stored through the real embedded object store: each is its author's
 * own upload, as the editors' checks see uploads, and a database that has users gets none.
 */
const NOW = Date.UTC(2026, 10, 25, 9, 0, 0)

let database: TemporaryDatabase
let store: ObjectStore
let config: ReturnType<typeof loadConfig>

beforeEach(async () => {
  database = await openTemporaryDatabase()
  config = loadConfig({ DATA_DIR: path.join(database.dir, 'data'), LOG_LEVEL: 'silent' })
  store = await openObjectStore(config.storage, database.db)
})
afterEach(async () => {
  await store.close()
  await database.remove()
})

const images = () => ownImageStore(store, config.storage, database.db, config.identity)

async function storedKeys(): Promise<string[]> {
  const page = await store.listObjects(config.storage.bucket, { maxKeys: 1000 })
  return page.entries.flatMap((entry) => ('object' in entry ? [entry.object.key] : []))
}

describe('the demo covers in object storage', () => {
  it('gives every demo course a cover and every lab a screenshot, each its author’s own image', async () => {
    expect(await seedDemoContent(database.db, NOW, images())).toBe(true)
    const { db } = database
    const courses = await db.selectFrom('courses').select(['owner_id', 'cover_key']).execute()
    const screenshots = await db
      .selectFrom('lab_screenshots')
      .innerJoin('labs', 'labs.id', 'lab_screenshots.lab_id')
      .select(['labs.owner_id', 'lab_screenshots.object_key as cover_key', 'position'])
      .execute()
    expect(courses).toHaveLength(demoCourses.length)
    expect(screenshots).toHaveLength(demoLabs.length)
    expect(screenshots.every((row) => row.position === 0)).toBe(true)
    const keys = [...courses, ...screenshots].map((row) => row.cover_key)
    expect(new Set(keys).size).toBe(demoCourses.length + demoLabs.length)
    expect((await storedKeys()).sort()).toEqual([...keys].sort())

    // What the course editor asks of a cover a user names: theirs, in their folder, a PNG.
    // No Markdown body is checked here: covers are named by key.
    const notAsked = { imageSources: () => Promise.reject(new Error('not asked here')) }
    const site = siteStorage(
      store,
      config.storage,
      { userPoolSubOf: (identityId) => userPoolSubOf(db, config.identity, identityId) },
      notAsked,
    )
    for (const row of [...courses, ...screenshots]) {
      const key = row.cover_key ?? ''
      expect(key).toMatch(
        /^public\/ap-northeast-1:[0-9a-f-]{36}\/(covers|labs)\/[0-9a-f-]{36}\.png$/,
      )
      expect(await refusalOfUploadedImage(site.images, row.owner_id, key, 'カバー画像')).toBe(
        undefined,
      )
      expect(sniffImageType(await site.images.readStart(key, 12))).toBe('image/png')
    }
    // Someone else may not show it as theirs.
    const [first, second] = courses.filter((row, index, all) =>
      all.every((other, j) => j >= index || other.owner_id !== row.owner_id),
    )
    expect(
      await refusalOfUploadedImage(
        site.images,
        second?.owner_id ?? '',
        first?.cover_key ?? '',
        'カバー画像',
      ),
    ).toBe('アップロードした画像が見つかりません。もう一度アップロードしてください。')
  })

  it('stores nothing for a database that already has users', async () => {
    await database.db
      .insertInto('users')
      .values({ id: 'u', username: 'someone', display_name: 'x', created_at: 1, updated_at: 1 })
      .execute()
    expect(await seedDemoContent(database.db, NOW, images())).toBe(false)
    expect(await storedKeys()).toEqual([])
  })
})
