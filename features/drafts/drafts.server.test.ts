import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { createCourse } from '#features/courses/course-editing.server.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { createStudy, publishStudy } from '#features/studies/study-editing.server.ts'
import { listTaggedContent } from '#features/tags/tagged-content.server.ts'
import { actOnDraft } from './draft-actions.server.ts'
import { listMyDrafts } from './my-drafts.server.ts'

/** No uploaded objects: bodies here show no images of the site's storage. */
const noImages = new UploadedObjects()

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const author: Actor = { userId: 'user-author', isAdmin: false }
const other: Actor = { userId: 'user-other', isAdmin: false }

describe.each(testEngines)('drafts and tag pages on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })

  it('lists my drafts of every kind, newest change first, and acts only on mine', async () => {
    const study = await createStudy(
      db,
      noImages,
      author,
      { title: 'ノート', tags: ['go'] },
      NOW + 1,
    )
    const course = await createCourse(db, author, { title: 'コース' }, NOW + 2)
    await db
      .insertInto('labs')
      .values({
        id: 'lab0000000000001',
        owner_id: author.userId,
        title: 'ラボ',
        status: 'draft',
        published_at: null,
        created_at: NOW,
        updated_at: NOW + 3,
      })
      .execute()
    await db
      .insertInto('lab_stories')
      .values({
        id: 'story00000000001',
        owner_id: author.userId,
        lab_id: null,
        title: '物語',
        status: 'draft',
        published_at: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute()
    await createStudy(db, noImages, other, { title: '他人のノート' }, NOW + 9)

    const drafts = await listMyDrafts(db, author)
    expect(drafts.map((draft) => [draft.kind, draft.title, draft.editPath])).toEqual([
      ['lab', 'ラボ', '/author/labs/lab0000000000001/edit'],
      ['course', 'コース', `/author/courses/${course.id}/edit`],
      ['study', 'ノート', `/author/studies/${study.id}/edit`],
      ['lab_story', '物語', '/author/labs_stories/story00000000001/edit'],
    ])
    await refused(listMyDrafts(db, undefined), 'SIGN_IN_REQUIRED')

    const before = await snapshotTables(db, ['studies', 'courses', 'labs'])
    await refused(
      actOnDraft(db, other, { intent: 'delete', kind: 'study', id: study.id }),
      'NOT_FOUND',
    )
    await refused(
      actOnDraft(db, other, { intent: 'delete', kind: 'lab', id: 'lab0000000000001' }),
      'NOT_FOUND',
    )
    await refused(
      actOnDraft(db, author, { intent: 'delete', kind: 'exercise', id: 'lab0000000000001' }),
      'VALIDATION_FAILED',
    )
    expect(await snapshotTables(db, ['studies', 'courses', 'labs'])).toEqual(before)

    await actOnDraft(db, author, { intent: 'publish', kind: 'study', id: study.id, revision: '1' })
    await actOnDraft(db, author, { intent: 'delete', kind: 'course', id: course.id })
    expect((await listMyDrafts(db, author)).map((draft) => draft.kind)).toEqual([
      'lab',
      'lab_story',
    ])
    await actOnDraft(db, author, {
      intent: 'publish',
      kind: 'lab',
      id: 'lab0000000000001',
      revision: '1',
    })
    await actOnDraft(db, author, { intent: 'delete', kind: 'lab_story', id: 'story00000000001' })
    expect(await listMyDrafts(db, author)).toEqual([])
    expect(
      await db.selectFrom('labs').select(['status']).where('id', '=', 'lab0000000000001').execute(),
    ).toEqual([{ status: 'published' }])
  })

  it('lists published content with a tag under any spelling of it, never drafts', async () => {
    const published = await createStudy(
      db,
      noImages,
      author,
      { title: '公開ノート', tags: ['React Native'] },
      NOW,
    )
    await publishStudy(db, author, published.id, { revision: 1 }, NOW + 10)
    await createStudy(db, noImages, author, { title: '下書きノート', tags: ['react-native'] }, NOW)
    const tagged = await listTaggedContent(db, 'ＲＥＡＣＴ　Ｎａｔｉｖｅ')
    expect(tagged.tag).toBe('react-native')
    expect(tagged.items).toEqual([
      {
        kind: 'study',
        id: published.id,
        title: '公開ノート',
        publishedAt: NOW + 10,
        path: `/author/studies/${published.id}`,
        author: { username: 'author', displayName: 'author さん' },
      },
    ])
    expect((await listTaggedContent(db, 'unused')).items).toEqual([])
    await refused(listTaggedContent(db, '<script>'), 'NOT_FOUND')
  })
})
