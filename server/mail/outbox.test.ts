import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { dueForDelivery, enqueue, listOutbox, timeOrderedId } from './outbox.ts'

describe('timeOrderedId', () => {
  it('makes UUIDv7s that sort in the order they were made, even within a millisecond', () => {
    const now = Date.now()
    const ids = Array.from({ length: 10_000 }, () => timeOrderedId(now))
    expect(new Set(ids).size).toBe(ids.length)
    expect([...ids].sort()).toEqual(ids)
    for (const id of ids.slice(0, 10)) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    }
  })
})

describe('the outbox', () => {
  let database: TemporaryDatabase
  beforeEach(async () => {
    database = await openTemporaryDatabase()
  })
  afterEach(async () => {
    await database.remove()
  })

  it('lists the newest first, also among messages written in the same millisecond', async () => {
    const now = Date.now()
    for (const subject of ['1', '2', '3', '4', '5']) {
      await enqueue(database.db, { to: 'a@example.com', subject, text: subject }, now)
    }
    const subjects = (await listOutbox(database.db)).map((message) => message.subject)
    expect(subjects).toEqual(['5', '4', '3', '2', '1'])
  })

  it('is due for delivery on a doubling schedule, up to the last attempt', async () => {
    const schedule = { baseDelayMs: 1_000, maxAttempts: 4, maxAgeMs: 100_000 }
    const created = 1_000_000
    const id = await enqueue(database.db, { to: 'a@example.com', subject: 's', text: 't' }, created)
    const dueAt = async (attempts: number) => {
      await database.db.updateTable('mail_outbox').set({ attempts }).where('id', '=', id).execute()
      for (let at = created; at <= created + 20_000; at += 500) {
        if ((await dueForDelivery(database.db, schedule, at)).length > 0) return at - created
      }
      return undefined
    }
    expect(await dueAt(0)).toBe(1_000)
    expect(await dueAt(1)).toBe(1_000)
    expect(await dueAt(2)).toBe(3_000)
    expect(await dueAt(3)).toBe(7_000)
    expect(await dueAt(4)).toBeUndefined()
  })
})
