import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Exercises through /api on the real server, its code sandbox included: what learners are sent,
 * grading, the forged "solved", revisions, the premium lock, size limits and the answer limit.
 */

const ANSWERS_PER_MINUTE = 10
let server: TestServer

beforeAll(async () => {
  server = await startTestServer({
    EXERCISE_ANSWERS_PER_USER_PER_MINUTE: String(ANSWERS_PER_MINUTE),
    CODE_SANDBOX_JS_WORKERS: '1',
    CODE_SANDBOX_PYTHON_WORKERS: '1',
  })
}, 60_000)
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, cookie?: string, body?: unknown) =>
  callApi(server.url, method, path, cookie, body)

type Person = Awaited<ReturnType<typeof newSignedInUser>>

/** What must never reach a learner (which option is correct: no `correct` field at all). */
const SECRET = {
  accepted: 'ひみつのこたえ',
  pattern: 'ひみつ[0-9]+',
  reference: 'REFERENCE_SOLUTION_MARK',
  hiddenStdin: '9001',
  hiddenOutput: '9002',
}

const questions = {
  single: {
    kind: 'single',
    prompt: '正しいものを選んでください',
    explanation: '解説：単一選択',
    options: [
      { id: 'right', text: 'せいかい', correct: true },
      { id: 'wrong', text: 'まちがい', correct: false },
    ],
  },
  multiple: {
    kind: 'multiple',
    prompt: '正しいものをすべて選んでください',
    explanation: '解説：複数選択',
    options: [
      { id: 'a', text: 'A', correct: true },
      { id: 'b', text: 'B', correct: true },
      { id: 'c', text: 'C', correct: false },
    ],
  },
  text: {
    kind: 'text',
    prompt: '答えを書いてください',
    explanation: '解説：記述',
    acceptedAnswers: [SECRET.accepted],
    pattern: SECRET.pattern,
  },
  code: {
    kind: 'code',
    prompt: '1 を足して出力してください',
    explanation: '解説：コード',
    language: 'javascript',
    starterCode: 'const n = Number(input())\n',
    referenceSolution: `// ${SECRET.reference}\nconsole.log(Number(input()) + 1)`,
    timeLimitMs: 1000,
    tests: [
      { name: '1 に足す', stdin: '1', expectedOutput: '2' },
      {
        name: 'ひみつ',
        stdin: SECRET.hiddenStdin,
        expectedOutput: SECRET.hiddenOutput,
        hidden: true,
      },
    ],
  },
} as const

/** A new draft study of `author`'s. */
async function newStudy(author: Person, title: string) {
  const study = await call('POST', '/studies', author.cookie, {
    title,
    summary: '',
    notes: '',
    tags: [],
  })
  expect(study.status).toBe(201)
  return study
}

