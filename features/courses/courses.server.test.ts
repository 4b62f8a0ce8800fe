import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import {
  createCourse,
  deleteCourse,
  publishCourse,
  unpublishCourse,
  updateCourse,
} from './course-editing.server.ts'
import { readCourseForEditor } from './course-editor.server.ts'
import {
  addLesson,
  addSection,
  deleteLesson,
  deleteSection,
  moveLesson,
  moveSection,
  renameSection,
} from './course-structure.server.ts'
import { readCourseForViewer } from './course-view.server.ts'
import { updateLesson } from './lesson-editing.server.ts'
import { markLessonDone, unmarkLessonDone } from './lesson-progress.server.ts'
import { readLessonForViewer } from './lesson-view.server.ts'

/** No uploaded objects: bodies here show no images of the site's storage. */
const noImages = new UploadedObjects()

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const author: Actor = { userId: 'user-author', isAdmin: false }
const other: Actor = { userId: 'user-other', isAdmin: false }
const admin: Actor = { userId: 'user-admin', isAdmin: true }
const learner: Actor = { userId: 'user-learner', isAdmin: false }

/** Everything the course features write, to prove a refused write changed nothing. */
function snapshot(db: Kysely<DB>) {
  return snapshotTables(db, [
    'courses',
    'course_sections',
    'lessons',
    'lesson_progress',
    'tags',
    'course_tags',
    'history_events',
  ])
}

