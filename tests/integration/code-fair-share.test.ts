import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { callApi } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * The code sandbox's fair share through /api on the real server: learners who flood it are
 * told to come back later (503 BUSY, Retry-After, a Japanese message), and a learner who does
 * not is still verified; an author's checks of their own draft take the author's share.
 */

let server: TestServer

beforeAll(async () => {
  server = await startTestServer({
    // The per-minute answer limits out of the way: the fair queue is what is tested.
    EXERCISE_ANSWERS_PER_USER_PER_MINUTE: '10000',
    CODE_SUBMISSIONS_PER_USER_PER_MINUTE: '10000',
    CODE_SANDBOX_JS_WORKERS: '1',
    CODE_SANDBOX_RUN_SECONDS_PER_LEARNER_PER_MINUTE: '2',
    CODE_SANDBOX_QUEUED_PER_LEARNER: '2',
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

type Person = Awaited<ReturnType<typeof newSignedInUser>>
type Answer = Awaited<ReturnType<typeof callApi>>

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

const question = {
  kind: 'code',
  prompt: '1 を足して出力してください',
  explanation: '',
  language: 'javascript',
  referenceSolution: 'console.log(Number(input()) + 1)',
  timeLimitMs: 1000,
  tests: [{ name: '1 に足す', stdin: '1', expectedOutput: '2' }],
}

/** A study of the author's with one code question, published or left a draft. */
async function studyWith(author: Person, fields: Record<string, unknown>, publish: boolean) {
  const study = await call('POST', '/studies', author.cookie, {
    title: '公平に実行する',
    summary: '',
    notes: '',
    tags: [],
  })
  expect(study.status).toBe(201)
  const created = await call('POST', `/studies/${study.body.id}/questions`, author.cookie, {
    ...question,
    ...fields,
  })
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  if (publish) {
    const published = await call('POST', `/studies/${study.body.id}/publish`, author.cookie, {
      revision: study.body.revision,
    })
    expect(published.status, JSON.stringify(published.body)).toBe(200)
  }
  return created.body.id as string
}

/** A program that holds the worker for its whole time limit; `mark` makes each one new. */
const looping = (mark: string) => `// ${mark}\nwhile (true) {}`

function expectBusy(answer: Answer) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(503)
  expect(answer.body.error).toMatchObject({
    code: 'BUSY',
    message: expect.stringContaining('混み合っています'),
    retryAfterSeconds: expect.any(Number),
  })
  const retryAfter = Number(answer.headers.get('retry-after'))
  expect(retryAfter).toBe(answer.body.error.retryAfterSeconds)
  expect(retryAfter).toBeGreaterThanOrEqual(1)
  expect(retryAfter).toBeLessThanOrEqual(60)
  expect(answer.body.error.message).toContain(`${retryAfter} 秒`)
}

describe('the code sandbox’s fair share', () => {
  it('turns away four flooding accounts with 503 and still verifies a fifth learner', async () => {
    const author = await newSignedInUser(server, 'fair_author')
    // Loops of three seconds: behind eight of them in one FIFO, a run waits past the 20 s wait.
    const questionId = await studyWith(author, { timeLimitMs: 3_000 }, true)
    const flooders = await Promise.all([1, 2, 3, 4].map(() => newSignedInUser(server, 'flooder')))
    const learner = await newSignedInUser(server, 'patient')

    const submit = (person: Person, code: string) =>
      call('POST', `/questions/${questionId}/answers`, person.cookie, { kind: 'code', code })
    const flood = flooders.flatMap((flooder) =>
      Array.from({ length: 10 }, (_, index) =>
        submit(flooder, looping(`${flooder.username} ${index}`)),
      ),
    )
    // Once eight loops are in the sandbox (the flooders' whole share here), the learner submits.
    await vi.waitFor(
      () => {
        const { queued, busy } = server.app.codeSandbox.stats().javascript
        expect(queued + busy).toBeGreaterThanOrEqual(8)
      },
      { timeout: 30_000 },
    )
    // Not the reference solution, whose verdict the publish left in the cache: this one runs.
    const theirs = await submit(learner, 'const n = Number(input())\nconsole.log(n + 1)')
    expect(theirs.status, JSON.stringify(theirs.body)).toBe(201)
    expect(theirs.body).toMatchObject({ verdict: 'correct' })

    const answers = await Promise.all(flood)
    const refused = answers.filter((answer) => answer.status === 503)
    // Each flooder's queue holds two and their budget two seconds: most of the forty are refused.
    expect(refused.length).toBeGreaterThanOrEqual(20)
    for (const answer of refused) expectBusy(answer)
    // The rest were verified: looping, so judged incorrect, never an error of the server.
    for (const answer of answers.filter((answer) => answer.status !== 503)) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201)
      expect(answer.body.verdict).toBe('incorrect')
    }
    // Every flooder was refused, each for their own share.
    for (const flooder of flooders) {
      expectBusy(await submit(flooder, looping(`${flooder.username} again`)))
    }
    // The learner, who did not flood, is still served.
    const again = await submit(learner, 'console.log(Number(input()) + 1) // again')
    expect(again.status, JSON.stringify(again.body)).toBe(201)
  }, 120_000)

  it("counts an author's checks of their own draft against the author's share", async () => {
    const author = await newSignedInUser(server, 'draft_author')
    // The longest limit there is, on a draft only its author can run.
    const questionId = await studyWith(
      author,
      { timeLimitMs: 10_000, referenceSolution: looping('reference') },
      false,
    )
    const checks: Answer[] = []
    for (let attempt = 0; attempt < 3; attempt++) {
      const check = await call('POST', `/questions/${questionId}/reference-check`, author.cookie)
      checks.push(check)
      if (check.status !== 200) break
    }
    // The first check held the worker its ten seconds: the author's two are spent.
    expect(checks[0]?.status, JSON.stringify(checks[0]?.body)).toBe(200)
    expect(checks[0]?.body.passed).toBe(false)
    expectBusy(checks[1] as Answer)
    // Answering their own draft is on the same share.
    expectBusy(
      await call('POST', `/questions/${questionId}/answers`, author.cookie, {
        kind: 'code',
        code: 'console.log(2)',
      }),
    )
    // Someone else's runs are not.
    const other = await newSignedInUser(server, 'other_author')
    const theirs = await studyWith(other, {}, false)
    const check = await call('POST', `/questions/${theirs}/reference-check`, other.cookie)
    expect(check.status, JSON.stringify(check.body)).toBe(200)
    expect(check.body.passed).toBe(true)
  }, 60_000)

  it('turns away a guest flooding /example by their address, in Japanese', async () => {
    const answers: Answer[] = []
    for (let attempt = 0; attempt < 5; attempt++) {
      const answer = await call('POST', '/example/questions/sample-js-sum/answers', undefined, {
        kind: 'code',
        code: looping(`guest ${attempt}`),
      })
      answers.push(answer)
      if (answer.status !== 200) break
    }
    expect(answers[0]?.status).toBe(200)
    expectBusy(answers.at(-1) as Answer)
  }, 60_000)
})
