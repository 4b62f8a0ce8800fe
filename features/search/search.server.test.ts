import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import {
  createCourse,
  deleteCourse,
  publishCourse,
  unpublishCourse,
  updateCourse,
} from '#features/courses/course-editing.server.ts'
import { publishCourseRevision } from '#features/courses/course-revisions.server.ts'
import { addLesson, addSection } from '#features/courses/course-structure.server.ts'
import { updateLesson } from '#features/courses/lesson-editing.server.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { searchPublishedContent } from './search.server.ts'
import { searchQuery } from './search-query.ts'

/** No uploaded objects: bodies here show no images of the site's storage. */
const noImages = new UploadedObjects()

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const author: Actor = { userId: 'user-author', isAdmin: false }

describe.each(testEngines)('search on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await db
      .insertInto('users')
      .values({
        id: 'user-author',
        username: 'author',
        display_name: '著者 さん',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute()
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    for (const table of ['courses', 'studies', 'lab_stories', 'labs', 'history_events'] as const) {
      await db.deleteFrom(table).execute()
    }
  })

  function search(q: string, options: { kind?: string; viewer?: Actor } = {}) {
    const { viewer, ...query } = options
    return searchPublishedContent(db, searchQuery.parse({ q, ...query }), viewer)
  }

  /** A published course with one lesson, written through the course features. */
  async function publishedCourse(
    fields: { title: string; summary: string; access?: 'free' | 'premium' },
    lesson: { title: string; body: string; access?: 'free' | 'premium' },
    at = NOW,
  ) {
    const { id } = await createCourse(db, author, fields, at)
    const section = await addSection(db, author, id, { title: '基本', revision: 1 }, at)
    const added = await addLesson(
      db,
      author,
      id,
      { sectionId: section.sectionId, title: lesson.title, revision: section.revision },
      at,
    )
    await updateLesson(
      db,
      noImages,
      author,
      { courseId: id, lessonId: added.lessonId },
      { title: lesson.title, body: lesson.body, access: lesson.access ?? 'free', revision: 1 },
      at,
    )
    const published = await publishCourse(db, author, id, { revision: added.revision }, at)
    return { id, lessonId: added.lessonId, revision: published.revision }
  }

  async function insertPublished(
    table: 'studies' | 'labs' | 'lab_stories',
    id: string,
    fields: Record<string, string>,
  ) {
    await db
      .insertInto(table)
      .values({
        id,
        owner_id: 'user-author',
        status: 'published',
        published_at: NOW,
        created_at: NOW,
        updated_at: NOW,
        title: '',
        ...fields,
      })
      .execute()
  }

  async function sampleContent() {
    const python = await publishedCourse(
      { title: 'はじめてのPython入門', summary: 'ひらがなで やさしく 学ぶ コースです' },
      { title: '変数とデータ型', body: '# 変数\n\n変数には値を入れます。print関数で表示します。' },
    )
    const web = await publishedCourse(
      { title: 'HTMLとCSSの基礎', summary: 'ウェブページの しくみ' },
      { title: 'タグ', body: 'プログラミングの第一歩として `<script>` タグは<b>使いません</b>。' },
    )
    await insertPublished('studies', 'study-1', {
      title: 'アルゴリズムの勉強ノート',
      summary: '探索と整列',
      body: '二分探索は O(log n) です。',
    })
    await insertPublished('labs', 'lab-1', {
      title: 'ToDo アプリ',
      description: 'React で作ったタスク管理アプリケーション',
    })
    await insertPublished('lab_stories', 'story-1', {
      title: 'ToDo アプリを作った話',
      body: 'JavaScript の非同期処理でつまずいた記録です。',
    })
    return { python, web }
  }

  it('finds hiragana, katakana and kanji in titles, summaries and lesson bodies', async () => {
    const { python } = await sampleContent()
    expect((await search('やさしく')).map((result) => result.id)).toEqual([python.id])
    expect((await search('アプリケーション')).map((result) => result.id)).toEqual(['lab-1'])
    const kanji = await search('二分探索')
    expect(kanji.map((result) => [result.kind, result.id, result.url])).toEqual([
      ['study', 'study-1', '/author/studies/study-1'],
    ])
    expect(kanji[0]?.snippetHtml).toContain('<mark>二分探索</mark>')

    const inLesson = await search('print関数')
    expect(inLesson).toHaveLength(1)
    expect(inLesson[0]?.kind).toBe('course')
    expect(inLesson[0]?.titleHtml).toBe('はじめてのPython入門')
    expect(inLesson[0]?.lesson?.url).toBe(`/author/courses/${python.id}/lessons/${python.lessonId}`)
    expect(inLesson[0]?.snippetHtml).toContain('<mark>print関数</mark>')
  })

  it('matches Latin mixed with Japanese, case-insensitively, and every word of the query', async () => {
    const { python } = await sampleContent()
    expect((await search('python入門')).map((result) => result.id)).toEqual([python.id])
    expect((await search('ＰＹＴＨＯＮ')).map((result) => result.id)).toEqual([python.id])
    const todo = await search('todo アプリ')
    expect(todo.map((result) => result.kind).sort()).toEqual(['lab', 'lab_story'])
    expect(await search('todo 存在しない言葉')).toEqual([])
  })

  it('answers one- and two-character queries, which the trigram index cannot', async () => {
    const { python, web } = await sampleContent()
    expect((await search('変数')).map((result) => result.id)).toEqual([python.id])
    expect((await search('話')).map((result) => result.id)).toEqual(['story-1'])
    expect((await search('探索 O')).map((result) => result.id)).toEqual(['study-1'])
    expect((await search('タグ')).map((result) => result.id)).toEqual([web.id])
  })

  it('ranks a title hit above a body hit', async () => {
    await sampleContent()
    const results = await search('ToDo アプリ')
    expect(results[0]?.id).toBe('lab-1')
    const apps = await search('アプリ')
    expect(apps.map((result) => result.kind)).toContain('lab_story')
  })

  it.runIf(engine === 'sqlite')(
    'ranks a common word among the 300 entries indexed last, so its cost does not grow with the site',
    async () => {
      const course = (index: number, title: string, summary: string) => ({
        id: `bulk-${index}`,
        owner_id: 'user-author',
        title,
        summary,
        level: 'beginner' as const,
        access: 'free' as const,
        status: 'published' as const,
        published_at: NOW,
        created_at: NOW,
        updated_at: NOW,
      })
      await db
        .insertInto('courses')
        .values(course(0, '非同期処理 入門 (古い)', 'はじめてのコース'))
        .execute()
      await db
        .insertInto('courses')
        .values(
          Array.from({ length: 300 }, (_, index) =>
            course(index + 1, `コース ${index + 1}`, '非同期処理を少しだけ扱います'),
          ),
        )
        .execute()
      await db
        .insertInto('courses')
        .values(course(301, '非同期処理 入門 (新しい)', 'はじめてのコース'))
        .execute()
      const ids = (await search('非同期処理', { kind: 'course' })).map((result) => result.id)
      // The newest title hit ranks first; the oldest, 302nd from the end, is not a candidate.
      expect(ids[0]).toBe('bulk-301')
      expect(ids).not.toContain('bulk-0')
    },
  )

  it('searches courses only when asked for that kind', async () => {
    const { web } = await sampleContent()
    expect(
      (await search('の', { kind: 'course' })).every((result) => result.kind === 'course'),
    ).toBe(true)
    expect((await search('プログラミング', { kind: 'course' })).map((result) => result.id)).toEqual(
      [web.id],
    )
    expect(await search('ToDo', { kind: 'course' })).toEqual([])
  })

  it('treats query syntax characters as text and never errors', async () => {
    await sampleContent()
    for (const q of [
      '"',
      '""',
      '"Python',
      '*',
      'Py*',
      'OR',
      'a OR b',
      '-',
      '-Python',
      '%',
      '_',
      '%_%',
      "'; drop table courses; --",
      'NEAR(a b)',
      '\\',
      'title:Python',
    ]) {
      await expect(search(q)).resolves.toBeInstanceOf(Array)
    }
    expect(await search('%')).toEqual([])
    expect(await search('_')).toEqual([])
    expect((await search('O(log')).map((result) => result.id)).toEqual(['study-1'])
  })

  it('escapes the content in titles and snippets and marks only the hits', async () => {
    const { web } = await sampleContent()
    const [result] = await search('<script>')
    expect(result?.id).toBe(web.id)
    // Code keeps its text, escaped; raw HTML (which the page drops) is not text.
    expect(result?.snippetHtml).toBe(
      'プログラミングの第一歩として <mark>&lt;script&gt;</mark> タグは 使いません 。',
    )
  })

  it('follows publish, unpublish, updates and deletion', async () => {
    const { python } = await sampleContent()
    const unpublished = await unpublishCourse(
      db,
      author,
      python.id,
      { revision: python.revision },
      NOW,
    )
    expect(await search('python入門')).toEqual([])
    expect(await search('print関数')).toEqual([])

    const republished = await publishCourse(
      db,
      author,
      python.id,
      { revision: unpublished.revision },
      NOW,
    )
    expect((await search('print関数')).map((result) => result.id)).toEqual([python.id])

    // Edits of a published course wait as its pending revision: search follows only what is
    // published, so it changes with 更新する.
    const edited = await updateCourse(
      db,
      author,
      python.id,
      { title: 'Pythonで始めるデータ分析', revision: republished.revision },
      NOW,
    )
    await updateLesson(
      db,
      noImages,
      author,
      { courseId: python.id, lessonId: python.lessonId },
      { title: '変数とデータ型', body: 'リストと辞書を使います。', access: 'free', revision: 2 },
      NOW,
    )
    expect((await search('python入門')).map((result) => result.id)).toEqual([python.id])
    expect(await search('リストと辞書')).toEqual([])
    await publishCourseRevision(db, author, python.id, { revision: edited.revision }, NOW)
    expect(await search('python入門')).toEqual([])
    expect((await search('データ分析')).map((result) => result.id)).toEqual([python.id])
    expect(await search('print関数')).toEqual([])
    expect((await search('リストと辞書')).map((result) => result.id)).toEqual([python.id])

    await deleteCourse(db, author, python.id)
    expect(await search('リストと辞書')).toEqual([])
    await db.updateTable('studies').set({ status: 'draft' }).where('id', '=', 'study-1').execute()
    expect(await search('二分探索')).toEqual([])
  })

  it('never finds drafts', async () => {
    await createCourse(db, author, { title: '下書きのコース', summary: '秘密の要約' }, NOW)
    expect(await search('下書きのコース')).toEqual([])
    expect(await search('秘密')).toEqual([])
  })

  describe('premium lessons', () => {
    const premiumBody = [
      '## 内包表記',
      '',
      '`with_tax` を **リスト内包表記** で書きます。',
      '',
      '```python',
      'prices = [with_tax(p) for p in items]',
      '```',
    ].join('\n')
    const reader: Actor = { userId: 'user-reader', isAdmin: false }
    const admin: Actor = { userId: 'user-admin', isAdmin: true }

    async function premiumContent() {
      const lessonPremium = await publishedCourse(
        { title: '無料のPython講座', summary: '基礎から' },
        { title: '上級テクニック', body: premiumBody, access: 'premium' },
      )
      const coursePremium = await publishedCourse(
        { title: 'プレミアム講座', summary: '有料', access: 'premium' },
        { title: '辞書の使い方', body: '辞書内包表記と with_tax の秘密', access: 'free' },
      )
      return { lessonPremium, coursePremium }
    }

    it('are not found by their bodies for a guest or a free learner, and show no snippet', async () => {
      await premiumContent()
      for (const viewer of [undefined, reader]) {
        for (const q of ['内包表記', 'with_tax', '秘密', '内包 表記', 'p for p', 'in']) {
          expect(await search(q, { viewer }), `${q} as ${viewer?.userId ?? 'guest'}`).toEqual([])
        }
      }
    })

    it('are found by their titles, title only, like the course outline shows them', async () => {
      const { lessonPremium } = await premiumContent()
      const [result, ...rest] = await search('上級テクニック')
      expect(rest).toEqual([])
      expect(result?.id).toBe(lessonPremium.id)
      expect(result?.lesson?.titleHtml).toBe('<mark>上級テクニック</mark>')
      expect(result?.snippetHtml).toBe('')
      // A short term is scanned, not indexed: the same rule holds.
      expect((await search('上級'))[0]?.snippetHtml).toBe('')
    })

    it('are found with plain-text snippets by their author and by admins', async () => {
      const { lessonPremium, coursePremium } = await premiumContent()
      for (const viewer of [author, admin]) {
        const found = await search('with_tax', { viewer })
        expect(found.map((result) => result.id).sort()).toEqual(
          [lessonPremium.id, coursePremium.id].sort(),
        )
        const snippet = found.find((result) => result.id === lessonPremium.id)?.snippetHtml
        expect(snippet).toBe(
          '内包表記 <mark>with_tax</mark> を リスト内包表記 で書きます。 prices = [<mark>with_tax</mark>(p) for p in items]',
        )
      }
    })
  })
})
