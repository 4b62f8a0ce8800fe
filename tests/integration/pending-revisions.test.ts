import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { newSignedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Edits of published content wait as a pending revision until 「更新する」: readers (pages and
 * /api), search keep the published version; 「変更を破棄」 drops the edit. Run on SQLite and,
 * with TEST_DATABASE_URL, on PostgreSQL.
 */
let server: TestServer

beforeAll(async () => {
  server = await startTestServer()
})
afterAll(async () => {
  await server?.close()
})

type Person = Awaited<ReturnType<typeof newSignedInUser>>
const call = (method: string, path: string, who?: Person, body?: unknown) =>
  callApi(server.url, method, path, who?.cookie, body)

async function publishedStudy(author: Person) {
  const created = await call('POST', '/studies', author, {
    title: '二分探索のノート',
    summary: '公開済みの概要',
    notes: '# 二分探索\n\n半分ずつ絞り込みます。',
    tags: ['アルゴリズム'],
  })
  expect(created.status).toBe(201)
  const studyId = created.body.id as string
  const published = await call('POST', `/studies/${studyId}/publish`, author, {
    revision: created.body.revision,
  })
  expect(published.status).toBe(200)
  return { studyId, revision: published.body.revision as number }
}

/** A published lab and story of `author`'s, each with an edit of its text waiting. */
async function labAndStoryWithPendingEdits(author: Person) {
  const lab = await call('POST', '/labs', author, { title: '天気アプリ', description: '公開版' })
  const labId = lab.body.id as string
  const labPublished = await call('POST', `/labs/${labId}/publish`, author, {
    revision: lab.body.revision,
  })
  const labSaved = await call('PUT', `/labs/${labId}`, author, {
    title: '天気アプリ',
    description: '編集中の説明',
    revision: labPublished.body.revision,
  })
  expect(labSaved.status).toBe(200)
  const story = await call('POST', '/labs_stories', author, { title: '作った話', body: '公開版' })
  const storyId = story.body.id as string
  const storyPublished = await call('POST', `/labs_stories/${storyId}/publish`, author, {
    revision: story.body.revision,
  })
  const storySaved = await call('PUT', `/labs_stories/${storyId}`, author, {
    title: '作った話',
    body: '編集中の本文',
    revision: storyPublished.body.revision,
  })
  expect(storySaved.status).toBe(200)
  return {
    labId,
    labRevision: labSaved.body.revision as number,
    storyId,
    storyRevision: storySaved.body.revision as number,
  }
}

/**
 * A published course of `author`'s with one lesson, its summary and the lesson's body edited
 * and waiting; the revisions those edits answered.
 */
async function courseWithPendingEdits(author: Person) {
  const created = await call('POST', '/courses', author, {
    title: 'HTML 入門',
    summary: '公開版の概要',
  })
  const courseId = created.body.id as string
  const section = await call('POST', `/courses/${courseId}/sections`, author, {
    title: '第 1 章',
    revision: created.body.revision,
  })
  const lesson = await call('POST', `/courses/${courseId}/lessons`, author, {
    sectionId: section.body.sectionId,
    title: 'タグ',
    revision: section.body.revision,
  })
  const lessonId = lesson.body.lessonId as string
  const lessonPath = `/courses/${courseId}/lessons/${lessonId}`
  const firstBody = await call('PUT', lessonPath, author, {
    title: 'タグ',
    body: '公開版の本文',
    access: 'free',
    revision: 1,
  })
  const published = await call('POST', `/courses/${courseId}/publish`, author, {
    revision: lesson.body.revision,
  })
  expect(published.status).toBe(200)
  const edited = await call('PUT', `/courses/${courseId}`, author, {
    title: 'HTML 入門',
    summary: '編集中の概要',
    revision: published.body.revision,
  })
  expect(edited.status).toBe(200)
  const lessonEdited = await call('PUT', lessonPath, author, {
    title: 'タグ',
    body: '編集中の本文',
    access: 'free',
    revision: firstBody.body.revision,
  })
  expect(lessonEdited.status).toBe(200)
  return {
    courseId,
    lessonId,
    lessonPath,
    revision: edited.body.revision as number,
    lessonRevision: lessonEdited.body.revision as number,
  }
}

describe('pending revisions of published items', () => {
  it('keeps a published study as readers see it until 更新する, then shows the edit', async () => {
    const author = await newSignedInUser(server, 'pendingauthor')
    const reader = await newSignedInUser(server, 'pendingreader')
    const { studyId, revision } = await publishedStudy(author)
    const readPath = `/users/${author.username}/studies/${studyId}`
    const pagePath = `/${author.username}/studies/${studyId}`

    // A half-typed summary: saved for the author, not published.
    const saved = await call('PUT', `/studies/${studyId}`, author, {
      title: '二分探索のノート',
      summary: '書きかけのがいよ',
      notes: '# 二分探索\n\n半分ずつ絞り込みます。ひみつのけいかく',
      tags: ['アルゴリズム'],
      revision,
    })
    expect(saved.status).toBe(200)
    const draft = await call('GET', `/studies/${studyId}/draft`, author)
    expect(draft.body.summary).toBe('書きかけのがいよ')
    expect(draft.body.status).toBe('published')
    expect(typeof draft.body.pendingSince).toBe('number')

    const read = await call('GET', readPath, reader)
    expect(read.body.summary).toBe('公開済みの概要')
    expect(read.body.notes).not.toContain('ひみつのけいかく')
    const shown = await fetchPage(server.url, pagePath, reader.cookie)
    expect(shown.html).toContain('公開済みの概要')
    expect(shown.html).not.toContain('書きかけのがいよ')
    const searched = await call(
      'GET',
      `/search?q=${encodeURIComponent('ひみつのけいかく')}`,
      reader,
    )
    expect(JSON.stringify(searched.body)).not.toContain(studyId)

    // 更新する: the edit becomes the published version.
    const updated = await call('POST', `/studies/${studyId}/pending/publish`, author, {
      revision: saved.body.revision,
    })
    expect(updated.status).toBe(200)
    expect((await call('GET', readPath, reader)).body.summary).toBe('書きかけのがいよ')
    expect((await fetchPage(server.url, pagePath, reader.cookie)).html).toContain(
      '書きかけのがいよ',
    )
    const found = await call('GET', `/search?q=${encodeURIComponent('ひみつのけいかく')}`, reader)
    expect(JSON.stringify(found.body)).toContain(studyId)
    expect((await call('GET', `/studies/${studyId}/draft`, author)).body.pendingSince).toBeNull()
    // Nothing waits any more.
    const again = await call('POST', `/studies/${studyId}/pending/publish`, author, {
      revision: updated.body.revision,
    })
    expect(again.status).toBe(409)
  })

  it('drops the pending revision with 変更を破棄, and refuses another tab based on an older revision', async () => {
    const author = await newSignedInUser(server, 'pendingdiscard')
    const { studyId, revision } = await publishedStudy(author)
    const edit = (summary: string, basedOn: number) =>
      call('PUT', `/studies/${studyId}`, author, {
        title: '二分探索のノート',
        summary,
        notes: '# 二分探索\n\n半分ずつ絞り込みます。',
        tags: ['アルゴリズム'],
        revision: basedOn,
      })
    const saved = await edit('やっぱりやめる変更', revision)
    expect(saved.status).toBe(200)
    expect((await edit('古いタブから', revision)).status).toBe(409)

    const discarded = await call('POST', `/studies/${studyId}/pending/discard`, author, {
      revision: saved.body.revision,
    })
    expect(discarded.status).toBe(200)
    const draft = await call('GET', `/studies/${studyId}/draft`, author)
    expect(draft.body.summary).toBe('公開済みの概要')
    expect(draft.body.pendingSince).toBeNull()
    expect((await call('GET', `/users/${author.username}/studies/${studyId}`)).body.summary).toBe(
      '公開済みの概要',
    )
  })

  it('holds edits of published labs and stories the same way', async () => {
    const author = await newSignedInUser(server, 'pendinglabs')
    const { labId, storyId, storyRevision } = await labAndStoryWithPendingEdits(author)
    expect((await call('GET', `/users/${author.username}/labs/${labId}`)).body.description).toBe(
      '公開版',
    )
    expect((await call('GET', `/labs/${labId}/draft`, author)).body.description).toBe(
      '編集中の説明',
    )
    expect((await call('GET', `/users/${author.username}/labs_stories/${storyId}`)).body.body).toBe(
      '公開版',
    )
    await call('POST', `/labs_stories/${storyId}/pending/publish`, author, {
      revision: storyRevision,
    })
    expect((await call('GET', `/users/${author.username}/labs_stories/${storyId}`)).body.body).toBe(
      '編集中の本文',
    )
  })

  it("holds a published course's fields and lessons until 更新する, and drops them with 変更を破棄", async () => {
    const author = await newSignedInUser(server, 'pcourse')
    const reader = await newSignedInUser(server, 'pcreader')
    const { courseId, lessonId, lessonPath, revision, lessonRevision } =
      await courseWithPendingEdits(author)
    const readCourse = () => call('GET', `/users/${author.username}/courses/${courseId}`, reader)
    const readLesson = () =>
      call('GET', `/users/${author.username}/courses/${courseId}/lessons/${lessonId}`, reader)
    expect((await readCourse()).body.summary).toBe('公開版の概要')
    expect(JSON.stringify((await readLesson()).body)).toContain('公開版の本文')
    const draft = await call('GET', `/courses/${courseId}/draft`, author)
    expect(draft.body.summary).toBe('編集中の概要')
    expect(draft.body.sections[0].lessons[0].body).toBe('編集中の本文')
    expect(typeof draft.body.pendingSince).toBe('number')

    const updated = await call('POST', `/courses/${courseId}/pending/publish`, author, {
      revision,
    })
    expect(updated.status).toBe(200)
    expect((await readCourse()).body.summary).toBe('編集中の概要')
    expect(JSON.stringify((await readLesson()).body)).toContain('編集中の本文')

    // Another edit, discarded: learners and the editor are back at the published text.
    const again = await call('PUT', lessonPath, author, {
      title: 'タグ',
      body: 'やめる本文',
      access: 'free',
      revision: lessonRevision,
    })
    expect(again.status).toBe(200)
    const discarded = await call('POST', `/courses/${courseId}/pending/discard`, author, {
      revision: updated.body.revision,
    })
    expect(discarded.status).toBe(200)
    const after = await call('GET', `/courses/${courseId}/draft`, author)
    expect(after.body.sections[0].lessons[0].body).toBe('編集中の本文')
    expect(after.body.pendingSince).toBeNull()
    expect(JSON.stringify((await readLesson()).body)).not.toContain('やめる本文')
  })

  it("holds edits of a published study's questions until the study's 更新する", async () => {
    const author = await newSignedInUser(server, 'pquestion')
    const learner = await newSignedInUser(server, 'plearner')
    const study = await call('POST', '/studies', author, { title: '練習', summary: '', notes: '' })
    const studyId = study.body.id as string
    const single = {
      kind: 'single',
      prompt: '公開版の問題文',
      explanation: '解説',
      options: [
        { id: 'right', text: 'せいかい', correct: true },
        { id: 'wrong', text: 'まちがい', correct: false },
      ],
    }
    const question = await call('POST', `/studies/${studyId}/questions`, author, single)
    expect(question.status).toBe(201)
    const questionId = question.body.id as string
    const published = await call('POST', `/studies/${studyId}/publish`, author, {
      revision: study.body.revision,
    })
    expect(published.status).toBe(200)

    const saved = await call('PUT', `/questions/${questionId}`, author, {
      ...single,
      prompt: '編集中の問題文',
      revision: question.body.revision,
    })
    expect(saved.status).toBe(200)
    const setPath = `/users/${author.username}/studies/${studyId}/exercises`
    expect(JSON.stringify((await call('GET', setPath, learner)).body)).toContain('公開版の問題文')
    expect((await call('GET', `/questions/${questionId}/draft`, author)).body.prompt).toBe(
      '編集中の問題文',
    )
    const draft = await call('GET', `/studies/${studyId}/draft`, author)
    expect(typeof draft.body.pendingSince).toBe('number')

    const updated = await call('POST', `/studies/${studyId}/pending/publish`, author, {
      revision: draft.body.revision,
    })
    expect(updated.status).toBe(200)
    const after = JSON.stringify((await call('GET', setPath, learner)).body)
    expect(after).toContain('編集中の問題文')
    expect(after).not.toContain('公開版の問題文')
  })
  it("checks a pending code question's reference solution at 更新する, and publishes nothing while it fails", async () => {
    const author = await newSignedInUser(server, 'pcode')
    const learner = await newSignedInUser(server, 'pcodelearner')
    const study = await call('POST', '/studies', author, {
      title: 'コード',
      summary: '',
      notes: '',
    })
    const studyId = study.body.id as string
    const code = {
      kind: 'code',
      prompt: '公開版：1 を足して出力してください',
      explanation: '解説',
      language: 'javascript',
      starterCode: '',
      referenceSolution: 'console.log(Number(input()) + 1)',
      timeLimitMs: 1000,
      tests: [{ name: '1 に足す', stdin: '1', expectedOutput: '2' }],
    }
    const question = await call('POST', `/studies/${studyId}/questions`, author, code)
    expect(question.status).toBe(201)
    const questionId = question.body.id as string
    const published = await call('POST', `/studies/${studyId}/publish`, author, {
      revision: study.body.revision,
    })
    expect(published.status, JSON.stringify(published.body)).toBe(200)

    // The tests change so that the (unchanged) reference solution no longer passes them.
    const broken = await call('PUT', `/questions/${questionId}`, author, {
      ...code,
      prompt: '編集中：2 を足して出力してください',
      tests: [{ name: '2 に足す', stdin: '1', expectedOutput: '3' }],
      revision: question.body.revision,
    })
    expect(broken.status).toBe(200)
    const draft = await call('GET', `/studies/${studyId}/draft`, author)
    const refused = await call('POST', `/studies/${studyId}/pending/publish`, author, {
      revision: draft.body.revision,
    })
    expect(refused.status).toBe(409)
    expect(refused.body.error.message).toContain(
      '問題 1 の模範解答がテスト「2 に足す」に合格しません',
    )
    expect(refused.body.error.fields[`questions.${questionId}`][0]).toContain('2 に足す')
    // Nothing went live, and the edit still waits.
    const setPath = `/users/${author.username}/studies/${studyId}/exercises`
    const shown = JSON.stringify((await call('GET', setPath, learner)).body)
    expect(shown).toContain('公開版：1 を足して')
    expect(shown).not.toContain('編集中')
    const still = await call('GET', `/studies/${studyId}/draft`, author)
    expect(typeof still.body.pendingSince).toBe('number')
    expect((await call('GET', `/questions/${questionId}/draft`, author)).body.prompt).toBe(
      '編集中：2 を足して出力してください',
    )

    // With a reference solution that passes, 更新する goes ahead.
    const fixed = await call('PUT', `/questions/${questionId}`, author, {
      ...code,
      prompt: '編集中：2 を足して出力してください',
      referenceSolution: 'console.log(Number(input()) + 2)',
      tests: [{ name: '2 に足す', stdin: '1', expectedOutput: '3' }],
      revision: broken.body.revision,
    })
    expect(fixed.status).toBe(200)
    const updated = await call('POST', `/studies/${studyId}/pending/publish`, author, {
      revision: still.body.revision,
    })
    expect(updated.status, JSON.stringify(updated.body)).toBe(200)
    expect(JSON.stringify((await call('GET', setPath, learner)).body)).toContain('編集中')
  }, 60_000)

  it('makes the pending revision the draft on 非公開に戻す, so 公開する then publishes what the editor showed', async () => {
    const author = await newSignedInUser(server, 'punpublish')
    const reader = await newSignedInUser(server, 'punreader')

    // A study with a pending edit of its own fields and of its question.
    const { studyId, revision } = await publishedStudy(author)
    const single = {
      kind: 'single',
      prompt: '公開版の問題文',
      explanation: '解説',
      options: [
        { id: 'right', text: 'せいかい', correct: true },
        { id: 'wrong', text: 'まちがい', correct: false },
      ],
    }
    const question = await call('POST', `/studies/${studyId}/questions`, author, single)
    const questionId = question.body.id as string
    const questionSaved = await call('PUT', `/questions/${questionId}`, author, {
      ...single,
      prompt: '編集中の問題文',
      revision: question.body.revision,
    })
    expect(questionSaved.status).toBe(200)
    const saved = await call('PUT', `/studies/${studyId}`, author, {
      title: '二分探索のノート',
      summary: '編集中の概要',
      notes: '# 二分探索',
      tags: ['アルゴリズム'],
      revision,
    })
    expect(saved.status).toBe(200)
    const unpublished = await call('POST', `/studies/${studyId}/unpublish`, author, {
      revision: saved.body.revision,
    })
    expect(unpublished.status).toBe(200)
    const draft = await call('GET', `/studies/${studyId}/draft`, author)
    expect(draft.body.status).toBe('draft')
    expect(draft.body.summary).toBe('編集中の概要')
    expect(draft.body.pendingSince).toBeNull()
    expect((await call('GET', `/questions/${questionId}/draft`, author)).body.prompt).toBe(
      '編集中の問題文',
    )
    const republished = await call('POST', `/studies/${studyId}/publish`, author, {
      revision: unpublished.body.revision,
    })
    expect(republished.status).toBe(200)
    expect(
      (await call('GET', `/users/${author.username}/studies/${studyId}`, reader)).body.summary,
    ).toBe('編集中の概要')
    const set = `/users/${author.username}/studies/${studyId}/exercises`
    expect(JSON.stringify((await call('GET', set, reader)).body)).toContain('編集中の問題文')
    expect((await call('GET', `/studies/${studyId}/draft`, author)).body.pendingSince).toBeNull()

    // A lab and a story the same way.
    const { labId, labRevision, storyId, storyRevision } = await labAndStoryWithPendingEdits(author)
    const labUnpublished = await call('POST', `/labs/${labId}/unpublish`, author, {
      revision: labRevision,
    })
    expect(labUnpublished.status).toBe(200)
    const labDraft = await call('GET', `/labs/${labId}/draft`, author)
    expect(labDraft.body.description).toBe('編集中の説明')
    expect(labDraft.body.pendingSince).toBeNull()
    await call('POST', `/labs_stories/${storyId}/unpublish`, author, { revision: storyRevision })
    const storyDraft = await call('GET', `/labs_stories/${storyId}/draft`, author)
    expect(storyDraft.body.body).toBe('編集中の本文')
    expect(storyDraft.body.pendingSince).toBeNull()

    // A course with a pending edit of its own fields and of a lesson.
    const course = await courseWithPendingEdits(author)
    const courseId = course.courseId
    const courseUnpublished = await call('POST', `/courses/${courseId}/unpublish`, author, {
      revision: course.revision,
    })
    expect(courseUnpublished.status).toBe(200)
    const courseDraft = await call('GET', `/courses/${courseId}/draft`, author)
    expect(courseDraft.body.summary).toBe('編集中の概要')
    expect(courseDraft.body.sections[0].lessons[0].body).toBe('編集中の本文')
    expect(courseDraft.body.pendingSince).toBeNull()
    await call('POST', `/courses/${courseId}/publish`, author, {
      revision: courseUnpublished.body.revision,
    })
    expect(
      JSON.stringify(
        (
          await call(
            'GET',
            `/users/${author.username}/courses/${courseId}/lessons/${course.lessonId}`,
            reader,
          )
        ).body,
      ),
    ).toContain('編集中の本文')
  })
})
