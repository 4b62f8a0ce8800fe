import type { Kysely } from 'kysely'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { z } from 'zod'
import type { DB } from '#db/schema.ts'
import { type Database, openTestDatabase, testEngines } from '#db/test-support.ts'
import { insertTestUsers, refused, testActors } from '#features/content-test-support.ts'
import { readHistorySummary } from '#features/history/histories.server.ts'
import { listContinueExercises } from '#features/home/continue-exercises.server.ts'
import { UploadedObjects } from '#features/images/test-support.ts'
import { createStudy, publishStudy } from '#features/studies/study-editing.server.ts'
import { createMarkdownRenderer } from '#server/markdown-renderer.ts'
import { memoryRateLimiter } from '#server/rate-limiter.ts'
import { answerQuestion, type ExerciseServices, listMyAttempts } from './answers.server.ts'
import { listExercises } from './exercise-catalogue.server.ts'
import { exerciseQuery } from './exercise-query.ts'
import { exerciseProgressOfStudies, readExerciseSet } from './exercise-set.server.ts'
import type { questionFields } from './question-input.ts'

type QuestionInput = z.input<typeof questionFields>

import {
  createQuestion,
  deleteQuestion,
  readExerciseSetForEditor,
  reorderQuestions,
  updateQuestion,
} from './questions.server.ts'

const NOW = Date.UTC(2026, 10, 25, 9, 0, 0)
const { author, other: learner, admin } = testActors
const markdown = createMarkdownRenderer()
afterAll(() => markdown.close())

/** Choice and text answers never reach the verifier; one that is called fails the test. */
const noCode: ExerciseServices['verifier'] = {
  verify: async () => {
    throw new Error('no code question here')
  },
}

const single = {
  prompt: '**HTML** の見出しタグは？',
  explanation: '`h1` から `h6` までが見出しです',
  kind: 'single',
  tags: ['HTML'],
  options: [
    { id: 'a', text: '<h1>', correct: true },
    { id: 'b', text: '<p>', correct: false },
    { id: 'c', text: '<div>', correct: false },
  ],
} satisfies QuestionInput
const multiple = {
  prompt: 'JavaScript の真偽値をすべて選んでください',
  explanation: 'true と false の 2 つです',
  kind: 'multiple',
  options: [
    { id: 't', text: 'true', correct: true },
    { id: 'f', text: 'false', correct: true },
    { id: 'n', text: 'null', correct: false },
  ],
} satisfies QuestionInput
const text = {
  prompt: 'スタイルを書く言語の名前は？',
  explanation: 'CSS です',
  kind: 'text',
  acceptedAnswers: ['CSS'],
  pattern: 'css ?3',
  access: 'premium',
} satisfies QuestionInput

