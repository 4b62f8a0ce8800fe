import type { Kysely } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { insertTestUsers, refused, testActors } from '#features/content-test-support.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { createStudy, publishStudy } from '#features/studies/study-editing.server.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { memoryRateLimiter } from '#server/rate-limiter.ts'
import { answerQuestion, type ExerciseServices } from './answers.server.ts'
import type { questionFields } from './question-input.ts'
import { createQuestion, updateQuestion } from './questions.server.ts'
import { runReferenceSolution } from './reference-check.server.ts'

// Code questions against the server's real sandbox (QuickJS and Pyodide on worker threads).

const NOW = Date.UTC(2026, 10, 25, 10, 0, 0)
const { author, other: learner } = testActors
const markdown = createMarkdownRenderer()
const sandbox = createCodeSandbox({
  javascriptWorkers: 1,
  pythonWorkers: 1,
  maxQueued: 8,
  maxWaitMs: 60_000,
})
afterAll(async () => {
  await markdown.close()
  await sandbox.close()
})

const sum = {
  kind: 'code',
  prompt: '2 つの整数の和を出力してください',
  explanation: '`Number()` で数にしてから足します',
  language: 'javascript',
  referenceSolution: 'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)',
  timeLimitMs: 1_000,
  tests: [
    { name: '3 と 4', stdin: '3\n4', expectedOutput: '7' },
    { name: '秘密のテスト', stdin: '-5\n10', expectedOutput: '5', hidden: true },
  ],
} satisfies z.input<typeof questionFields>

const greet = {
  kind: 'code',
  prompt: '名前にあいさつしてください',
  language: 'python',
  referenceSolution: 'name = input()\nprint(f"こんにちは、{name}さん")',
  tests: [
    { name: 'さくら', stdin: 'さくら', expectedOutput: 'こんにちは、さくらさん' },
    { name: 'Ken', stdin: 'Ken', expectedOutput: 'こんにちは、Kenさん', hidden: true },
  ],
} satisfies z.input<typeof questionFields>

describe.each(testEngines)('code questions on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let services: ExerciseServices & { markdown: typeof markdown }
  let studyId: string
  let sumId: string
  let greetId: string

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other', 'admin'], NOW)
    services = {
      markdown,
      verifier: sandbox,
      limits: {
        limiter: memoryRateLimiter({ now: () => NOW }),
        answersPerMinute: 100,
        codeSubmissionsPerMinute: 100,
      },
    }
    const study = await createStudy(
      db,
      new UploadedObjects(),
      author,
      { title: 'コードの練習', summary: '', notes: '', tags: [] },
      NOW,
    )
    studyId = study.id
    // The JavaScript reference is broken at first: it prints the difference.
    sumId = (
      await createQuestion(
        db,
        author,
        studyId,
        { ...sum, referenceSolution: sum.referenceSolution.replace('a + b', 'a - b') },
        NOW,
      )
    ).id
    greetId = (await createQuestion(db, author, studyId, greet, NOW)).id
  }, 60_000)
  afterAll(async () => {
    await database.remove()
  })

  it('refuses to publish while a reference solution fails its own tests, naming the question', async () => {
    const error = await refused(
      publishStudy(db, author, studyId, { revision: 1 }, NOW, sandbox),
      'CONFLICT',
    )
    expect(error.message).toContain('問題 1 の模範解答がテスト「3 と 4」に合格しません')
    expect(error.fields?.[`questions.${sumId}`]).toBeDefined()
    expect(error.fields?.[`questions.${greetId}`]).toBeUndefined()
    // Its author sees every test of the reference run, hidden ones in full.
    const run = await runReferenceSolution(db, sandbox, author, sumId)
    expect(run.passed).toBe(false)
    expect(run.tests.map((test) => [test.name, test.stdout])).toEqual([
      ['3 と 4', '-1\n'],
      ['秘密のテスト', '-15\n'],
    ])
    await refused(runReferenceSolution(db, sandbox, learner, sumId), 'NOT_FOUND')

    await updateQuestion(db, author, sumId, { ...sum, revision: 1 }, NOW + 1)
    const published = await publishStudy(db, author, studyId, { revision: 1 }, NOW + 2, sandbox)
    expect(published.publishedAt).toBe(NOW + 2)
  }, 60_000)

  it('re-runs a submission against every test: a hidden failure is incorrect and tells nothing of the test', async () => {
    // Passes the visible example by printing its answer.
    const cheat = await answerQuestion(db, services, learner, sumId, {
      kind: 'code',
      code: 'input(); input(); console.log(7)',
    })
    expect(cheat).toMatchObject({ verdict: 'incorrect', status: 'attempted', firstSolve: false })
    if (cheat.feedback.kind !== 'code') throw new Error('not a code feedback')
    expect(cheat.feedback.tests).toEqual([
      {
        name: '3 と 4',
        passed: true,
        outcome: 'completed',
        stdout: '7\n',
        stderr: '',
        error: null,
        message: null,
      },
    ])
    expect(cheat.feedback.hiddenTests).toEqual({
      total: 1,
      passed: 0,
      allPassed: false,
      message: null,
    })
    expect(JSON.stringify(cheat)).not.toContain('-5')
    expect(JSON.stringify(cheat)).not.toContain('秘密')
    expect(JSON.stringify(cheat)).not.toContain('durationMs')

    const loop = await answerQuestion(db, services, learner, sumId, {
      kind: 'code',
      code: 'while (true) {}',
    })
    expect(loop.verdict).toBe('incorrect')
    if (loop.feedback.kind !== 'code') throw new Error('not a code feedback')
    expect(loop.feedback.tests[0]).toMatchObject({
      outcome: 'timeout',
      message: expect.stringContaining('制限時間（1 秒）'),
    })
    // The looping program used one time limit, not one per test: the hidden one did not run.
    expect(loop.feedback.hiddenTests).toMatchObject({ passed: null, allPassed: false })

    const right = await answerQuestion(db, services, learner, sumId, {
      kind: 'code',
      code: 'const a = +input(); const b = +input(); console.log(a + b)',
    })
    expect(right).toMatchObject({ verdict: 'correct', status: 'solved', firstSolve: true })
    const events = await db
      .selectFrom('history_events')
      .selectAll()
      .where('user_id', '=', learner.userId)
      .execute()
    expect(events.map((event) => [event.kind, event.subject_id])).toEqual([
      ['exercise_solved', sumId],
    ])
  }, 60_000)

  it('runs Python submissions in Pyodide, errors with their line', async () => {
    const broken = await answerQuestion(db, services, learner, greetId, {
      kind: 'code',
      code: 'name = input()\nprint(f"こんにちは、{nam}さん")',
    })
    expect(broken.verdict).toBe('incorrect')
    if (broken.feedback.kind !== 'code') throw new Error('not a code feedback')
    expect(broken.feedback.tests[0]).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('NameError'), line: 2 },
    })
    const right = await answerQuestion(db, services, learner, greetId, {
      kind: 'code',
      code: 'print("こんにちは、" + input() + "さん")',
    })
    expect(right).toMatchObject({ verdict: 'correct', firstSolve: true })
  }, 120_000)

  it('refuses code over 64 KB with a field error, before running anything', async () => {
    const error = await refused(
      answerQuestion(db, services, learner, sumId, { kind: 'code', code: 'x'.repeat(65 * 1024) }),
      'VALIDATION_FAILED',
    )
    expect(error.fields?.code?.[0]).toContain('64 KB')
  })
})
