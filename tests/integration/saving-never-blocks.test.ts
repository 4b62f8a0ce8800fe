import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MARKDOWN_IMAGES_UNREADABLE_MESSAGE } from '#features/images/uploaded-image.server.ts'
import { MARKDOWN_MAX_LENGTH } from '#features/markdown/limits.ts'
import {
  MARKDOWN_BRACKETS_MESSAGE,
  MARKDOWN_EMPHASIS_MESSAGE,
  MARKDOWN_HTML_NESTING_MESSAGE,
  MARKDOWN_NESTING_MESSAGE,
  MARKDOWN_STRIKETHROUGH_MESSAGE,
} from '#features/markdown/structure.ts'
import { COMMENT_MAX_LENGTH } from '#features/social/comment-input.ts'
import { callApi } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Texts that stress a Markdown parser, saved in every kind of content that holds Markdown:
 * while each save is under way the site keeps answering, and each save either stores the
 * whole text or is refused with a Japanese field error, storing nothing.
 */

let server: TestServer
type Person = { username: string; cookie: string }

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

/** `unit` repeated up to `size` characters. */
const fill = (unit: string, size: number) => unit.repeat(Math.floor(size / unit.length))

/**
 * The stressing shapes at a kind's size limit. Each opens with an image, so the save-time
 * check of a body's images reads the whole text.
 */
function stressingTexts(size: number): [string, string][] {
  const image = '![図](https://example.com/zu.png)\n\n'
  const room = size - image.length
  const shapes: [string, string][] = [
    ['~~a (reported)', fill('~~a', Math.min(room, 90_000))],
    ['~ marks per paragraph', fill(`${'~~a'.repeat(500)}\n\n`, room)],
    ['a run of ~', '~'.repeat(room)],
    ['* marks per paragraph', fill(`${'*a'.repeat(500)}\n\n`, room)],
    ['a run of *', '*'.repeat(room)],
    ['_ marks per paragraph', fill(`${'_a'.repeat(500)}\n\n`, room)],
    ['[ per paragraph', fill(`${'[a'.repeat(500)}\n\n`, room)],
    ['a run of [', '['.repeat(room)],
    ['backticks', fill('`a', room)],
    ['a run of backticks', '`'.repeat(room)],
    ['deep quotes', fill(`${'>'.repeat(32)} a\n`, room)],
    ['deep lists', fill(`${'- '.repeat(21)}a\n`, room)],
    ['many paragraphs', fill('a\n\n', room)],
    ['<div> nesting', '<div>'.repeat(Math.floor(room / 5))],
  ]
  return shapes.map(([name, text]) => [name, image + text])
}

const REFUSALS = [
  MARKDOWN_IMAGES_UNREADABLE_MESSAGE,
  MARKDOWN_STRIKETHROUGH_MESSAGE,
  MARKDOWN_EMPHASIS_MESSAGE,
  MARKDOWN_BRACKETS_MESSAGE,
  MARKDOWN_NESTING_MESSAGE,
  MARKDOWN_HTML_NESTING_MESSAGE,
]

/**
 * `save()` while /healthz is asked every 10 ms: each ping's delay is counted from when it was
 * due, so a blocked event loop shows however the block and the pings interleave.
 */
/**
 * Saves while pinging /healthz, each ping's delay pushed to `delays`, and the CPU time the main
 * thread (where the server's requests are handled, in this process) spent meanwhile pushed to
 * `mainThreadMs`: unlike a ping's delay, that does not grow when the machine is busy elsewhere.
 */
async function savedWhilePinging<T>(
  save: () => Promise<T>,
  delays: number[],
  mainThreadMs: number[],
): Promise<T> {
  const cpu = process.threadCpuUsage()
  let done = false
  const saving = save().finally(() => {
    done = true
  })
  let due = performance.now()
  while (!done) {
    // A ping the server gave up on (408, or a reset connection, after a long block) counts as
    // never answered.
    const answered = await fetch(`${server.url}/healthz`).then(
      async (health) => {
        await health.arrayBuffer()
        return health.status === 200
      },
      () => false,
    )
    delays.push(answered ? performance.now() - due : Number.POSITIVE_INFINITY)
    await new Promise((resolve) => setTimeout(resolve, 10))
    due = performance.now()
  }
  const used = process.threadCpuUsage(cpu)
  mainThreadMs.push((used.user + used.system) / 1000)
  return saving
}

