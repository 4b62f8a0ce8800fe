import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import {
  insertTestUsers,
  refused,
  snapshotTables,
  testActors,
} from '#features/content-test-support.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { createLab, deleteLab, publishLab, unpublishLab, updateLab } from './lab-editing.server.ts'
import { listPublishedLabStories, listPublishedLabs } from './lab-lists.server.ts'
import {
  createLabStory,
  deleteLabStory,
  publishLabStory,
  unpublishLabStory,
  updateLabStory,
} from './lab-story-editing.server.ts'
import {
  labChoicesFor,
  readLabForEditor,
  readLabForViewer,
  readLabStoryForViewer,
} from './lab-view.server.ts'

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const { author, other, admin, forged } = testActors

function snapshot(db: Kysely<DB>) {
  return snapshotTables(db, [
    'labs',
    'lab_screenshots',
    'lab_stories',
    'tags',
    'lab_tags',
    'lab_story_tags',
    'history_events',
  ])
}

describe.each(testEngines)('labs and lab stories on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let images: UploadedObjects

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other', 'admin'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    images = new UploadedObjects()
    await db.deleteFrom('history_events').execute()
    await db.deleteFrom('lab_stories').execute()
    await db.deleteFrom('labs').execute()
    await db.deleteFrom('tags').execute()
  })

  function draftLab(owner = author, screenshotKeys: string[] = []) {
    return createLab(
      db,
      images,
      owner,
      {
        title: '家計簿アプリ',
        description: '# 家計簿\n\nReact で作りました',
        tags: ['Ｒｅａｃｔ', 'TypeScript'],
        repositoryUrl: 'https://github.com/author/kakeibo',
        demoUrl: '',
        screenshotKeys,
      },
      NOW,
    )
  }

  function draftStory(owner = author, fields: Record<string, unknown> = {}) {
    return createLabStory(
      db,
      images,
      owner,
      { title: '状態管理で迷った話', body: '## useReducer\n\n本文', tags: ['react'], ...fields },
      NOW,
    )
  }

  it('refuses images in a lab description or story body that are not the author’s images', async () => {
    const theirs = images.upload('public/id-other/labs/x.png', other.userId)
    const html = Buffer.from('<html><script>1</script></html>')
    const page = images.upload(
      'public/id-author/stories/p.png',
      author.userId,
      'image/png',
      64,
      html,
    )
    const mine = images.upload('public/id-author/labs/m.png', author.userId)
    const { id } = await draftLab()
    const labError = await refused(
      updateLab(
        db,
        images,
        author,
        id,
        { title: 'x', description: `![図](/s3/site/${theirs})`, screenshotKeys: [], revision: 1 },
        NOW + 1,
      ),
      'VALIDATION_FAILED',
    )
    expect(labError.fields).toEqual({
      description: ['アップロードした画像が見つかりません。もう一度アップロードしてください。'],
    })
    const storyError = await refused(
      draftStory(author, { body: `<img src="/s3/site/${page}">` }),
      'VALIDATION_FAILED',
    )
    expect(storyError.fields).toEqual({
      body: ['本文の画像には PNG・JPEG・WebP・GIF を選んでください。'],
    })
    const story = await draftStory(author, { body: `![図](/s3/site/${mine})` })
    expect(story.revision).toBe(1)
  })

  describe('labs', () => {
    it('creates a draft with its links, screenshots and normalised tags', async () => {
      const shot = images.upload('public/id-author/labs/one.png', author.userId)
      const { id, revision } = await draftLab(author, [shot])
      expect(revision).toBe(1)
      expect(await readLabForViewer(db, { username: 'author', labId: id }, author)).toMatchObject({
        title: '家計簿アプリ',
        description: '# 家計簿\n\nReact で作りました',
        tags: ['react', 'typescript'],
        repositoryUrl: 'https://github.com/author/kakeibo',
        demoUrl: null,
        screenshotKeys: [shot],
        status: 'draft',
        canEdit: true,
      })
    })

    it("refuses screenshots that are missing, someone else's, not images or too large", async () => {
      const theirs = images.upload('public/id-other/labs/x.png', other.userId)
      const text = images.upload('public/id-author/labs/x.txt', author.userId, 'text/plain')
      const huge = images.upload('public/id-author/labs/big.png', author.userId, 'image/png', 21e6)
      const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>1</script></svg>')
      const disguised = images.upload(
        'public/id-author/labs/s.png',
        author.userId,
        'image/png',
        64,
        svg,
      )
      const error = await refused(
        draftLab(author, ['public/id-author/labs/none.png', theirs, text, huge, disguised]),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toEqual({
        'screenshotKeys.0': [
          'アップロードした画像が見つかりません。もう一度アップロードしてください。',
        ],
        'screenshotKeys.1': [
          'アップロードした画像が見つかりません。もう一度アップロードしてください。',
        ],
        'screenshotKeys.2': ['画像には PNG・JPEG・WebP・GIF を選んでください。'],
        'screenshotKeys.3': ['画像が大きすぎます。20 MB 以下にしてください。'],
        'screenshotKeys.4': ['画像には PNG・JPEG・WebP・GIF を選んでください。'],
      })
      expect(await snapshot(db)).toMatchObject({ labs: [], lab_screenshots: [] })
    })

    it('refuses bad input with Japanese field messages and saves nothing', async () => {
      const error = await refused(
        createLab(db, images, author, {
          title: ' ',
          repositoryUrl: 'javascript:alert(1)',
          demoUrl: 'ftp://example.com',
          screenshotKeys: ['../etc/passwd x'],
        }),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toMatchObject({
        title: ['タイトルを入力してください'],
        repositoryUrl: ['リポジトリの URL は https:// から始まる URL で入力してください'],
        demoUrl: ['デモの URL は https:// から始まる URL で入力してください'],
        'screenshotKeys.0': ['画像の指定が正しくありません'],
      })
      expect(await db.selectFrom('labs').select('id').execute()).toEqual([])
    })

    it('saves on the current revision, keeps saved screenshots, refuses a stale save', async () => {
      const first = images.upload('public/id-author/labs/1.png', author.userId)
      const { id } = await draftLab(author, [first])
      // Saved screenshots are not asked about again (they were checked when added).
      images.objects.clear()
      const second = images.upload('public/id-author/labs/2.png', author.userId)
      const saved = await updateLab(
        db,
        images,
        author,
        id,
        { title: '家計簿 2', screenshotKeys: [second, first], revision: 1 },
        NOW + 1,
      )
      expect(saved.revision).toBe(2)
      const before = await snapshot(db)
      const stale = await refused(
        updateLab(db, images, author, id, { title: '古いタブ', revision: 1 }),
        'STALE_REVISION',
      )
      expect(stale.message).toContain('ほかのタブ')
      expect(await snapshot(db)).toEqual(before)
      expect(await readLabForEditor(db, author, id)).toMatchObject({
        title: '家計簿 2',
        description: '',
        tags: [],
        repositoryUrl: null,
        screenshotKeys: [second, first],
        revision: 2,
      })
    })

    it('hides drafts from guests and others, lists published labs per author', async () => {
      const { id } = await draftLab()
      for (const viewer of [undefined, other, forged]) {
        await refused(readLabForViewer(db, { username: 'author', labId: id }, viewer), 'NOT_FOUND')
      }
      expect((await listPublishedLabs(db, { limit: 10 })).items).toEqual([])
      await publishLab(db, author, id, { revision: 1 }, NOW + 5)
      const shot = images.upload('public/id-other/labs/o.png', other.userId)
      const theirs = await draftLab(other, [shot])
      await publishLab(db, other, theirs.id, { revision: 1 }, NOW + 6)
      const all = await listPublishedLabs(db, { limit: 10 })
      expect(all.items.map((card) => [card.id, card.imageKey, card.excerpt])).toEqual([
        [theirs.id, shot, '家計簿 React で作りました'],
        [id, null, '家計簿 React で作りました'],
      ])
      const mine = await listPublishedLabs(db, { limit: 10 }, 'AUTHOR')
      expect(mine.items.map((card) => card.id)).toEqual([id])
      expect(
        await db.selectFrom('history_events').select(['user_id', 'subject_kind']).execute(),
      ).toEqual(expect.arrayContaining([{ user_id: author.userId, subject_kind: 'lab' }]))
    })
  })

  describe('lab stories', () => {
    it('links a story to its author’s own lab only, with a cover they uploaded', async () => {
      const lab = await draftLab()
      const theirLab = await draftLab(other)
      const cover = images.upload('public/id-author/stories/c.png', author.userId)
      const { id } = await draftStory(author, { labId: lab.id, coverKey: cover })
      expect(
        await readLabStoryForViewer(db, { username: 'author', storyId: id }, author),
      ).toMatchObject({
        title: '状態管理で迷った話',
        body: '## useReducer\n\n本文',
        tags: ['react'],
        coverKey: cover,
        lab: { id: lab.id, title: '家計簿アプリ' },
        status: 'draft',
      })
      const before = await snapshot(db)
      const error = await refused(
        updateLabStory(db, images, author, id, { title: 'x', labId: theirLab.id, revision: 1 }),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toEqual({
        labId: ['ラボが見つかりません。自分のラボから選んでください。'],
      })
      const theirCover = images.upload('public/id-other/stories/c.png', other.userId)
      await refused(
        updateLabStory(db, images, author, id, { title: 'x', coverKey: theirCover, revision: 1 }),
        'VALIDATION_FAILED',
      )
      expect(await snapshot(db)).toEqual(before)
      expect((await labChoicesFor(db, author)).map((choice) => choice.id)).toEqual([lab.id])
      expect((await labChoicesFor(db, admin, id)).map((choice) => choice.id)).toEqual([lab.id])
      await refused(labChoicesFor(db, other, id), 'NOT_FOUND')
      await refused(labChoicesFor(db, undefined), 'SIGN_IN_REQUIRED')
    })

    it('shows a published story to guests with its lab only once the lab is published', async () => {
      const lab = await draftLab()
      const { id } = await draftStory(author, { labId: lab.id })
      const address = { username: 'author', storyId: id }
      await refused(readLabStoryForViewer(db, address, undefined), 'NOT_FOUND')
      await publishLabStory(db, author, id, { revision: 1 }, NOW + 1)
      expect((await readLabStoryForViewer(db, address, undefined)).lab).toBeNull()
      await publishLab(db, author, lab.id, { revision: 1 }, NOW + 2)
      expect((await readLabStoryForViewer(db, address, undefined)).lab).toEqual({
        id: lab.id,
        title: '家計簿アプリ',
      })
      const ofLab = await listPublishedLabStories(db, { limit: 5 }, { labId: lab.id })
      expect(ofLab.items.map((card) => [card.id, card.excerpt])).toEqual([[id, 'useReducer 本文']])
      await unpublishLabStory(db, images, author, id, { revision: 2 })
      expect((await listPublishedLabStories(db, { limit: 5 }, { labId: lab.id })).items).toEqual([])
      // Deleting the lab keeps the story, unlinked.
      await deleteLab(db, author, lab.id)
      expect((await readLabStoryForViewer(db, address, author)).lab).toBeNull()
    })
  })

  describe('ownership of every write', () => {
    type Write = (actor: Actor | undefined, id: string) => Promise<unknown>
    const kinds: [string, () => Promise<{ id: string }>, [string, Write][]][] = [
      [
        'lab',
        () => draftLab(),
        [
          [
            'update',
            (actor, id) => updateLab(db, images, actor, id, { title: '乗っ取り', revision: 1 }),
          ],
          ['publish', (actor, id) => publishLab(db, actor, id, { revision: 1 })],
          ['unpublish', (actor, id) => unpublishLab(db, images, actor, id, { revision: 1 })],
          ['delete', (actor, id) => deleteLab(db, actor, id)],
        ],
      ],
      [
        'lab story',
        () => draftStory(),
        [
          [
            'update',
            (actor, id) =>
              updateLabStory(db, images, actor, id, { title: '乗っ取り', revision: 1 }),
          ],
          ['publish', (actor, id) => publishLabStory(db, actor, id, { revision: 1 })],
          ['unpublish', (actor, id) => unpublishLabStory(db, images, actor, id, { revision: 1 })],
          ['delete', (actor, id) => deleteLabStory(db, actor, id)],
        ],
      ],
    ]

    for (const [kind, create, writes] of kinds) {
      for (const [name, write] of writes) {
        it(`${kind} ${name}: refuses a guest, someone else, a forged user and a forged id`, async () => {
          const { id } = await create()
          const before = await snapshot(db)
          await refused(write(undefined, id), 'SIGN_IN_REQUIRED')
          await refused(write(other, id), 'NOT_FOUND')
          await refused(write(forged, id), 'NOT_FOUND')
          await refused(write(author, 'nolab00000000000'), 'NOT_FOUND')
          expect(await snapshot(db)).toEqual(before)
        })

        it(`${kind} ${name}: someone else's published one is forbidden; the admin may`, async () => {
          const { id } = await create()
          const table = kind === 'lab' ? 'labs' : 'lab_stories'
          await db
            .updateTable(table)
            .set({ status: 'published', published_at: NOW })
            .where('id', '=', id)
            .execute()
          const before = await snapshot(db)
          await refused(write(other, id), 'FORBIDDEN')
          expect(await snapshot(db)).toEqual(before)
          await write(admin, id)
          expect(await snapshot(db)).not.toEqual(before)
        })
      }
    }

    it('creating refuses a guest', async () => {
      await refused(createLab(db, images, undefined, { title: 'x' }), 'SIGN_IN_REQUIRED')
      await refused(createLabStory(db, images, undefined, { title: 'x' }), 'SIGN_IN_REQUIRED')
      expect(await snapshot(db)).toMatchObject({ labs: [], lab_stories: [] })
    })
  })
})