/** A published study by a new author with one question of each kind; ids by kind. */
async function publishedSet(extra: Record<string, unknown> = {}) {
  const author = await newSignedInUser(server, 'mina')
  const study = await newStudy(author, '練習問題セット')
  const studyId = study.body.id as string
  const ids: Record<keyof typeof questions, string> = {
    single: '',
    multiple: '',
    text: '',
    code: '',
  }
  for (const kind of Object.keys(questions) as (keyof typeof questions)[]) {
    const created = await call('POST', `/studies/${studyId}/questions`, author.cookie, {
      ...questions[kind],
      ...extra,
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    ids[kind] = created.body.id
  }
  const published = await call('POST', `/studies/${studyId}/publish`, author.cookie, {
    revision: study.body.revision,
  })
  expect(published.status, JSON.stringify(published.body)).toBe(200)
  return { author, studyId, ids, setPath: `/users/${author.username}/studies/${studyId}/exercises` }
}

const answer = (learner: Person, questionId: string, body: unknown) =>
  call('POST', `/questions/${questionId}/answers`, learner.cookie, body)

describe('exercise API', () => {
  it('sends learners nothing that gives an answer away, before or after answering', async () => {
    const { setPath, ids, author, studyId } = await publishedSet()
    const learner = await newSignedInUser(server, 'ren')
    for (const cookie of [undefined, learner.cookie]) {
      const set = await call('GET', setPath, cookie)
      expect(set.status).toBe(200)
      const sent = JSON.stringify(set.body)
      for (const secret of Object.values(SECRET)) expect(sent).not.toContain(secret)
      expect(sent).not.toContain('"correct"')
      expect(
        set.body.questions.map(
          (question: { explanationHtml: unknown }) => question.explanationHtml,
        ),
      ).toEqual([null, null, null, null])
      expect(set.body.questions[3].content).toMatchObject({
        kind: 'code',
        visibleTests: [{ name: '1 に足す', stdin: '1', expectedOutput: '2' }],
        hiddenTestCount: 1,
        timeLimitMs: 1000,
      })
    }
    const wrong = await answer(learner, ids.code, { kind: 'code', code: 'console.log(2)' })
    expect(wrong.status).toBe(201)
    const after = JSON.stringify([wrong.body, (await call('GET', setPath, learner.cookie)).body])
    for (const secret of Object.values(SECRET)) expect(after).not.toContain(secret)
    expect(after).toContain('解説：コード')
    // The author's editor reads everything; a learner cannot open it.
    const editor = await call('GET', `/studies/${studyId}/questions`, author.cookie)
    expect(editor.status).toBe(200)
    expect(JSON.stringify(editor.body)).toContain(SECRET.reference)
    expect(JSON.stringify(editor.body)).toContain(SECRET.hiddenOutput)
    expect((await call('GET', `/studies/${studyId}/questions`, learner.cookie)).status).toBe(403)
  }, 60_000)

  it('grades wrong then right for every kind, and the history and /exercises show it', async () => {
    const { ids, studyId, author } = await publishedSet()
    const learner = await newSignedInUser(server, 'aoi')
    const attempts: [string, unknown, unknown][] = [
      [ids.single, { kind: 'single', optionId: 'wrong' }, { kind: 'single', optionId: 'right' }],
      [
        ids.multiple,
        { kind: 'multiple', optionIds: ['a', 'c'] },
        { kind: 'multiple', optionIds: ['b', 'a'] },
      ],
      [ids.text, { kind: 'text', text: 'ちがう' }, { kind: 'text', text: ' ひみつ42 ' }],
      [
        ids.code,
        { kind: 'code', code: 'while (true) {}' },
        { kind: 'code', code: 'console.log(+input() + 1)' },
      ],
    ]
    for (const [id, bad, good] of attempts) {
      const first = await answer(learner, id, bad)
      expect(first.status).toBe(201)
      expect(first.body).toMatchObject({
        verdict: 'incorrect',
        status: 'attempted',
        firstSolve: false,
      })
      const second = await answer(learner, id, good)
      expect(second.body).toMatchObject({ verdict: 'correct', status: 'solved', firstSolve: true })
    }
    const loop = await call('GET', `/questions/${ids.code}/attempts`, learner.cookie)
    expect(loop.body.items.map((item: { verdict: string }) => item.verdict)).toEqual([
      'correct',
      'incorrect',
    ])

    const summary = await call('GET', '/histories/summary', learner.cookie)
    expect(summary.body.totals.exercisesSolved).toBe(4)
    expect(summary.body.streaks.current).toBe(1)
    const solved = await call('GET', '/exercises?status=solved', learner.cookie)
    expect(solved.body.items.map((card: { id: string }) => card.id)).toEqual(Object.values(ids))
    const study = await call('GET', `/users/${author.username}/studies/${studyId}`, learner.cookie)
    expect(study.body.exercises).toEqual({ solved: 4, total: 4 })
  }, 60_000)

  it('refuses a forged "solved": only the server’s re-run decides', async () => {
    const { ids, setPath } = await publishedSet()
    const learner = await newSignedInUser(server, 'kai')
    // A verdict, a pass flag or test results in the request are not part of an answer.
    const forged = await answer(learner, ids.code, {
      kind: 'code',
      code: 'console.log(2)',
      verdict: 'correct',
      passed: true,
      status: 'solved',
      tests: [{ passed: true }, { passed: true }],
    })
    expect(forged.status).toBe(201)
    expect(forged.body).toMatchObject({
      verdict: 'incorrect',
      status: 'attempted',
      firstSolve: false,
    })
    const noCode = await answer(learner, ids.code, { kind: 'code', solved: true })
    expect(noCode.status).toBe(400)
    expect(noCode.body.error.fields.code).toBeDefined()
    // No route writes a status: the learner's set still shows it unsolved, no history event.
    for (const [method, path] of [
      ['PUT', `/questions/${ids.code}/status`],
      ['POST', `/questions/${ids.code}/solved`],
    ] as const) {
      expect((await call(method, path, learner.cookie, { status: 'solved' })).status).toBe(404)
    }
    const set = await call('GET', setPath, learner.cookie)
    expect(set.body.questions[3].status).toBe('attempted')
    expect(set.body.solved).toBe(0)
    const summary = await call('GET', '/histories/summary', learner.cookie)
    expect(summary.body.totals.exercisesSolved).toBe(0)
  }, 60_000)

  it('tells a learner only how many hidden tests passed: no name, order, outcome or time of any', async () => {
    const author = await newSignedInUser(server, 'hana')
    const study = await newStudy(author, '非公開テストの練習')
    const hidden = (stdin: string, expectedOutput: string) => ({
      name: `ひみつ${stdin}`,
      stdin,
      expectedOutput,
      hidden: true,
    })
    // The visible example sits between hidden tests, as an author may order them.
    const created = await call('POST', `/studies/${study.body.id}/questions`, author.cookie, {
      kind: 'code',
      prompt: '2 倍して出力してください',
      language: 'javascript',
      referenceSolution: 'console.log(Number(input()) * 2)',
      timeLimitMs: 500,
      tests: [
        hidden('7301', '14602'),
        { name: '例', stdin: '1', expectedOutput: '2' },
        hidden('7302', '14604'),
        hidden('7303', '14606'),
      ],
    })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const questionId = created.body.id as string
    const published = await call('POST', `/studies/${study.body.id}/publish`, author.cookie, {
      revision: study.body.revision,
    })
    expect(published.status, JSON.stringify(published.body)).toBe(200)

    const learner = await newSignedInUser(server, 'riku')
    /** The answer's verdict, message and feedback, checked to carry nothing per hidden test. */
    const submit = async (code: string) => {
      const sent = await answer(learner, questionId, { kind: 'code', code })
      expect(sent.status, JSON.stringify(sent.body)).toBe(201)
      const { verdict, message, feedback } = sent.body
      const told = JSON.stringify({ verdict, message, feedback })
      for (const secret of ['730', '1460', 'ひみつ', 'durationMs', '"hidden"', '非公開テスト 1']) {
        expect(told).not.toContain(secret)
      }
      expect(feedback.tests.map((test: { name: string }) => test.name)).toEqual(['例'])
      return { verdict, message, feedback }
    }
    const double = 'const n = Number(input())\n'
    const counted = (passed: number) => ({
      total: 3,
      passed,
      allPassed: passed === 3,
      message: null,
    })

    const wrong = await submit(`${double}console.log(n === 7302 ? 0 : n * 2)`)
    expect(wrong.verdict).toBe('incorrect')
    expect(wrong.message).toBe('不正解です。4 件中 3 件のテストに合格しました')
    expect(wrong.feedback.hiddenTests).toEqual(counted(2))
    // Failing another hidden test, another way, says exactly the same.
    expect(
      await submit(`${double}if (n === 7303) throw new Error('x')\nconsole.log(n * 2)`),
    ).toEqual(wrong)

    // A program that loops on one hidden input: no count (it would say how many ran before the
    // loop), and the visible example ran whatever the author's order.
    const loopsOn = (stdin: string) =>
      submit(`${double}while (n === ${stdin}) {}\nconsole.log(n * 2)`)
    const loopedLate = await loopsOn('7303')
    expect(loopedLate.feedback).toEqual({
      kind: 'code',
      tests: [expect.objectContaining({ name: '例', passed: true, outcome: 'completed' })],
      hiddenTests: {
        total: 3,
        passed: null,
        allPassed: false,
        message:
          '非公開テストの一部が制限時間（0.5 秒）内に終わりませんでした。無限ループになっていないか確かめてください。',
      },
    })
    expect(await loopsOn('7301')).toEqual(loopedLate)

    const right = await submit('console.log(Number(input()) * 2)')
    expect(right.verdict).toBe('correct')
    expect(right.feedback.hiddenTests).toEqual(counted(3))

    // The author's own check of the reference solution still shows every test in full.
    const check = await call('POST', `/questions/${questionId}/reference-check`, author.cookie)
    expect(check.status).toBe(200)
    expect(
      check.body.tests.map((test: { name: string; hidden: boolean; stdout: string }) => [
        test.name,
        test.hidden,
        test.stdout,
      ]),
    ).toEqual([
      ['ひみつ7301', true, '14602\n'],
      ['例', false, '2\n'],
      ['ひみつ7302', true, '14604\n'],
      ['ひみつ7303', true, '14606\n'],
    ])
    expect(check.body.tests[0].durationMs).toEqual(expect.any(Number))
  }, 90_000)

  it('refuses a stale revision, someone else’s edit and a failing reference at publish', async () => {
    const { author, ids } = await publishedSet()
    const other = await newSignedInUser(server, 'sora')
    const saved = await call('PUT', `/questions/${ids.single}`, author.cookie, {
      ...questions.single,
      prompt: '改訂',
      revision: 1,
    })
    expect(saved.body).toEqual({ revision: 2 })
    const stale = await call('PUT', `/questions/${ids.single}`, author.cookie, {
      ...questions.single,
      revision: 1,
    })
    expect(stale.status).toBe(409)
    expect(stale.body.error.code).toBe('STALE_REVISION')
    const foreign = await call('PUT', `/questions/${ids.single}`, other.cookie, {
      ...questions.single,
      revision: 2,
    })
    expect(foreign.status).toBe(403)
    expect((await call('GET', `/questions/${ids.single}/draft`, other.cookie)).status).toBe(403)

    const draft = await call('POST', '/studies', author.cookie, {
      title: '壊れた模範解答',
      summary: '',
      notes: '',
      tags: [],
    })
    await call('POST', `/studies/${draft.body.id}/questions`, author.cookie, {
      ...questions.code,
      referenceSolution: 'console.log(0)',
    })
    const refused = await call('POST', `/studies/${draft.body.id}/publish`, author.cookie, {
      revision: 1,
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain(
      '問題 1 の模範解答がテスト「1 に足す」に合格しません',
    )
  }, 60_000)

  it('locks premium questions for the free plan: no prompt in the set or on /exercises, no answer', async () => {
    const { ids, setPath, author } = await publishedSet({ access: 'premium' })
    const learner = await newSignedInUser(server, 'nao')
    const set = await call('GET', setPath, learner.cookie)
    for (const question of set.body.questions) {
      expect(question).toMatchObject({ locked: true, promptHtml: null, content: null })
    }
    expect(JSON.stringify(set.body)).not.toContain('正しいもの')
    const listed = await call('GET', '/exercises?kind=single', learner.cookie)
    const card = listed.body.items.find((item: { id: string }) => item.id === ids.single)
    expect(card).toMatchObject({ locked: true, excerpt: null })
    const locked = await answer(learner, ids.single, { kind: 'single', optionId: 'right' })
    expect(locked.status).toBe(403)
    expect(locked.body.error.code).toBe('LOCKED')
    // Its author reads and answers it.
    const own = await call('GET', setPath, author.cookie)
    expect(own.body.questions[0].locked).toBe(false)
  }, 60_000)

  it('bounds answers: code over 64 KB is a field error, and a flood is limited per learner', async () => {
    const { ids } = await publishedSet()
    const learner = await newSignedInUser(server, 'yuki')
    const big = await answer(learner, ids.code, { kind: 'code', code: 'x'.repeat(65 * 1024) })
    expect(big.status).toBe(400)
    expect(big.body.error.fields.code[0]).toContain('64 KB')
    const statuses: number[] = []
    for (let i = 0; i < ANSWERS_PER_MINUTE + 1; i++) {
      statuses.push(
        (await answer(learner, ids.single, { kind: 'single', optionId: 'wrong' })).status,
      )
    }
    expect(statuses).toEqual([...Array(ANSWERS_PER_MINUTE).fill(201), 429])
    const limited = await answer(learner, ids.single, { kind: 'single', optionId: 'right' })
    expect(limited.body.error.code).toBe('RATE_LIMITED')
    // Someone else is not limited by it; a minute later the learner answers again.
    const other = await newSignedInUser(server, 'rin')
    expect((await answer(other, ids.single, { kind: 'single', optionId: 'right' })).status).toBe(
      201,
    )
    server.clock.advance(61_000)
    expect((await answer(learner, ids.single, { kind: 'single', optionId: 'right' })).status).toBe(
      201,
    )
  }, 60_000)
})