describe.each(testEngines)('courses on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other', 'admin', 'learner'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('history_events').execute()
    await db.deleteFrom('courses').execute()
    await db.deleteFrom('tags').execute()
  })

  /** A draft with two sections: "はじめに" (2 lessons) and "応用" (1 premium lesson). */
  async function draftCourse() {
    const { id } = await createCourse(
      db,
      author,
      { title: 'はじめての Python', summary: '基礎から', tags: ['Python', 'ＰＹＴＨＯＮ', '入門'] },
      NOW,
    )
    let revision = 1
    const first = await addSection(db, author, id, { title: 'はじめに', revision }, NOW)
    revision = first.revision
    const lessonIds: string[] = []
    for (const title of ['インストール', '変数']) {
      const added = await addLesson(
        db,
        author,
        id,
        { sectionId: first.sectionId, title, revision },
        NOW,
      )
      revision = added.revision
      lessonIds.push(added.lessonId)
    }
    // A body to publish with (written directly, so the lessons' revisions stay at 1).
    await db.updateTable('lessons').set({ body: '本文' }).where('id', 'in', lessonIds).execute()
    const second = await addSection(db, author, id, { title: '応用', revision }, NOW)
    const premium = await addLesson(
      db,
      author,
      id,
      { sectionId: second.sectionId, title: 'クラス', revision: second.revision },
      NOW,
    )
    lessonIds.push(premium.lessonId)
    await updateLesson(
      db,
      noImages,
      author,
      { courseId: id, lessonId: premium.lessonId },
      { title: 'クラス', body: '# クラス\n\n秘密の本文', access: 'premium', revision: 1 },
      NOW,
    )
    return {
      id,
      revision: premium.revision,
      sectionIds: [first.sectionId, second.sectionId],
      lessonIds,
    }
  }

  const address = (courseId: string) => ({ username: 'author', courseId })

  describe('create and update', () => {
    it('creates a draft with normalised, de-duplicated tags', async () => {
      const { id } = await createCourse(
        db,
        author,
        { title: '  JS 入門  ', tags: ['ＪａｖａＳｃｒｉｐｔ', 'javascript', ' Web  開発 '] },
        NOW,
      )
      const course = await readCourseForViewer(db, address(id), author)
      expect(course).toMatchObject({
        title: 'JS 入門',
        status: 'draft',
        publishedAt: null,
        revision: 1,
        level: 'beginner',
        access: 'free',
        tags: ['javascript', 'web-開発'],
        canEdit: true,
      })
    })

    it('refuses a guest', async () => {
      await refused(createCourse(db, undefined, { title: 'x' }), 'SIGN_IN_REQUIRED')
      expect(await db.selectFrom('courses').select('id').execute()).toEqual([])
    })

    it('refuses bad input with Japanese field messages and saves nothing', async () => {
      const error = await refused(
        createCourse(db, author, {
          title: 'あ'.repeat(101),
          summary: 'い'.repeat(501),
          level: 'expert',
          access: 42,
          tags: ['<script>', ''],
        }),
        'VALIDATION_FAILED',
      )
      expect(error.fields).toMatchObject({
        title: ['タイトルは 100 文字以内で入力してください'],
        summary: ['概要は 500 文字以内で入力してください'],
        level: ['レベルは入門・中級・上級から選んでください'],
        access: ['公開範囲は無料・プレミアムから選んでください'],
        'tags.0': ['タグ「<script>」には文字・数字と + # . - _ だけが使えます。'],
        'tags.1': ['空のタグは付けられません。'],
      })
      await refused(createCourse(db, author, { title: '   ' }), 'VALIDATION_FAILED')
      await refused(
        createCourse(db, author, {
          title: 'x',
          tags: Array.from({ length: 11 }, (_, i) => `t${i}`),
        }),
        'VALIDATION_FAILED',
      )
      expect(await db.selectFrom('courses').select('id').execute()).toEqual([])
      expect(await db.selectFrom('tags').select('id').execute()).toEqual([])
    })

    it('saves an update based on the current revision and refuses a stale one', async () => {
      const { id } = await createCourse(db, author, { title: '一版目' }, NOW)
      const saved = await updateCourse(
        db,
        author,
        id,
        { title: '二版目', level: 'advanced', tags: ['Rust'], revision: 1 },
        NOW + 1,
      )
      expect(saved.revision).toBe(2)
      const before = await snapshot(db)
      const stale = await refused(
        updateCourse(db, author, id, { title: '別タブ', revision: 1 }, NOW + 2),
        'STALE_REVISION',
      )
      expect(stale.message).toContain('ほかのタブまたは端末で先に保存されています')
      expect(await snapshot(db)).toEqual(before)
      const course = await readCourseForViewer(db, address(id), author)
      expect(course).toMatchObject({ title: '二版目', level: 'advanced', tags: ['rust'] })
    })
  })

  describe('visibility', () => {
    it('hides a draft from everyone but its owner and admins (not found, never forbidden)', async () => {
      const { id } = await draftCourse()
      for (const viewer of [undefined, other, learner]) {
        await refused(readCourseForViewer(db, address(id), viewer), 'NOT_FOUND')
        await refused(
          readCourseForEditor(db, viewer, id),
          viewer ? 'NOT_FOUND' : 'SIGN_IN_REQUIRED',
        )
      }
      expect((await readCourseForViewer(db, address(id), author)).canEdit).toBe(true)
      expect((await readCourseForViewer(db, address(id), admin)).canEdit).toBe(true)
    })

    it('is addressed by its author: the same id under another user is not found', async () => {
      const { id, revision } = await draftCourse()
      await publishCourse(db, author, id, { revision }, NOW)
      await refused(
        readCourseForViewer(db, { username: 'other', courseId: id }, undefined),
        'NOT_FOUND',
      )
      expect(
        (await readCourseForViewer(db, { username: 'Author', courseId: id }, undefined)).id,
      ).toBe(id)
    })

    it('shows a published course to guests with its sections, lessons in order and locks', async () => {
      const { id, revision, lessonIds } = await draftCourse()
      await publishCourse(db, author, id, { revision }, NOW + 5)
      const course = await readCourseForViewer(db, address(id), undefined)
      expect(course).toMatchObject({
        status: 'published',
        publishedAt: NOW + 5,
        canEdit: false,
        tags: ['python', '入門'],
        progress: { done: 0, total: 3 },
        nextLessonId: lessonIds[0],
      })
      expect(
        course.sections.map((s) => [s.title, s.lessons.map((l) => [l.title, l.locked])]),
      ).toEqual([
        [
          'はじめに',
          [
            ['インストール', false],
            ['変数', false],
          ],
        ],
        ['応用', [['クラス', true]]],
      ])
    })
  })

  describe('lessons', () => {
    it('locks premium lessons for the free plan but not for their author', async () => {
      const { id, revision, lessonIds } = await draftCourse()
      await publishCourse(db, author, id, { revision }, NOW)
      const lesson = { ...address(id), lessonId: lessonIds[2] ?? '' }
      for (const viewer of [undefined, learner]) {
        const view = await readLessonForViewer(db, lesson, viewer)
        expect(view.lesson.locked).toBe(true)
        expect(view.lesson.body).toBeNull()
      }
      const own = await readLessonForViewer(db, lesson, author)
      expect(own.lesson).toMatchObject({ locked: false, body: '# クラス\n\n秘密の本文' })
      await refused(markLessonDone(db, lesson, learner), 'LOCKED')
      expect(await db.selectFrom('lesson_progress').selectAll().execute()).toEqual([])
    })

    it('locks every lesson of a premium course for the free plan', async () => {
      const { id, lessonIds } = await draftCourse()
      const saved = await updateCourse(
        db,
        author,
        id,
        { title: 'はじめての Python', access: 'premium', revision: 6 },
        NOW,
      )
      await publishCourse(db, author, id, { revision: saved.revision }, NOW)
      const view = await readLessonForViewer(
        db,
        { ...address(id), lessonId: lessonIds[0] ?? '' },
        learner,
      )
      expect(view.lesson).toMatchObject({ locked: true, body: null })
    })

    it('gives previous and next across sections', async () => {
      const { id, lessonIds } = await draftCourse()
      const view = await readLessonForViewer(
        db,
        { ...address(id), lessonId: lessonIds[1] ?? '' },
        author,
      )
      expect(view.previous?.id).toBe(lessonIds[0])
      expect(view.next?.id).toBe(lessonIds[2])
      expect(view.lesson.sectionTitle).toBe('はじめに')
      await refused(
        readLessonForViewer(db, { ...address(id), lessonId: 'nolesson00000000' }, author),
        'NOT_FOUND',
      )
    })

    it('marks a lesson done once: progress and one history event, idempotent', async () => {
      const { id, revision, lessonIds } = await draftCourse()
      await publishCourse(db, author, id, { revision }, NOW)
      const lesson = { ...address(id), lessonId: lessonIds[0] ?? '' }
      expect(await markLessonDone(db, lesson, learner, NOW + 10)).toEqual({
        doneAt: NOW + 10,
        newlyDone: true,
      })
      expect(await markLessonDone(db, lesson, learner, NOW + 20)).toEqual({
        doneAt: NOW + 10,
        newlyDone: false,
      })
      const events = await db
        .selectFrom('history_events')
        .select(['user_id', 'kind', 'subject_kind', 'subject_id', 'at'])
        .where('kind', '=', 'lesson_done')
        .execute()
      expect(events).toEqual([
        {
          user_id: learner.userId,
          kind: 'lesson_done',
          subject_kind: 'lesson',
          subject_id: lessonIds[0],
          at: NOW + 10,
        },
      ])
      const course = await readCourseForViewer(db, address(id), learner)
      expect(course.progress).toEqual({ done: 1, total: 3 })
      expect(course.nextLessonId).toBe(lessonIds[1])
      expect(course.sections[0]?.lessons.map((l) => l.done)).toEqual([true, false])
      // Another learner's progress is their own.
      expect((await readCourseForViewer(db, address(id), other)).progress.done).toBe(0)
      await refused(markLessonDone(db, lesson, undefined), 'SIGN_IN_REQUIRED')
    })

    it('undoes done: progress and the history event go, marking again records anew', async () => {
      const { id, revision, lessonIds } = await draftCourse()
      await publishCourse(db, author, id, { revision }, NOW)
      const lesson = { ...address(id), lessonId: lessonIds[0] ?? '' }
      const doneEvents = () =>
        db
          .selectFrom('history_events')
          .select(['user_id', 'subject_id', 'at'])
          .where('kind', '=', 'lesson_done')
          .execute()
      await markLessonDone(db, lesson, learner, NOW + 10)
      await markLessonDone(db, lesson, other, NOW + 11)

      expect(await unmarkLessonDone(db, lesson, learner)).toEqual({ wasDone: true })
      const course = await readCourseForViewer(db, address(id), learner)
      expect(course.progress).toEqual({ done: 0, total: 3 })
      expect(course.nextLessonId).toBe(lessonIds[0])
      expect((await readLessonForViewer(db, lesson, learner)).lesson.done).toBe(false)
      // Only the learner's own record goes.
      expect(await doneEvents()).toEqual([
        { user_id: other.userId, subject_id: lessonIds[0], at: NOW + 11 },
      ])
      expect((await readCourseForViewer(db, address(id), other)).progress.done).toBe(1)

      // Undoing again changes nothing; marking again is a new completion.
      expect(await unmarkLessonDone(db, lesson, learner)).toEqual({ wasDone: false })
      expect(await markLessonDone(db, lesson, learner, NOW + 30)).toEqual({
        doneAt: NOW + 30,
        newlyDone: true,
      })
      expect((await doneEvents()).filter((event) => event.user_id === learner.userId)).toEqual([
        { user_id: learner.userId, subject_id: lessonIds[0], at: NOW + 30 },
      ])
      await refused(unmarkLessonDone(db, lesson, undefined), 'SIGN_IN_REQUIRED')
    })

    it('refuses marking a lesson of someone else’s draft (not found)', async () => {
      const { id, lessonIds } = await draftCourse()
      await refused(
        markLessonDone(db, { ...address(id), lessonId: lessonIds[0] ?? '' }, learner),
        'NOT_FOUND',
      )
    })

    it('refuses an image in a lesson body that the course’s owner did not upload', async () => {
      const { id, lessonIds } = await draftCourse()
      const images = new UploadedObjects()
      const theirs = images.upload('public/id-other/lessons/x.png', other.userId)
      const mine = images.upload('public/id-author/lessons/m.png', author.userId)
      const lesson = { courseId: id, lessonId: lessonIds[0] ?? '' }
      const save = (body: string) =>
        updateLesson(db, images, author, lesson, { title: 'x', body, access: 'free', revision: 1 })
      const error = await refused(save(`![図](/s3/site/${theirs})`), 'VALIDATION_FAILED')
      expect(error.fields).toEqual({
        body: ['アップロードした画像が見つかりません。もう一度アップロードしてください。'],
      })
      expect((await save(`![図](/s3/site/${mine})`)).revision).toBe(2)
    })

    it('refuses a stale lesson save and keeps the first', async () => {
      const { id, lessonIds } = await draftCourse()
      const lesson = { courseId: id, lessonId: lessonIds[0] ?? '' }
      const first = await updateLesson(
        db,
        noImages,
        author,
        lesson,
        { title: 'インストール', body: 'タブ A', access: 'free', revision: 1 },
        NOW,
      )
      expect(first.revision).toBe(2)
      await refused(
        updateLesson(
          db,
          noImages,
          author,
          lesson,
          { title: 'インストール', body: 'タブ B', access: 'free', revision: 1 },
          NOW,
        ),
        'STALE_REVISION',
      )
      const editor = await readCourseForEditor(db, author, id)
      expect(editor.sections[0]?.lessons[0]).toMatchObject({ body: 'タブ A', revision: 2 })
    })

    it('refuses an over-long body', async () => {
      const { id, lessonIds } = await draftCourse()
      const error = await refused(
        updateLesson(
          db,
          noImages,
          author,
          { courseId: id, lessonId: lessonIds[0] ?? '' },
          { title: 'x', body: 'あ'.repeat(100_001), access: 'free', revision: 1 },
        ),
        'VALIDATION_FAILED',
      )
      expect(error.fields?.body).toEqual(['本文は100,000文字以内で入力してください。'])
    })
  })

  describe('structure', () => {
    async function order(id: string) {
      const draft = await readCourseForEditor(db, author, id)
      return draft.sections.map((s) => [s.title, s.lessons.map((l) => l.title)])
    }

    it('reorders sections and lessons, crossing sections at their edges', async () => {
      const { id, revision, sectionIds, lessonIds } = await draftCourse()
      let current = revision
      const step = async (work: Promise<{ revision: number }>) => {
        current = (await work).revision
      }
      await step(
        moveLesson(
          db,
          author,
          { courseId: id, lessonId: lessonIds[1] ?? '' },
          { direction: 'up', revision: current },
        ),
      )
      expect(await order(id)).toEqual([
        ['はじめに', ['変数', 'インストール']],
        ['応用', ['クラス']],
      ])
      await step(
        moveLesson(
          db,
          author,
          { courseId: id, lessonId: lessonIds[0] ?? '' },
          { direction: 'down', revision: current },
        ),
      )
      expect(await order(id)).toEqual([
        ['はじめに', ['変数']],
        ['応用', ['インストール', 'クラス']],
      ])
      await step(
        moveSection(
          db,
          author,
          { courseId: id, sectionId: sectionIds[1] ?? '' },
          { direction: 'up', revision: current },
        ),
      )
      await step(
        renameSection(
          db,
          author,
          { courseId: id, sectionId: sectionIds[0] ?? '' },
          { title: '基礎', revision: current },
        ),
      )
      expect(await order(id)).toEqual([
        ['応用', ['インストール', 'クラス']],
        ['基礎', ['変数']],
      ])
      await step(
        deleteLesson(
          db,
          author,
          { courseId: id, lessonId: lessonIds[2] ?? '' },
          { revision: current },
        ),
      )
      await step(
        deleteSection(
          db,
          author,
          { courseId: id, sectionId: sectionIds[0] ?? '' },
          { revision: current },
        ),
      )
      expect(await order(id)).toEqual([['応用', ['インストール']]])
      expect((await readCourseForEditor(db, author, id)).revision).toBe(current)
    })

    it('refuses a structure change based on a stale course revision', async () => {
      const { id, revision, sectionIds } = await draftCourse()
      await renameSection(
        db,
        author,
        { courseId: id, sectionId: sectionIds[0] ?? '' },
        { title: 'タブ A', revision },
      )
      const before = await snapshot(db)
      await refused(addSection(db, author, id, { title: 'タブ B', revision }), 'STALE_REVISION')
      expect(await snapshot(db)).toEqual(before)
    })
  })

  describe('publishing', () => {
    it('refuses to publish a course with an empty lesson, naming the lesson', async () => {
      const { id, revision, lessonIds } = await draftCourse()
      await db
        .updateTable('lessons')
        .set({ body: ' \n ' })
        .where('id', '=', lessonIds[1] ?? '')
        .execute()
      await db
        .updateTable('lessons')
        .set({ title: '', body: '' })
        .where('id', '=', lessonIds[2] ?? '')
        .execute()
      const before = await snapshot(db)
      const error = await refused(publishCourse(db, author, id, { revision }), 'VALIDATION_FAILED')
      expect(error.message).toBe(
        '中身が空のレッスンがあるため公開できません: レッスン「変数」、セクション「応用」の 1 番目のレッスン',
      )
      expect(error.fields).toEqual({
        [`lessons.${lessonIds[1]}.body`]: [
          'レッスン「変数」の本文が空です。本文を書いてから公開してください',
        ],
        [`lessons.${lessonIds[2]}.title`]: [
          'セクション「応用」の 1 番目のレッスンに名前がありません。名前を付けてから公開してください',
        ],
        [`lessons.${lessonIds[2]}.body`]: [
          'セクション「応用」の 1 番目のレッスンの本文が空です。本文を書いてから公開してください',
        ],
      })
      expect(await snapshot(db)).toEqual(before)
    })

    it('publishes explicitly, records it in the history, and unpublishes back to a draft', async () => {
      const { id, revision } = await draftCourse()
      const published = await publishCourse(db, author, id, { revision }, NOW + 7)
      expect(published).toEqual({ revision: revision + 1, publishedAt: NOW + 7 })
      expect(
        await db.selectFrom('history_events').select(['kind', 'subject_id', 'user_id']).execute(),
      ).toEqual([{ kind: 'published', subject_id: id, user_id: author.userId }])
      await unpublishCourse(db, author, id, { revision: published.revision })
      await refused(readCourseForViewer(db, address(id), undefined), 'NOT_FOUND')
      expect((await readCourseForViewer(db, address(id), author)).publishedAt).toBeNull()
    })

    it('refuses to publish a course without lessons', async () => {
      const { id } = await createCourse(db, author, { title: '空のコース' })
      const error = await refused(
        publishCourse(db, author, id, { revision: 1 }),
        'VALIDATION_FAILED',
      )
      expect(error.fields?.sections).toEqual(['公開するにはレッスンを 1 つ以上追加してください'])
      expect((await readCourseForViewer(db, address(id), author)).status).toBe('draft')
    })

    it('lets an admin publish someone else’s course', async () => {
      const { id, revision } = await draftCourse()
      await publishCourse(db, admin, id, { revision })
      expect((await readCourseForViewer(db, address(id), undefined)).status).toBe('published')
    })

    it('deletes a course with everything under it', async () => {
      const { id } = await draftCourse()
      await deleteCourse(db, author, id)
      await refused(readCourseForViewer(db, address(id), author), 'NOT_FOUND')
      expect(await db.selectFrom('lessons').select('id').execute()).toEqual([])
      expect(await db.selectFrom('course_sections').select('id').execute()).toEqual([])
      expect(await db.selectFrom('course_tags').select('tag_id').execute()).toEqual([])
    })
  })

  describe('ownership of every write', () => {
    type Write = (
      actor: Actor | undefined,
      course: Awaited<ReturnType<typeof draftCourse>>,
    ) => Promise<unknown>
    const writes: [string, Write][] = [
      [
        'updateCourse',
        (a, c) => updateCourse(db, a, c.id, { title: '乗っ取り', revision: c.revision }),
      ],
      ['publishCourse', (a, c) => publishCourse(db, a, c.id, { revision: c.revision })],
      ['unpublishCourse', (a, c) => unpublishCourse(db, a, c.id, { revision: c.revision })],
      ['deleteCourse', (a, c) => deleteCourse(db, a, c.id)],
      [
        'addSection',
        (a, c) => addSection(db, a, c.id, { title: '乗っ取り', revision: c.revision }),
      ],
      [
        'renameSection',
        (a, c) =>
          renameSection(
            db,
            a,
            { courseId: c.id, sectionId: c.sectionIds[0] ?? '' },
            { title: '乗っ取り', revision: c.revision },
          ),
      ],
      [
        'moveSection',
        (a, c) =>
          moveSection(
            db,
            a,
            { courseId: c.id, sectionId: c.sectionIds[1] ?? '' },
            { direction: 'up', revision: c.revision },
          ),
      ],
      [
        'deleteSection',
        (a, c) =>
          deleteSection(
            db,
            a,
            { courseId: c.id, sectionId: c.sectionIds[0] ?? '' },
            { revision: c.revision },
          ),
      ],
      [
        'addLesson',
        (a, c) =>
          addLesson(db, a, c.id, {
            sectionId: c.sectionIds[0],
            title: '乗っ取り',
            revision: c.revision,
          }),
      ],
      [
        'updateLesson',
        (a, c) =>
          updateLesson(
            db,
            noImages,
            a,
            { courseId: c.id, lessonId: c.lessonIds[0] ?? '' },
            { title: '乗っ取り', body: '', access: 'free', revision: 1 },
          ),
      ],
      [
        'moveLesson',
        (a, c) =>
          moveLesson(
            db,
            a,
            { courseId: c.id, lessonId: c.lessonIds[1] ?? '' },
            { direction: 'up', revision: c.revision },
          ),
      ],
      [
        'deleteLesson',
        (a, c) =>
          deleteLesson(
            db,
            a,
            { courseId: c.id, lessonId: c.lessonIds[0] ?? '' },
            { revision: c.revision },
          ),
      ],
    ]

    it.each(writes)(
      '%s: refuses a guest and someone else, draft or published',
      async (_, write) => {
        const draft = await draftCourse()
        let before = await snapshot(db)
        await refused(write(undefined, draft), 'SIGN_IN_REQUIRED')
        await refused(write(other, draft), 'NOT_FOUND')
        expect(await snapshot(db)).toEqual(before)

        const published = await publishCourse(db, author, draft.id, { revision: draft.revision })
        const live = { ...draft, revision: published.revision }
        before = await snapshot(db)
        await refused(write(undefined, live), 'SIGN_IN_REQUIRED')
        await refused(write(other, live), 'FORBIDDEN')
        expect(await snapshot(db)).toEqual(before)
      },
    )

    it.each(writes)(
      '%s: refuses forged ids (unknown, or of another course)',
      async (name, write) => {
        const mine = await draftCourse()
        const theirs = await draftCourse()
        await db
          .updateTable('courses')
          .set({ owner_id: other.userId })
          .where('id', '=', theirs.id)
          .execute()
        const before = await snapshot(db)
        await refused(write(author, { ...mine, id: 'unknown000000000' }), 'NOT_FOUND')
        // Someone else's course id with my own sections and lessons.
        await refused(
          write(author, { ...theirs, sectionIds: mine.sectionIds, lessonIds: mine.lessonIds }),
          'NOT_FOUND',
        )
        // My course id with another course's sections and lessons.
        if (!WHOLE_COURSE_WRITES.has(name)) {
          await refused(
            write(author, { ...mine, sectionIds: theirs.sectionIds, lessonIds: theirs.lessonIds }),
            'NOT_FOUND',
          )
        }
        expect(await snapshot(db)).toEqual(before)
      },
    )
  })
})

/** Writes addressed by the course id alone (no section or lesson id to forge). */
const WHOLE_COURSE_WRITES = new Set([
  'updateCourse',
  'publishCourse',
  'unpublishCourse',
  'deleteCourse',
  'addSection',
])