describe.each(testEngines)('exercises on %s', (engine) => {
  let database: Database & { remove(): Promise<void> }
  let db: Kysely<DB>
  let services: ExerciseServices & { markdown: typeof markdown }

  beforeAll(async () => {
    database = await openTestDatabase(engine)
    db = database.db
    await insertTestUsers(db, ['author', 'other', 'admin'], NOW)
  })
  afterAll(async () => {
    await database.remove()
  })
  beforeEach(async () => {
    await db.deleteFrom('history_events').execute()
    await db.deleteFrom('studies').execute()
    services = {
      markdown,
      verifier: noCode,
      limits: {
        limiter: memoryRateLimiter({ now: () => NOW }),
        answersPerMinute: 30,
        codeSubmissionsPerMinute: 10,
      },
    }
  })

  async function studyWithQuestions() {
    const study = await createStudy(
      db,
      new UploadedObjects(),
      author,
      { title: 'はじめての Web', summary: '', notes: '', tags: [] },
      NOW,
    )
    const ids: string[] = []
    for (const question of [single, multiple, text]) {
      ids.push((await createQuestion(db, author, study.id, question, NOW)).id)
    }
    await publishStudy(db, author, study.id, { revision: 1 }, NOW)
    return { studyId: study.id, ids: ids as [string, string, string] }
  }

  it('keeps a study’s questions in order; the author reorders, edits and deletes them', async () => {
    const { studyId, ids } = await studyWithQuestions()
    let set = await readExerciseSetForEditor(db, author, studyId)
    expect(set.questions.map((question) => question.id)).toEqual(ids)
    expect(set.questions[0]?.content).toMatchObject({ kind: 'single', options: single.options })
    expect(set.questions[0]?.tags).toEqual(['html'])

    await reorderQuestions(db, author, studyId, { questionIds: [ids[2], ids[0], ids[1]] })
    set = await readExerciseSetForEditor(db, author, studyId)
    expect(set.questions.map((question) => [question.id, question.position])).toEqual([
      [ids[2], 0],
      [ids[0], 1],
      [ids[1], 2],
    ])
    // A list made before a question was added or removed is refused, not half applied.
    await refused(
      reorderQuestions(db, author, studyId, { questionIds: [ids[0], ids[1]] }),
      'STALE_REVISION',
    )

    const saved = await updateQuestion(db, author, ids[0], {
      ...single,
      prompt: '見出しは？',
      revision: 1,
    })
    expect(saved.revision).toBe(2)
    // A second tab still on revision 1 cannot overwrite it.
    await refused(updateQuestion(db, author, ids[0], { ...single, revision: 1 }), 'STALE_REVISION')

    await deleteQuestion(db, author, ids[2])
    set = await readExerciseSetForEditor(db, author, studyId)
    expect(set.questions.map((question) => [question.id, question.position])).toEqual([
      [ids[0], 0],
      [ids[1], 1],
    ])
  })

  it('lets only the study’s owner or an admin write its questions', async () => {
    const { studyId, ids } = await studyWithQuestions()
    await refused(createQuestion(db, learner, studyId, single), 'FORBIDDEN')
    await refused(updateQuestion(db, learner, ids[0], { ...single, revision: 1 }), 'FORBIDDEN')
    await refused(deleteQuestion(db, learner, ids[0]), 'FORBIDDEN')
    await refused(readExerciseSetForEditor(db, learner, studyId), 'FORBIDDEN')
    await refused(createQuestion(db, undefined, studyId, single), 'SIGN_IN_REQUIRED')
    await updateQuestion(db, admin, ids[0], { ...single, revision: 1 })
  })

  it('refuses a pattern RE2 cannot run, with a field error', async () => {
    const { studyId } = await studyWithQuestions()
    const error = await refused(
      createQuestion(db, author, studyId, { ...text, pattern: '(a)\\1' }),
      'VALIDATION_FAILED',
    )
    expect(error.fields?.pattern?.[0]).toContain('正規表現')
  })

  it('never shows a learner the answers: no correct flags, accepted answers or pattern', async () => {
    const { ids } = await studyWithQuestions()
    const set = await readExerciseSet(
      db,
      markdown,
      { username: 'author', studyId: await studyOf(ids[0]) },
      learner,
    )
    const sent = JSON.stringify(set)
    expect(sent).not.toContain('correct')
    expect(sent).not.toContain('CSS')
    expect(sent).not.toContain('css ?3')
    expect(set.questions[0]).toMatchObject({
      promptHtml: expect.stringContaining('<strong>HTML</strong>'),
      content: {
        kind: 'single',
        options: [
          { id: 'a', text: '<h1>' },
          { id: 'b', text: '<p>' },
          { id: 'c', text: '<div>' },
        ],
      },
      status: 'not_started',
      explanationHtml: null,
    })
    // The premium question is locked for the free plan: no prompt, no content.
    expect(set.questions[2]).toMatchObject({ locked: true, promptHtml: null, content: null })
    expect(sent).not.toContain('スタイルを書く')
    // Its author reads it.
    const own = await readExerciseSet(
      db,
      markdown,
      { username: 'author', studyId: await studyOf(ids[0]) },
      author,
    )
    expect(own.questions[2]?.locked).toBe(false)
  })

  async function studyOf(questionId: string): Promise<string> {
    const row = await db
      .selectFrom('questions')
      .select('study_id')
      .where('id', '=', questionId)
      .executeTakeFirstOrThrow()
    return row.study_id
  }

  it('grades wrong then right, stores each attempt, and records the first solve once', async () => {
    const { studyId, ids } = await studyWithQuestions()
    const wrong = await answerQuestion(
      db,
      services,
      learner,
      ids[1],
      { kind: 'multiple', optionIds: ['t', 'n'] },
      NOW + 1,
    )
    expect(wrong).toMatchObject({
      verdict: 'incorrect',
      status: 'attempted',
      firstSolve: false,
      feedback: { kind: 'multiple', wrongOptionIds: ['n'], missingCorrect: 1 },
    })
    expect(wrong.message).toContain('1 個は正しくありません')
    expect(wrong.explanationHtml).toContain('true と false')

    const right = await answerQuestion(
      db,
      services,
      learner,
      ids[1],
      { kind: 'multiple', optionIds: ['f', 't'] },
      NOW + 2,
    )
    expect(right).toMatchObject({ verdict: 'correct', status: 'solved', firstSolve: true })
    const again = await answerQuestion(
      db,
      services,
      learner,
      ids[1],
      { kind: 'multiple', optionIds: ['f', 't'] },
      NOW + 3,
    )
    expect(again.firstSolve).toBe(false)

    const attempts = await listMyAttempts(db, learner, ids[1])
    expect(attempts.map((attempt) => [attempt.verdict, attempt.answer])).toEqual([
      ['correct', { kind: 'multiple', optionIds: ['f', 't'] }],
      ['correct', { kind: 'multiple', optionIds: ['f', 't'] }],
      ['incorrect', { kind: 'multiple', optionIds: ['t', 'n'] }],
    ])
    expect(await listMyAttempts(db, author, ids[1])).toEqual([])

    const summary = await readHistorySummary(db, learner, NOW + 4)
    expect(summary.totals.exercisesSolved).toBe(1)
    const progress = await exerciseProgressOfStudies(db, learner.userId, [studyId])
    expect(progress.get(studyId)).toEqual({ solved: 1, total: 3 })

    const set = await readExerciseSet(db, markdown, { username: 'author', studyId }, learner)
    expect(set.questions.map((question) => question.status)).toEqual([
      'not_started',
      'solved',
      'not_started',
    ])
    expect(set.questions[1]?.explanationHtml).toContain('true と false')
    expect([set.solved, set.total]).toEqual([1, 3])
  })

  it('folds width, case and spaces of text answers, and matches the pattern whole', async () => {
    const { ids } = await studyWithQuestions()
    const premium = { userId: 'user-author', isAdmin: false }
    // The premium question: its author may answer it; a free learner may not.
    await refused(
      answerQuestion(db, services, learner, ids[2], { kind: 'text', text: 'CSS' }),
      'LOCKED',
    )
    for (const [answer, verdict] of [
      ['ＣＳＳ', 'correct'],
      ['  css ', 'correct'],
      ['Css3', 'correct'],
      ['css 3', 'correct'],
      ['my css3', 'incorrect'],
      ['', 'incorrect'],
    ] as const) {
      const result = await answerQuestion(db, services, premium, ids[2], {
        kind: 'text',
        text: answer,
      })
      expect([answer, result.verdict]).toEqual([answer, verdict])
    }
  })

  it('refuses an answer of another kind, an unknown question and a guest', async () => {
    const { ids } = await studyWithQuestions()
    const error = await refused(
      answerQuestion(db, services, learner, ids[0], { kind: 'text', text: '<h1>' }),
      'VALIDATION_FAILED',
    )
    expect(error.fields?.kind).toBeDefined()
    await refused(
      answerQuestion(db, services, learner, 'nope', { kind: 'single', optionId: 'a' }),
      'NOT_FOUND',
    )
    await refused(
      answerQuestion(db, services, undefined, ids[0], { kind: 'single', optionId: 'a' }),
      'SIGN_IN_REQUIRED',
    )
    // A claim of a verdict is not an answer.
    await refused(
      answerQuestion(db, services, learner, ids[0], {
        kind: 'single',
        verdict: 'correct',
      } as never),
      'VALIDATION_FAILED',
    )
    expect(await db.selectFrom('question_attempts').selectAll().execute()).toEqual([])
  })

  it('hides a draft study’s questions from everyone but its author', async () => {
    const study = await createStudy(
      db,
      new UploadedObjects(),
      author,
      { title: '下書き', summary: '', notes: '', tags: [] },
      NOW,
    )
    const { id } = await createQuestion(db, author, study.id, single, NOW)
    await refused(
      readExerciseSet(db, markdown, { username: 'author', studyId: study.id }, learner),
      'NOT_FOUND',
    )
    await refused(
      answerQuestion(db, services, learner, id, { kind: 'single', optionId: 'a' }),
      'NOT_FOUND',
    )
    const tried = await answerQuestion(db, services, author, id, { kind: 'single', optionId: 'a' })
    expect(tried.verdict).toBe('correct')
  })

  it('limits answers per learner per minute', async () => {
    const { ids } = await studyWithQuestions()
    services.limits.answersPerMinute = 3
    for (let i = 0; i < 3; i++) {
      await answerQuestion(db, services, learner, ids[0], { kind: 'single', optionId: 'b' })
    }
    const error = await refused(
      answerQuestion(db, services, learner, ids[0], { kind: 'single', optionId: 'a' }),
      'RATE_LIMITED',
    )
    expect(error.httpStatus).toBe(429)
    // Another learner has a count of their own.
    await answerQuestion(db, services, author, ids[0], { kind: 'single', optionId: 'a' })
  })

  it('lists published questions on /exercises with filters, my status and the premium lock', async () => {
    const { studyId, ids } = await studyWithQuestions()
    const draft = await createStudy(
      db,
      new UploadedObjects(),
      author,
      { title: '下書き', summary: '', notes: '', tags: [] },
      NOW,
    )
    await createQuestion(db, author, draft.id, single, NOW)
    const query = (more: Record<string, unknown> = {}) => exerciseQuery.parse(more)

    const all = await listExercises(db, undefined, query())
    expect(all.items.map((card) => card.id)).toEqual(ids)
    expect(all.items[0]).toMatchObject({
      kind: 'single',
      excerpt: 'HTML の見出しタグは？',
      status: 'not_started',
      study: { id: studyId, path: `/author/studies/${studyId}/exercises` },
    })
    expect(all.items[2]).toMatchObject({ access: 'premium', locked: true, excerpt: null })

    expect(
      (await listExercises(db, undefined, query({ kind: 'multiple' }))).items.map(
        (card) => card.id,
      ),
    ).toEqual([ids[1]])
    expect(
      (await listExercises(db, undefined, query({ tag: 'ＨＴＭＬ' }))).items.map((card) => card.id),
    ).toEqual([ids[0]])
    expect((await listExercises(db, undefined, query({ language: 'python' }))).items).toEqual([])

    await answerQuestion(db, services, learner, ids[0], { kind: 'single', optionId: 'a' }, NOW + 1)
    await answerQuestion(
      db,
      services,
      learner,
      ids[1],
      { kind: 'multiple', optionIds: ['t'] },
      NOW + 2,
    )
    const statuses = async (status: string) =>
      (await listExercises(db, learner, query({ status }))).items.map((card) => card.id)
    expect(await statuses('solved')).toEqual([ids[0]])
    expect(await statuses('attempted')).toEqual([ids[1]])
    expect(await statuses('not_started')).toEqual([ids[2]])

    // One at a time, the cursor walks the whole list in order.
    const walked: string[] = []
    let cursor: string | undefined
    do {
      const page = await listExercises(db, learner, query({ limit: 1, ...(cursor && { cursor }) }))
      walked.push(...page.items.map((card) => card.id))
      cursor = page.nextCursor ?? undefined
    } while (cursor)
    expect(walked).toEqual(ids)
  })

  it('puts started, unfinished exercise sets on the home page’s continue cards', async () => {
    const { studyId, ids } = await studyWithQuestions()
    expect(await listContinueExercises(db, learner.userId)).toEqual([])
    await answerQuestion(db, services, learner, ids[0], { kind: 'single', optionId: 'a' }, NOW + 5)
    expect(await listContinueExercises(db, learner.userId)).toEqual([
      {
        study: {
          id: studyId,
          title: 'はじめての Web',
          path: `/author/studies/${studyId}/exercises`,
        },
        solved: 1,
        total: 3,
        nextPath: `/author/studies/${studyId}/exercises#question-${ids[1]}`,
        lastPractisedAt: NOW + 5,
      },
    ])
    await answerQuestion(db, services, learner, ids[1], { kind: 'multiple', optionIds: ['t', 'f'] })
    await deleteQuestion(db, author, ids[2])
    // Every question solved: nothing left to continue.
    expect(await listContinueExercises(db, learner.userId)).toEqual([])
  })
})
