import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { demoCourses } from '#db/seed/demo-content.ts'
import { seedDemoContent } from '#db/seed/seed.ts'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { replaceItemTags } from '#features/tags/item-tags.server.ts'
import {
  catalogueQuery,
  findPublishedCourse,
  listCatalogueTags,
  listCoursesByAuthor,
  listPublishedCourses,
} from './catalogue.server.ts'
import type { CourseCard } from './course-card.ts'

const NOW = Date.UTC(2026, 10, 22, 9, 0, 0)
/** Several courses published at the very same moment, to exercise the id tie-break. */
const TIED_AT = NOW - 1_000
const TIED_IDS = ['tie0000000000001', 'tie0000000000002', 'tie00000000000aa', 'tie0000000000zzz']

let database: TemporaryDatabase

beforeAll(async () => {
  database = await openTemporaryDatabase()
  const { db } = database
  await seedDemoContent(db, NOW)
  const owner = await db
    .selectFrom('users')
    .select('id')
    .where('username', '=', 'techlab')
    .executeTakeFirstOrThrow()
  const course = {
    owner_id: owner.id,
    summary: 'summary',
    level: 'beginner',
    access: 'free',
    created_at: TIED_AT,
    updated_at: TIED_AT,
  } as const
  await db
    .insertInto('courses')
    .values([
      ...TIED_IDS.map((id) => ({
        ...course,
        id,
        title: `同時公開 ${id}`,
        status: 'published' as const,
        published_at: TIED_AT,
      })),
      // Drafts, including one that looks newest of all, must never be listed.
      { ...course, id: 'draft00000000001', title: '下書き', status: 'draft', published_at: null },
      {
        ...course,
        id: 'draft00000000002',
        title: '下書き（公開日つき）',
        status: 'draft',
        published_at: NOW + 1_000,
      },
    ])
    .execute()
})

afterAll(async () => {
  await database.remove()
})

/** Every published course, as the API pages through them with `limit`. */
async function pageThrough(limit: number): Promise<{ pages: number; items: CourseCard[] }> {
  const items: CourseCard[] = []
  let cursor: string | undefined
  let pages = 0
  do {
    const page = await listPublishedCourses(database.db, catalogueQuery.parse({ cursor, limit }))
    pages += 1
    expect(page.items.length).toBeLessThanOrEqual(limit)
    items.push(...page.items)
    cursor = page.nextCursor ?? undefined
    if (cursor) expect(page.items).toHaveLength(limit)
    expect(pages).toBeLessThan(100)
  } while (cursor)
  return { pages, items }
}

async function expectedOrder(): Promise<string[]> {
  const rows = await database.db
    .selectFrom('courses')
    .select(['id', 'published_at'])
    .where('status', '=', 'published')
    .execute()
  return rows
    .sort((a, b) => (b.published_at ?? 0) - (a.published_at ?? 0) || (a.id < b.id ? 1 : -1))
    .map((row) => row.id)
}

describe('listPublishedCourses', () => {
  const publishedCount = demoCourses.length + TIED_IDS.length

  it.each([1, 3, 4, 20, 50])(
    'pages through every published course newest first, limit %i',
    async (limit) => {
      const { pages, items } = await pageThrough(limit)
      const ids = items.map((item) => item.id)
      expect(new Set(ids).size).toBe(ids.length)
      expect(ids).toEqual(await expectedOrder())
      expect(ids).toHaveLength(publishedCount)
      expect(pages).toBe(Math.ceil(publishedCount / limit))
      const times = items.map((item) => item.publishedAt)
      expect(times).toEqual([...times].sort((a, b) => b - a))
    },
  )

  it('orders courses published at the same moment by id, descending', async () => {
    const { items } = await pageThrough(3)
    const tied = items.filter((item) => item.publishedAt === TIED_AT).map((item) => item.id)
    expect(tied).toEqual([...TIED_IDS].sort().reverse())
  })

  it('opens with the newest course and a full first page of 20 by default', async () => {
    const page = await listPublishedCourses(database.db, catalogueQuery.parse({}))
    expect(page.items).toHaveLength(20)
    expect(page.nextCursor).not.toBeNull()
    expect(page.items[0]?.publishedAt).toBe(TIED_AT)
    // After the tied courses come the seeded ones, the seed's first course newest.
    const firstSeeded = page.items.find((item) => !TIED_IDS.includes(item.id))
    expect(firstSeeded?.title).toBe(demoCourses[0]?.title)
  })

  it('excludes drafts', async () => {
    const { items } = await pageThrough(50)
    expect(items.map((item) => item.id)).not.toContain('draft00000000001')
    expect(items.map((item) => item.id)).not.toContain('draft00000000002')
    expect(items.some((item) => item.title.startsWith('下書き'))).toBe(false)
  })

  it('returns cards with their author', async () => {
    const page = await listPublishedCourses(database.db, catalogueQuery.parse({ limit: 50 }))
    const html = page.items.find((item) => item.title === demoCourses[0]?.title)
    expect(html).toMatchObject({
      level: demoCourses[0]?.level,
      access: demoCourses[0]?.access,
      summary: demoCourses[0]?.summary,
      author: { username: 'techlab', displayName: 'テックラボ編集部' },
    })
  })
})

