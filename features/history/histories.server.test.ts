import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import type { Actor } from '#features/actor.ts'
import { insertTestUsers, refused, snapshotTables } from '#features/content-test-support.ts'
import { pageQuery } from '#features/pagination.ts'
import { readOwnProfile, updateOwnProfile } from '#features/users/profiles.server.ts'
import { listHistory, readHistorySummary } from './histories.server.ts'
import { recordHistoryEvent } from './history-events.server.ts'

const NOW = Date.UTC(2026, 10, 23, 9, 0, 0)
const hana: Actor = { userId: 'user-hana', isAdmin: false }

describe.each(testEngines)('histories on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['hana'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('history_events').execute()
    await db.deleteFrom('studies').execute()
    await updateOwnProfile(db, hana, { displayName: 'はな', timeZone: 'Asia/Tokyo' }, NOW)
  })

  async function lessonDoneAt(at: number, subjectId = `lesson-${at}`) {
    await recordHistoryEvent(db, {
      userId: hana.userId,
      kind: 'lesson_done',
      subjectKind: 'lesson',
      subjectId,
      at,
    })
  }

  it('counts days in Tokyo by default: 23:30 and 00:30 JST are a two-day streak', async () => {
    await lessonDoneAt(Date.UTC(2026, 10, 21, 14, 30)) // 23:30 JST on the 21st
    await lessonDoneAt(Date.UTC(2026, 10, 21, 15, 30)) // 00:30 JST on the 22nd
    // 08:59 JST on the 23rd: nothing yet today, the streak is still open.
    const summary = await readHistorySummary(db, hana, Date.UTC(2026, 10, 22, 23, 59))
    expect(summary).toMatchObject({
      timeZone: 'Asia/Tokyo',
      today: '2026-11-23',
      streaks: { current: 2, longest: 2 },
      totals: { events: 2, lessonsDone: 2, published: 0, activeDays: 2 },
    })
    const days = summary.heatmap.flat()
    expect(days.at(-1)).toEqual({ day: '2026-11-23', count: 0 })
    expect(days.filter((day) => day.count > 0)).toEqual([
      { day: '2026-11-21', count: 1 },
      { day: '2026-11-22', count: 1 },
    ])
    // A day later in Tokyo, with nothing done on the 23rd, the streak is broken.
    const later = await readHistorySummary(db, hana, Date.UTC(2026, 10, 23, 15, 0))
    expect(later.streaks).toEqual({ current: 0, longest: 2 })
  })

  it("counts the same instants in the learner's own zone once they change it", async () => {
    await lessonDoneAt(Date.UTC(2026, 10, 21, 14, 30))
    await lessonDoneAt(Date.UTC(2026, 10, 21, 15, 30))
    await updateOwnProfile(db, hana, { displayName: 'はな', timeZone: 'America/New_York' }, NOW)
    // Both are on the 21st in New York (09:30 and 10:30 EST).
    const summary = await readHistorySummary(db, hana, Date.UTC(2026, 10, 22, 12, 0))
    expect(summary).toMatchObject({
      timeZone: 'America/New_York',
      today: '2026-11-22',
      streaks: { current: 1, longest: 1 },
      totals: { activeDays: 1 },
    })
  })

  it('keeps a New York streak across the daylight-saving change in March', async () => {
    await updateOwnProfile(db, hana, { displayName: 'はな', timeZone: 'America/New_York' }, NOW)
    await lessonDoneAt(Date.UTC(2026, 2, 8, 4, 30)) // 23:30 EST on the 7th
    await lessonDoneAt(Date.UTC(2026, 2, 9, 3, 30)) // 23:30 EDT on the 8th, 23 hours later
    const summary = await readHistorySummary(db, hana, Date.UTC(2026, 2, 9, 12, 0))
    expect(summary.streaks).toEqual({ current: 2, longest: 2 })
  })

  it('lists the timeline newest first with its subjects, deleted ones as null', async () => {
    await db
      .insertInto('studies')
      .values({
        id: 'study1',
        owner_id: hana.userId,
        title: '正規表現ノート',
        status: 'published',
        published_at: NOW,
        created_at: NOW,
        updated_at: NOW,
      })
      .execute()
    await recordHistoryEvent(db, {
      userId: hana.userId,
      kind: 'published',
      subjectKind: 'study',
      subjectId: 'study1',
      at: NOW,
    })
    await lessonDoneAt(NOW - 1000, 'gone')
    const first = await listHistory(db, hana, pageQuery.parse({ limit: 1 }))
    expect(first.items).toEqual([
      {
        id: expect.any(String),
        kind: 'published',
        subjectKind: 'study',
        at: NOW,
        subject: { title: '正規表現ノート', path: '/hana/studies/study1' },
      },
    ])
    const second = await listHistory(db, hana, pageQuery.parse({ cursor: first.nextCursor }))
    expect(second.items).toEqual([expect.objectContaining({ kind: 'lesson_done', subject: null })])
    expect(second.nextCursor).toBeNull()
    await refused(listHistory(db, undefined, pageQuery.parse({})), 'SIGN_IN_REQUIRED')
    await refused(readHistorySummary(db, undefined), 'SIGN_IN_REQUIRED')
  })

  it('validates profile edits, refusing unknown zones and bad links without saving', async () => {
    const before = await snapshotTables(db, ['users'])
    const error = await refused(
      updateOwnProfile(db, hana, {
        displayName: ' ',
        bio: 'x'.repeat(301),
        links: ['javascript:alert(1)', 'https://example.com'],
        timeZone: 'Mars/Olympus',
      }),
      'VALIDATION_FAILED',
    )
    expect(Object.keys(error.fields ?? {}).sort()).toEqual([
      'bio',
      'displayName',
      'links.0',
      'timeZone',
    ])
    expect(await snapshotTables(db, ['users'])).toEqual(before)
    await updateOwnProfile(db, hana, {
      displayName: 'はな',
      bio: 'Python を勉強中',
      links: ['https://example.com/hana'],
      timeZone: 'Europe/London',
    })
    expect(await readOwnProfile(db, hana)).toEqual({
      displayName: 'はな',
      bio: 'Python を勉強中',
      links: ['https://example.com/hana'],
      timeZone: 'Europe/London',
    })
  })
})