type Answer = Pick<Awaited<ReturnType<typeof callApi>>, 'status' | 'body'>

type Kind = {
  size: number
  field: string
  /** Whether a save reads the body's images (the kinds whose bodies may show uploads). */
  readsImages: boolean
  /** Saves `text`; the answer, and the stored text when it was saved. */
  save(author: Person, text: string): Promise<Answer>
  /** The text stored by a successful save's answer. */
  stored(answer: Answer['body']): Promise<string | undefined>
  /** How many texts of this kind are stored (a refused save must not change it). */
  count(): Promise<unknown>
}

const db = () => server.database.db

async function publishedStudy(author: Person): Promise<string> {
  const created = await call('POST', '/studies', author.cookie, { title: '土台', notes: '' })
  const published = await call('POST', `/studies/${created.body.id}/publish`, author.cookie, {
    revision: created.body.revision,
  })
  expect(published.status).toBe(200)
  return created.body.id
}

/** The stored text of one row, by id. */
const textOf = async (table: Table, column: string, id: string) =>
  (
    await db()
      .selectFrom(table)
      .select(sql<string>`${sql.ref(column)}`.as('text'))
      .where('id', '=', id)
      .executeTakeFirst()
  )?.text

type Table = 'studies' | 'lessons' | 'labs' | 'lab_stories' | 'questions' | 'comments'

const countOf = async (table: Exclude<Table, 'lessons'>) =>
  (await db().selectFrom(table).select(db().fn.countAll().as('n')).executeTakeFirstOrThrow()).n

const KINDS: Record<string, Kind> = {
  studies: {
    size: MARKDOWN_MAX_LENGTH,
    field: 'notes',
    readsImages: true,
    save: (author, notes) => call('POST', '/studies', author.cookie, { title: 'ノート', notes }),
    stored: (answer) => textOf('studies', 'body', answer.id),
    count: () => countOf('studies'),
  },
  lessons: {
    size: MARKDOWN_MAX_LENGTH,
    field: 'body',
    readsImages: true,
    async save(author, body) {
      const course = await call('POST', '/courses', author.cookie, { title: 'コース' })
      const section = await call('POST', `/courses/${course.body.id}/sections`, author.cookie, {
        title: '第 1 章',
        revision: course.body.revision,
      })
      const lesson = await call('POST', `/courses/${course.body.id}/lessons`, author.cookie, {
        sectionId: section.body.sectionId,
        title: 'レッスン',
        revision: section.body.revision,
      })
      const path = `/courses/${course.body.id}/lessons/${lesson.body.lessonId}`
      const saved = await call('PUT', path, author.cookie, {
        title: 'レッスン',
        body,
        access: 'free',
        revision: 1,
      })
      return { status: saved.status, body: { ...saved.body, lessonId: lesson.body.lessonId } }
    },
    stored: (answer) => textOf('lessons', 'body', answer.lessonId),
    // A refused lesson keeps the empty body it was created with.
    count: async () =>
      (
        await db()
          .selectFrom('lessons')
          .select(db().fn.countAll().as('n'))
          .where('body', '!=', '')
          .executeTakeFirstOrThrow()
      ).n,
  },
  labs: {
    size: MARKDOWN_MAX_LENGTH,
    field: 'description',
    readsImages: true,
    save: (author, description) =>
      call('POST', '/labs', author.cookie, { title: 'ラボ', description }),
    stored: (answer) => textOf('labs', 'description', answer.id),
    count: () => countOf('labs'),
  },
  stories: {
    size: MARKDOWN_MAX_LENGTH,
    field: 'body',
    readsImages: true,
    save: (author, body) => call('POST', '/labs_stories', author.cookie, { title: '話', body }),
    stored: (answer) => textOf('lab_stories', 'body', answer.id),
    count: () => countOf('lab_stories'),
  },
  questions: {
    size: MARKDOWN_MAX_LENGTH,
    field: 'prompt',
    readsImages: false,
    async save(author, prompt) {
      const study = await call('POST', '/studies', author.cookie, { title: '問題集', notes: '' })
      return call('POST', `/studies/${study.body.id}/questions`, author.cookie, {
        kind: 'single',
        prompt,
        explanation: prompt,
        options: [
          { id: 'a', text: 'はい', correct: true },
          { id: 'b', text: 'いいえ', correct: false },
        ],
      })
    },
    stored: (answer) => textOf('questions', 'prompt', answer.id),
    count: () => countOf('questions'),
  },
  comments: {
    size: COMMENT_MAX_LENGTH,
    field: 'body',
    readsImages: false,
    async save(author, body) {
      const studyId = await publishedStudy(author)
      return call('POST', `/comments/study/${studyId}`, author.cookie, { body })
    },
    stored: (answer) => textOf('comments', 'body', answer.id),
    count: () => countOf('comments'),
  },
}

