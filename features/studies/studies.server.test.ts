import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { MARKDOWN_MAX_LENGTH } from '#features/markdown/body.ts'
import { cursorParameter } from '#features/pagination.ts'
import {
  createStudy,
  deleteStudy,
  publishStudy,
  unpublishStudy,
  updateStudy,
} from './study-editing.server.ts'
import { listPublishedStudies } from './study-lists.server.ts'
import { readStudyForViewer } from './study-view.server.ts'

/** No uploaded objects: bodies here show no images of the site's storage. */
const noImages = new UploadedObjects()

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const author: Actor = { userId: 'user-author', isAdmin: false }
const other: Actor = { userId: 'user-other', isAdmin: false }
const admin: Actor = { userId: 'user-admin', isAdmin: true }
/** A signed-in actor whose id names no user at all. */
const forged: Actor = { userId: 'user-forged', isAdmin: false }

function snapshot(db: Kysely<DB>) {
  return snapshotTables(db, ['studies', 'tags', 'study_tags', 'history_events'])
}

describe.each(testEngines)('studies on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other', 'admin'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('history_events').execute()
    await db.deleteFrom('studies').execute()
    await db.deleteFrom('tags').execute()
  })

  const address = (studyId: string) => ({ username: 'author', studyId })

  async function draftStudy(owner = author) {
    return createStudy(
      db,
      noImages,
      owner,
      {
        title: 'SQL の結合',
        summary: 'JOIN のまとめ',
        notes: '# JOIN\n\n内部結合',
        tags: ['ＳＱＬ'],
      },
      NOW,
    )
  }

  describe('images in notes', () => {
    const images = new UploadedObjects()
    const url = (key: string) => `/s3/site/${key}`
    const html = Buffer.from('<html><script>alert(document.cookie)</script></html>')
    const mine = images.upload('public/id-author/studies/mine.png', author.userId)
    const theirs = images.upload('public/id-other/studies/theirs.png', other.userId)
    const disguised = images.upload(
      'public/id-author/studies/page.png',
      author.userId,
      'image/png',
      64,
      html,
    )
    const NOT_FOUND = 'アップロードした画像が見つかりません。もう一度アップロードしてください。'
    const NOT_IMAGE = '本文の画像には PNG・JPEG・WebP・GIF を選んでください。'

    async function notesRefusal(notes: string, owner = author) {
      const error = await refused(
        createStudy(db, images, owner, { title: '画像', notes }, NOW),
        'VALIDATION_FAILED',
      )
      return error.fields
    }

    it('accepts an image the author uploaded, and external https images', async () => {
      const notes = `![図](${url(mine)})\n\n![外部](https://example.com/a.png)`
      const { id } = await createStudy(db, images, author, { title: '画像', notes }, NOW)
      expect(await readStudyForViewer(db, address(id), author)).toMatchObject({ notes })
    })

    it("refuses HTML labelled as a PNG and someone else's image, however the address is written", async () => {
      const before = await snapshot(db)
      expect(await notesRefusal(`![x](${url(disguised)})`)).toEqual({ notes: [NOT_IMAGE] })
      expect(await notesRefusal(`![x](${url(theirs)})`)).toEqual({ notes: [NOT_FOUND] })
      expect(await notesRefusal(`<img src="&#x2F;s3/site/${theirs}">`)).toEqual({
        notes: [NOT_FOUND],
      })
      expect(await notesRefusal(`![x][r]\n\n[r]: /s3/site/x/../${disguised}`)).toEqual({
        notes: [NOT_IMAGE],
      })
      expect(await notesRefusal(`![x](/s3/site/${theirs.replace('p', '%70')})`)).toEqual({
        notes: [NOT_FOUND],
      })
      expect(await snapshot(db)).toEqual(before)
    })

    it('checks only images new to the saved notes, and at most 20 per save', async () => {
      const { id } = await createStudy(db, images, author, { title: '画像' }, NOW)
      // An image saved before (e.g. one the author uploaded, then deleted) is not read again.
      await db
        .updateTable('studies')
        .set({ body: `![古い](${url(theirs)})` })
        .where('id', '=', id)
        .execute()
      const saved = await updateStudy(
        db,
        images,
        author,
        id,
        { title: '画像', notes: `![古い](${url(theirs)})\n\n![新](${url(mine)})`, revision: 1 },
        NOW + 1,
      )
      expect(saved.revision).toBe(2)
      const many = Array.from({ length: 21 }, (_, index) => {
        return `![${index}](${url(images.upload(`public/id-author/studies/${index}.png`, author.userId))})`
      }).join('\n\n')
      const error = await refused(
        updateStudy(db, images, author, id, { title: '画像', notes: many, revision: 2 }, NOW + 2),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toEqual({
        notes: ['新しい画像は1回の保存につき20枚までにしてください。'],
      })
    })
  })

  describe('create and update', () => {
    it('creates a draft with notes and normalised tags, visible to its owner', async () => {
      const { id, revision } = await draftStudy()
      expect(revision).toBe(1)
      expect(await readStudyForViewer(db, address(id), author)).toMatchObject({
        title: 'SQL の結合',
        summary: 'JOIN のまとめ',
        notes: '# JOIN\n\n内部結合',
        tags: ['sql'],
        status: 'draft',
        publishedAt: null,
        canEdit: true,
        author: { username: 'author', displayName: 'author さん' },
      })
    })

    it('refuses bad input with Japanese field messages and saves nothing', async () => {
      const error = await refused(
        createStudy(db, noImages, author, {
          title: 'あ'.repeat(101),
          // @ts-expect-error the boundary refuses what the types forbid
          summary: 42,
          notes: 'x'.repeat(MARKDOWN_MAX_LENGTH + 1),
          tags: ['<b>'],
        }),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toMatchObject({
        title: ['タイトルは 100 文字以内で入力してください'],
        summary: ['概要は文字列で入力してください'],
        'tags.0': ['タグ「<b>」には文字・数字と + # . - _ だけが使えます。'],
      })
      expect(error.fields?.notes?.length).toBe(1)
      expect(await db.selectFrom('studies').select('id').execute()).toEqual([])
      expect(await db.selectFrom('tags').select('id').execute()).toEqual([])
    })

    it('saves an update based on the current revision and refuses a stale one', async () => {
      const { id } = await draftStudy()
      const saved = await updateStudy(
        db,
        noImages,
        author,
        id,
        { title: '結合', notes: '更新', tags: ['postgresql'], revision: 1 },
        NOW + 1,
      )
      expect(saved.revision).toBe(2)
      const before = await snapshot(db)
      const error = await refused(
        updateStudy(db, noImages, author, id, { title: '古いタブ', revision: 1 }, NOW + 2),
        'STALE_REVISION',
      )
      expect(error.message).toContain('ほかのタブ')
      expect(await snapshot(db)).toEqual(before)
      expect(await readStudyForViewer(db, address(id), author)).toMatchObject({
        title: '結合',
        summary: '',
        notes: '更新',
        tags: ['postgresql'],
        revision: 2,
      })
    })

    it('refuses a guest', async () => {
      await refused(createStudy(db, noImages, undefined, { title: 'x' }), 'SIGN_IN_REQUIRED')
      expect(await db.selectFrom('studies').select('id').execute()).toEqual([])
    })
  })

  describe('publishing and visibility', () => {
    it('hides a draft from guests and other users (not found) but not from admins', async () => {
      const { id } = await draftStudy()
      for (const viewer of [undefined, other, forged]) {
        await refused(readStudyForViewer(db, address(id), viewer), 'NOT_FOUND')
      }
      expect((await readStudyForViewer(db, address(id), admin)).canEdit).toBe(true)
      await refused(readStudyForViewer(db, { username: 'other', studyId: id }, author), 'NOT_FOUND')
    })

    it('publishes with a history event, then unpublishes back to a draft', async () => {
      const { id } = await draftStudy()
      const published = await publishStudy(db, author, id, { revision: 1 }, NOW + 5)
      expect(published).toEqual({ revision: 2, publishedAt: NOW + 5 })
      expect(await readStudyForViewer(db, address(id), undefined)).toMatchObject({
        status: 'published',
        publishedAt: NOW + 5,
        canEdit: false,
      })
      expect(
        await db.selectFrom('history_events').select(['user_id', 'kind', 'subject_kind']).execute(),
      ).toEqual([{ user_id: author.userId, kind: 'published', subject_kind: 'study' }])
      await unpublishStudy(db, noImages, author, id, { revision: 2 }, NOW + 6)
      await refused(readStudyForViewer(db, address(id), undefined), 'NOT_FOUND')
    })

    it('lists published studies newest first, a page at a time, globally and per author', async () => {
      const ids: string[] = []
      for (let i = 0; i < 5; i++) {
        const { id } = await draftStudy(i % 2 === 0 ? author : other)
        await publishStudy(db, i % 2 === 0 ? author : other, id, { revision: 1 }, NOW + i)
        ids.push(id)
      }
      await draftStudy()
      const first = await listPublishedStudies(db, { limit: 2 })
      expect(first.items.map((card) => card.id)).toEqual([ids[4], ids[3]])
      expect(first.items[0]?.tags).toEqual(['sql'])
      const second = await listPublishedStudies(db, {
        limit: 2,
        cursor: decodeForTest(first.nextCursor),
      })
      expect(second.items.map((card) => card.id)).toEqual([ids[2], ids[1]])
      const last = await listPublishedStudies(db, {
        limit: 2,
        cursor: decodeForTest(second.nextCursor),
      })
      expect(last).toEqual({ items: [expect.objectContaining({ id: ids[0] })], nextCursor: null })
      const mine = await listPublishedStudies(db, { limit: 10 }, 'Author')
      expect(mine.items.map((card) => card.id)).toEqual([ids[4], ids[2], ids[0]])
    })
  })

  describe('ownership of every write', () => {
    const writes: [string, (actor: Actor | undefined, id: string) => Promise<unknown>][] = [
      [
        'update',
        (actor, id) => updateStudy(db, noImages, actor, id, { title: '乗っ取り', revision: 1 }),
      ],
      ['publish', (actor, id) => publishStudy(db, actor, id, { revision: 1 })],
      ['unpublish', (actor, id) => unpublishStudy(db, noImages, actor, id, { revision: 1 })],
      ['delete', (actor, id) => deleteStudy(db, actor, id)],
    ]

    for (const [name, write] of writes) {
      it(`${name}: refuses a guest, someone else, a forged user and a forged id; changes nothing`, async () => {
        const { id } = await draftStudy()
        const before = await snapshot(db)
        await refused(write(undefined, id), 'SIGN_IN_REQUIRED')
        await refused(write(other, id), 'NOT_FOUND')
        await refused(write(forged, id), 'NOT_FOUND')
        await refused(write(author, 'nostudy000000000'), 'NOT_FOUND')
        expect(await snapshot(db)).toEqual(before)
      })

      it(`${name}: someone else's published study is forbidden; the admin may`, async () => {
        const { id } = await createStudy(db, noImages, author, { title: '公開済み' }, NOW)
        await publishStudy(db, author, id, { revision: 1 }, NOW)
        await db.updateTable('studies').set({ revision: 1 }).where('id', '=', id).execute()
        const before = await snapshot(db)
        await refused(write(other, id), 'FORBIDDEN')
        expect(await snapshot(db)).toEqual(before)
        await write(admin, id)
        expect(await snapshot(db)).not.toEqual(before)
      })
    }

    it('delete removes the study and its tag links', async () => {
      const { id } = await draftStudy()
      await deleteStudy(db, author, id)
      expect(await db.selectFrom('studies').select('id').execute()).toEqual([])
      expect(await db.selectFrom('study_tags').selectAll().execute()).toEqual([])
    })
  })
})

function decodeForTest(cursor: string | null) {
  expect(cursor).not.toBeNull()
  return cursorParameter.parse(cursor)
}
