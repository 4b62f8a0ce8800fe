import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { lessonUpdate } from '#features/courses/course-input.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { readLessonForViewer } from '#features/courses/lesson-view.server.ts'
import { demoCourses } from './demo-content.ts'
import { demoLessons } from './demo-lessons.ts'
import { seedDemoContent } from './seed.ts'

let database: TemporaryDatabase

beforeAll(async () => {
  database = await openTemporaryDatabase()
  await seedDemoContent(database.db)
})
afterAll(async () => {
  await database.remove()
})

describe('demo lessons', () => {
  it('belong to demo courses that exist (a renamed course would lose them)', () => {
    const titles = new Set(demoCourses.map((course) => course.title))
    for (const title of Object.keys(demoLessons)) expect(titles, title).toContain(title)
  })

  it('fill every demo course, each lesson one the lesson editor would save', () => {
    for (const course of demoCourses) {
      const sections = demoLessons[course.title] ?? []
      expect(sections.flatMap((section) => section.lessons).length, course.title).toBeGreaterThan(0)
      for (const lesson of sections.flatMap((section) => section.lessons)) {
        const saved = lessonUpdate.parse({
          ...lesson,
          access: lesson.access ?? 'free',
          revision: 1,
        })
        expect(saved.body).toBe(lesson.body)
        expect(saved.title).toBe(lesson.title)
      }
    }
  })

  it('open with their text, not a heading repeating the title the lesson page already shows', () => {
    for (const sections of Object.values(demoLessons)) {
      for (const lesson of sections.flatMap((section) => section.lessons)) {
        expect(lesson.body, lesson.title).not.toMatch(/^\s*#\s/)
      }
    }
  })

  it('are seeded in order, readable by a guest in free courses, locked in premium ones', async () => {
    const rows = await database.db
      .selectFrom('courses')
      .innerJoin('users', 'users.id', 'courses.owner_id')
      .select(['courses.id', 'courses.title', 'courses.access', 'users.username'])
      .where('courses.title', 'in', Object.keys(demoLessons))
      .execute()
    expect(rows).toHaveLength(Object.keys(demoLessons).length)
    for (const row of rows) {
      const address = { username: row.username, courseId: row.id }
      const course = await readCourseForViewer(database.db, address, undefined)
      const expected = demoLessons[row.title] ?? []
      expect(
        course.sections.map((section) => section.lessons.map((lesson) => lesson.title)),
      ).toEqual(expected.map((section) => section.lessons.map((lesson) => lesson.title)))
      const first = await readLessonForViewer(
        database.db,
        { ...address, lessonId: course.nextLessonId ?? '' },
        undefined,
      )
      expect(first.lesson.body).toBe(
        row.access === 'premium' ? null : expected[0]?.lessons[0]?.body,
      )
    }
    const python = rows.find((row) => row.title.startsWith('Python 入門'))
    const view = await readCourseForViewer(
      database.db,
      { username: python?.username ?? '', courseId: python?.id ?? '' },
      undefined,
    )
    expect(view.sections[0]?.lessons.map((lesson) => lesson.locked)).toEqual([false, false, true])
  })
})