beforeAll(async () => {
  // A short deadline keeps the test short; what it checks is the same at any length.
  server = await startTestServer({ MARKDOWN_RENDER_DEADLINE_MS: '1000' })
})
afterAll(async () => {
  await server?.close()
})

describe('saving text never blocks the site', () => {
  it.each(Object.keys(KINDS))(
    'keeps /healthz answering while %s holding parser-stressing Markdown are saved',
    async (name) => {
      const kind = KINDS[name] as Kind
      const author = await newSignedInUser(server, `stress_${name}`)
      const delays: number[] = []
      const mainThreadMs: number[] = []
      const outcomes: string[] = []
      const refusals = new Map<string, string>()
      for (const [shape, text] of stressingTexts(kind.size)) {
        expect(text.length).toBeLessThanOrEqual(kind.size)
        const before = await kind.count()
        const answer = await savedWhilePinging(() => kind.save(author, text), delays, mainThreadMs)
        if (answer.status === 400) {
          // Refused whole, with a reason the author can act on, and nothing written.
          expect(answer.body.error.code, shape).toBe('VALIDATION_FAILED')
          const messages = answer.body.error.fields[kind.field] as string[]
          expect(messages.length, shape).toBe(1)
          expect(REFUSALS, shape).toContain(messages[0])
          expect(await kind.count(), shape).toEqual(before)
          outcomes.push(`${shape}: refused`)
          refusals.set(shape, messages[0] as string)
        } else {
          expect([200, 201], `${shape}: ${JSON.stringify(answer.body)}`).toContain(answer.status)
          // Comments are trimmed before they are stored; nothing else changes a text.
          const stored = await kind.stored(answer.body)
          expect(stored === text || stored === text.trim(), shape).toBe(true)
          outcomes.push(`${shape}: saved`)
        }
      }
      // Lists this deep parse for far longer than the deadline: the save gives up in time,
      // and says so. (Comments and questions are not read at save.)
      if (kind.readsImages) {
        expect(refusals.get('deep lists')).toBe(MARKDOWN_IMAGES_UNREADABLE_MESSAGE)
      }
      // The reported text took 10 to 40 s of the request thread's CPU, and /healthz waited as
      // long. Off it, a whole save (pings included) costs that thread a small fraction of a
      // second, so no request can wait behind it for longer. Pings are answered all along; how
      // fast depends on what else the machine runs (CI runs other suites beside this one), so
      // their bound only tells a freeze from a busy machine.
      const report = `${outcomes.join(', ')}; main thread ms ${mainThreadMs.map((ms) => ms.toFixed(0)).join(' ')}; delays ${delays.map((delay) => delay.toFixed(0)).join(' ')}`
      expect(Math.max(...mainThreadMs), report).toBeLessThan(1000)
      expect(delays.length, report).toBeGreaterThan(0)
      expect(Math.max(...delays), report).toBeLessThan(5000)
    },
    180_000,
  )
})