describe('findPublishedCourse', () => {
  it('finds a course by author and id, ignoring the case of the username', async () => {
    const courseId = TIED_IDS[0] ?? ''
    for (const username of ['techlab', 'TechLab', 'TECHLAB']) {
      const course = await findPublishedCourse(database.db, { username, courseId })
      expect(course?.id, username).toBe(courseId)
      expect(course?.author.username).toBe('techlab')
    }
  })

  it('does not find a course under another author, an unknown id, or a draft', async () => {
    const courseId = TIED_IDS[0] ?? ''
    expect(await findPublishedCourse(database.db, { username: 'sakura_dev', courseId })).toBe(
      undefined,
    )
    expect(
      await findPublishedCourse(database.db, { username: 'techlab', courseId: 'nope' }),
    ).toBeUndefined()
    expect(
      await findPublishedCourse(database.db, {
        username: 'techlab',
        courseId: 'draft00000000001',
      }),
    ).toBeUndefined()
  })
})

describe('listCoursesByAuthor', () => {
  it('lists only that author’s published courses, newest first', async () => {
    const courses = await listCoursesByAuthor(database.db, 'Sakura_Dev')
    expect(courses).toHaveLength(demoCourses.filter((c) => c.author === 'sakura_dev').length)
    for (const course of courses) expect(course.author.username).toBe('sakura_dev')
    const times = courses.map((course) => course.publishedAt)
    expect(times).toEqual([...times].sort((a, b) => b - a))
  })
})

describe('catalogue filters', () => {
  /** Tags the tied courses: the first two get `kotlin`, the third `svelte` (tags no demo course has), and one of each level. */
  beforeAll(async () => {
    const [first, second, third] = TIED_IDS
    await replaceItemTags(
      database.db,
      'course_tags',
      first ?? '',
      ['kotlin', 'beginner-friendly'],
      NOW,
    )
    await replaceItemTags(database.db, 'course_tags', second ?? '', ['kotlin'], NOW)
    await replaceItemTags(database.db, 'course_tags', third ?? '', ['svelte'], NOW)
    await database.db
      .updateTable('courses')
      .set({ level: 'advanced', access: 'premium' })
      .where('id', '=', second ?? '')
      .execute()
  })

  const list = (filters: Record<string, string>, limit = 50) =>
    listPublishedCourses(database.db, catalogueQuery.parse({ ...filters, limit }))

  it('narrows to a tag, matched after normalising what was typed', async () => {
    for (const typed of ['kotlin', 'Kotlin', 'ＫＯＴＬＩＮ']) {
      const page = await list({ tag: typed })
      expect(page.items.map((item) => item.id).sort(), typed).toEqual(
        [TIED_IDS[0], TIED_IDS[1]].sort(),
      )
    }
    expect((await list({ tag: 'ruby' })).items).toEqual([])
  })

  it('narrows by level and by access, and combines filters', async () => {
    const advanced = await list({ level: 'advanced' })
    expect(advanced.items.map((item) => item.id)).toContain(TIED_IDS[1])
    for (const item of advanced.items) expect(item.level).toBe('advanced')
    for (const item of (await list({ access: 'premium' })).items)
      expect(item.access).toBe('premium')
    for (const item of (await list({ access: 'free' })).items) expect(item.access).toBe('free')
    expect((await list({ tag: 'kotlin', level: 'advanced' })).items.map((i) => i.id)).toEqual([
      TIED_IDS[1],
    ])
    expect((await list({ tag: 'kotlin', access: 'free' })).items.map((i) => i.id)).toEqual([
      TIED_IDS[0],
    ])
  })

  it('pages through a filtered list without losing or repeating a course', async () => {
    const seen: string[] = []
    let cursor: string | undefined
    do {
      const page = await list({ tag: 'kotlin', ...(cursor && { cursor }) }, 1)
      seen.push(...page.items.map((item) => item.id))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(seen).toEqual([TIED_IDS[1], TIED_IDS[0]])
  })

  it('treats an empty filter as none and refuses values that are not filters', () => {
    expect(catalogueQuery.parse({ tag: '', level: '', access: '' })).toMatchObject({
      tag: undefined,
      level: undefined,
      access: undefined,
    })
    expect(catalogueQuery.safeParse({ level: 'expert' }).success).toBe(false)
    expect(catalogueQuery.safeParse({ access: 'gold' }).success).toBe(false)
    expect(catalogueQuery.safeParse({ tag: '<script>' }).success).toBe(false)
  })

  it('gives every card its tags in the author’s order, and lists the tags in use', async () => {
    const page = await list({})
    const first = page.items.find((item) => item.id === TIED_IDS[0])
    expect(first?.tags).toEqual(['kotlin', 'beginner-friendly'])
    expect(page.items.find((item) => item.id === TIED_IDS[3])?.tags).toEqual([])
    const tags = await listCatalogueTags(database.db)
    const uses = new Map<string, number>()
    for (const tag of demoCourses.flatMap((course) => course.tags))
      uses.set(tag, (uses.get(tag) ?? 0) + 1)
    const mostUsed = [...uses].sort((a, b) => b[1] - a[1])[0]
    expect(tags[0]).toBe(mostUsed?.[0])
    expect(tags).toEqual(expect.arrayContaining(['kotlin', 'svelte', 'beginner-friendly']))
    expect(tags.indexOf('kotlin')).toBeLessThan(tags.indexOf('svelte'))
  })
})
