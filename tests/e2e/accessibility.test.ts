import type { RouteConfigEntry } from '@react-router/dev/routes'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import routeConfig from '#app/routes.ts'
import { callApi } from '#tests/support/http.ts'
import { signedInCookie } from '#tests/support/signed-in-user.ts'
import { axeViolationsInBothThemes, SCREENS } from './axe.ts'
import { waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * axe-core finds nothing on any route of the seed's route table: as a guest
 * and signed in, light and dark, at 1280×900 and 390×844. Each route shows real content: the
 * demo seed's courses (a premium-locked lesson too), labs, stories and studies, and a user who
 * has published one of each, has drafts, a history, followers and unread notifications.
 * One page per visitor is reused: each route is loaded once, then resized and re-themed.
 */
const site = browserSuite()

const ME = 'mio_axe'
const OTHER = 'ren_axe'

type Fixture = {
  demo: {
    user: string
    course: string
    freeLesson: string
    premiumLesson: { user: string; course: string; lesson: string }
    lab: string
    story: string
    study: string
    tag: string
  }
  mine: {
    course: string
    lesson: string
    study: string
    lab: string
    story: string
    /** A question of `study`'s exercise set (one of each kind). */
    question: string
  }
  /** A direct-message room of ME and OTHER, with messages both ways (a link, line breaks). */
  room: string
}

let fixture: Fixture
const cookies: Record<string, string> = {}

async function api(who: string, method: string, path: string, body?: unknown) {
  const answer = await callApi(site.server.url, method, path, cookies[who], body)
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
  return answer.body
}

/** A published item of the signed-in user's own, made through the API as the editors do. */
async function publish(kind: 'studies' | 'labs' | 'labs_stories', body: object): Promise<string> {
  const created = await api(ME, 'POST', `/${kind}`, body)
  await api(ME, 'POST', `/${kind}/${created.id}/publish`, { revision: created.revision })
  return created.id
}

/**
 * A study of `owner`'s with one question of each kind (a premium one too), published; `extra`
 * questions after them.
 */
async function studyWithExercises(owner = ME, extra: object[] = []): Promise<string> {
  const created = await api(owner, 'POST', '/studies', {
    title: '配列のメソッドまとめ',
    notes: '## map と filter\n\n```js\n[1, 2, 3].map((n) => n * 2)\n```',
    tags: ['javascript'],
  })
  const common = { explanation: '`map` は新しい配列を返します。', tags: ['javascript'] }
  const questions = [
    {
      ...common,
      kind: 'single',
      prompt: '`[1, 2].map((n) => n * 2)` の結果は？',
      options: [
        { id: 'a', text: '[2, 4]', correct: true },
        { id: 'b', text: '[1, 2]', correct: false },
      ],
    },
    {
      ...common,
      kind: 'multiple',
      prompt: '新しい配列を返すメソッドをすべて選んでください',
      options: [
        { id: 'a', text: 'map', correct: true },
        { id: 'b', text: 'filter', correct: true },
        { id: 'c', text: 'forEach', correct: false },
      ],
    },
    { ...common, kind: 'text', prompt: '要素を絞り込むメソッドは？', acceptedAnswers: ['filter'] },
    {
      ...common,
      kind: 'code',
      prompt: '入力の数を 2 倍にして表示してください',
      language: 'javascript',
      starterCode: 'const n = Number(input())\n',
      referenceSolution: 'console.log(Number(input()) * 2)',
      tests: [{ name: '2 倍', stdin: '4\n', expectedOutput: '8' }],
    },
    { ...common, kind: 'text', access: 'premium', prompt: '有料の問題', acceptedAnswers: ['x'] },
    ...extra,
  ]
  for (const question of questions) {
    await api(owner, 'POST', `/studies/${created.id}/questions`, question)
  }
  await api(owner, 'POST', `/studies/${created.id}/publish`, { revision: created.revision })
  return created.id
}

async function myCourse(): Promise<{ course: string; lesson: string }> {
  const created = await api(ME, 'POST', '/courses', {
    title: 'はじめての HTML',
    summary: '見出しと段落から始めます。',
    tags: ['html'],
  })
  const section = await api(ME, 'POST', `/courses/${created.id}/sections`, {
    title: '第 1 章 基本のタグ',
    revision: created.revision,
  })
  const lesson = await api(ME, 'POST', `/courses/${created.id}/lessons`, {
    sectionId: section.sectionId,
    title: '見出しを書く',
    revision: section.revision,
  })
  await api(ME, 'PUT', `/courses/${created.id}/lessons/${lesson.lessonId}`, {
    title: '見出しを書く',
    body: '# 見出し\n\n`<h1>` から `<h6>` まであります。\n\n```html\n<h1>こんにちは</h1>\n```',
    access: 'free',
    revision: 1,
  })
  await api(ME, 'POST', `/courses/${created.id}/publish`, { revision: lesson.revision })
  return { course: created.id, lesson: lesson.lessonId }
}

async function demoContent(): Promise<Fixture['demo']> {
  const { db } = site.server.database
  /** A published course's lesson: a premium one, or a free lesson of a free course. */
  const lesson = (access: 'free' | 'premium') =>
    db
      .selectFrom('lessons')
      .innerJoin('courses', 'courses.id', 'lessons.course_id')
      .innerJoin('users', 'users.id', 'courses.owner_id')
      .select(['users.username', 'courses.id as course', 'lessons.id as lesson'])
      .where('courses.status', '=', 'published')
      .where('lessons.access', '=', access)
      .$if(access === 'free', (query) => query.where('courses.access', '=', 'free'))
      .orderBy('lessons.position')
      .orderBy('lessons.id')
      .executeTakeFirstOrThrow()
  const [premium, free] = await Promise.all([lesson('premium'), lesson('free')])
  const published = (table: 'labs' | 'lab_stories' | 'studies') =>
    db
      .selectFrom(table)
      .innerJoin('users', 'users.id', `${table}.owner_id`)
      .select(['users.username', `${table}.id`])
      .where(`${table}.status`, '=', 'published')
      .orderBy(`${table}.published_at`, 'desc')
      .executeTakeFirstOrThrow()
  const [lab, story, study] = await Promise.all([
    published('labs'),
    published('lab_stories'),
    published('studies'),
  ])
  const tag = await db
    .selectFrom('tags')
    .innerJoin('course_tags', 'course_tags.tag_id', 'tags.id')
    .select('tags.name')
    .executeTakeFirstOrThrow()
  return {
    user: free.username,
    course: `/${free.username}/courses/${free.course}`,
    freeLesson: `/${free.username}/courses/${free.course}/lessons/${free.lesson}`,
    premiumLesson: { user: premium.username, course: premium.course, lesson: premium.lesson },
    lab: `/${lab.username}/labs/${lab.id}`,
    story: `/${story.username}/labs_stories/${story.id}`,
    study: `/${study.username}/studies/${study.id}`,
    tag: tag.name,
  }
}

beforeAll(async () => {
  cookies[ME] = await signedInCookie(site.server, ME)
  cookies[OTHER] = await signedInCookie(site.server, OTHER)
  const demo = await demoContent()
  const { course, lesson } = await myCourse()
  const study = await studyWithExercises()
  const lab = await publish('labs', {
    title: '天気ダッシュボード',
    description: '## 使った技術\n\nFetch API と Chart.js',
    tags: ['javascript'],
    repositoryUrl: 'https://github.com/example/weather',
  })
  const story = await publish('labs_stories', {
    title: 'グラフ描画でつまずいた話',
    body: '## 軸の設定\n\n目盛りが重なったので間引きました。',
    tags: ['chart.js'],
    labId: lab,
  })
  // A draft for /drafts, a finished lesson for /histories, and others' actions for /notifications.
  await api(ME, 'POST', '/studies', { title: '書きかけのメモ', notes: 'あとで書く' })
  await api(ME, 'POST', `/users/${demo.user}/courses${demo.freeLesson.split('/courses')[1]}/done`)
  await api(ME, 'POST', `/users/${demo.user}/follow`)
  await api(OTHER, 'POST', `/users/${ME}/follow`)
  await api(OTHER, 'PUT', `/likes/study/${study}`)
  await api(OTHER, 'POST', `/comments/study/${study}`, { body: '**とても**わかりやすいです' })
  await api(OTHER, 'PUT', `/likes/course/${course}`)
  const room = (await api(ME, 'POST', '/dms/rooms', { username: OTHER })).id
  await api(OTHER, 'POST', `/dms/rooms/${room}/messages`, {
    body: 'はじめまして！\nスタディを読みました: https://example.com/notes',
  })
  await api(ME, 'POST', `/dms/rooms/${room}/messages`, { body: 'ありがとうございます。' })
  await api(OTHER, 'POST', `/dms/rooms/${room}/messages`, { body: 'また質問させてください' })
  const [question] = (await api(ME, 'GET', `/studies/${study}/questions`)).questions
  fixture = { demo, mine: { course, lesson, study, lab, story, question: question.id }, room }
}, 60_000)

/** Every route of the seed's table (spec §2), with real ids; placeholders count too. */
function routes(): { route: string; path: string }[] {
  const { demo, mine } = fixture
  const premium = demo.premiumLesson
  const myStudy = `/${ME}/studies/${mine.study}`
  return [
    { route: '/', path: '/' },
    { route: '/contact', path: '/contact' },
    { route: '/contact/sent', path: '/contact/sent' },
    // Not an admin here (guests sign in, others get 403); e2e/contact.test.ts and
    // e2e/moderation.test.ts check them as one.
    { route: '/admin', path: '/admin' },
    { route: '/admin/contact', path: '/admin/contact' },
    { route: '/admin/contact/{id}', path: '/admin/contact/00000000-0000-7000-8000-000000000000' },
    // e2e/moderation.test.ts checks these as an admin.
    { route: '/admin/reports', path: '/admin/reports' },
    { route: '/admin/reports/{kind}/{id}', path: '/admin/reports/user/00000000' },
    { route: '/courses', path: '/courses' },
    { route: '/dms', path: '/dms' },
    { route: '/dms/{id}', path: `/dms/${fixture.room}` },
    { route: '/drafts', path: '/drafts' },
    { route: '/example', path: '/example' },
    { route: '/exercises', path: '/exercises' },
    { route: '/histories', path: '/histories' },
    { route: '/labs', path: '/labs' },
    { route: '/labs_stories', path: '/labs_stories' },
    { route: '/plans', path: '/plans' },
    { route: '/plans/checkout', path: '/plans/checkout?plan=premium-yearly' },
    // A charge of nobody's: the step itself (e2e/plans.test.ts drives it with a real one).
    {
      route: '/plans/checkout/{chargeId}/authenticate',
      path: '/plans/checkout/nocharge0000000/authenticate',
    },
    { route: '/privacy', path: '/privacy' },
    { route: '/studies', path: '/studies' },
    { route: '/terms', path: '/terms' },
    { route: '/notifications', path: '/notifications' },
    { route: '/settings', path: '/settings' },
    { route: '/search', path: '/search?q=JavaScript' },
    { route: '/tags/{tag}', path: `/tags/${encodeURIComponent(demo.tag)}` },
    { route: '/auth/callback_google', path: '/auth/callback_google' },
    { route: '/auth/confirm', path: `/auth/confirm?username=${ME}` },
    { route: '/auth/forgotPassword', path: '/auth/forgotPassword' },
    { route: '/auth/forgotPasswordVerify', path: `/auth/forgotPasswordVerify?username=${ME}` },
    { route: '/auth/setupUsername', path: '/auth/setupUsername' },
    { route: '/auth/signin', path: '/auth/signin' },
    { route: '/auth/signup', path: '/auth/signup' },
    { route: '/{user}', path: `/${ME}` },
    { route: '/{user} (demo)', path: `/${demo.user}` },
    { route: '/{user}/followers', path: `/${ME}/followers` },
    { route: '/{user}/following', path: `/${ME}/following` },
    { route: '/{user}/labs', path: `/${ME}/labs` },
    { route: '/{user}/labs_stories', path: `/${ME}/labs_stories` },
    { route: '/{user}/studies', path: `/${ME}/studies` },
    { route: '/{user}/courses/create', path: `/${ME}/courses/create` },
    { route: '/{user}/labs_stories/create', path: `/${ME}/labs_stories/create` },
    { route: '/{user}/labs/create', path: `/${ME}/labs/create` },
    { route: '/{user}/studies/create', path: `/${ME}/studies/create` },
    { route: '/{user}/courses/{id}', path: demo.course },
    { route: '/{user}/courses/{id} (mine)', path: `/${ME}/courses/${mine.course}` },
    { route: '/{user}/courses/{id}/lessons/{lessonId}', path: demo.freeLesson },
    {
      route: '/{user}/courses/{id}/lessons/{lessonId} (premium)',
      path: `/${premium.user}/courses/${premium.course}/lessons/${premium.lesson}`,
    },
    { route: '/{user}/labs_stories/{id}', path: demo.story },
    { route: '/{user}/labs_stories/{id} (mine)', path: `/${ME}/labs_stories/${mine.story}` },
    { route: '/{user}/labs/{id}', path: demo.lab },
    { route: '/{user}/labs/{id} (mine)', path: `/${ME}/labs/${mine.lab}` },
    { route: '/{user}/studies/{id}', path: demo.study },
    { route: '/{user}/studies/{id} (mine, commented)', path: myStudy },
    { route: '/{user}/courses/{id}/edit', path: `/${ME}/courses/${mine.course}/edit` },
    { route: '/{user}/courses/edit', path: `/${ME}/courses/edit` },
    {
      route: '/{user}/courses/{id}/edit (403)',
      path: `/${premium.user}/courses/${premium.course}/edit`,
    },
    { route: '/{user}/labs_stories/{id}/edit', path: `/${ME}/labs_stories/${mine.story}/edit` },
    { route: '/{user}/labs/{id}/edit', path: `/${ME}/labs/${mine.lab}/edit` },
    { route: '/{user}/studies/{id}/edit', path: `${myStudy}/edit` },
    { route: '/{user}/studies/{id}/exercises', path: `${myStudy}/exercises` },
    { route: '/{user}/studies/{id}/exercises (demo)', path: `${demo.study}/exercises` },
    { route: '/{user}/studies/{id}/exercises/create', path: `${myStudy}/exercises/create` },
    { route: '/{user}/studies/{id}/exercises/edit', path: `${myStudy}/exercises/edit` },
    {
      route: '/{user}/studies/{id}/exercises/{questionId}/edit',
      path: `${myStudy}/exercises/${mine.question}/edit`,
    },
    { route: '404', path: '/no/such/page/here' },
    { route: '/auth/signout', path: '/auth/signout' },
  ]
}

/** Every page route of app/routes.ts as a full path pattern (`:user/courses/:id?/edit`…). */
function routePatterns(entries: RouteConfigEntry[], parent = ''): string[] {
  return entries.flatMap((entry) => {
    const path = [parent, entry.path].filter(Boolean).join('/')
    const own = entry.path !== undefined || entry.index ? [path] : []
    return [...own, ...routePatterns(entry.children ?? [], path)]
  })
}

/** Whether an address is one the pattern's route answers (`:x` one segment, `:x?` optional). */
function matches(pattern: string, path: string): boolean {
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      if (segment === '*') return '(/.+)?'
      if (segment.startsWith(':')) return segment.endsWith('?') ? '(/[^/]+)?' : '/[^/]+'
      return `/${segment}`
    })
    .join('')
  return new RegExp(`^${source || '/'}$`).test(new URL(path, 'http://x').pathname)
}

describe('axe on every route', () => {
  test('the list visits every route of app/routes.ts', () => {
    const patterns = routePatterns(routeConfig)
    // As the router does: of the patterns an address matches, the one with most fixed segments
    // (/:user/courses/create before /:user/courses/:id, /courses before /:user).
    const fixedSegments = (pattern: string) =>
      pattern.split('/').filter((segment) => segment && !/^[:*]/.test(segment)).length
    const visited = new Set(
      routes().map(({ path }) =>
        patterns
          .filter((pattern) => matches(pattern, path))
          .sort((a, b) => fixedSegments(b) - fixedSegments(a))
          .at(0),
      ),
    )
    expect(patterns.filter((pattern) => !visited.has(pattern))).toEqual([])
  })

  test.for([
    { visitor: 'guest', signedIn: false },
    { visitor: 'signed in', signedIn: true },
  ])(
    '$visitor: no violations, light and dark, desktop and mobile',
    { concurrent: true, timeout: 600_000 },
    async ({ signedIn }, { expect }) => {
      const page = await site.newPage(signedIn ? cookies[ME] : undefined)
      const failures: string[] = []
      for (const { route, path } of routes()) {
        await page.setViewportSize(SCREENS[0])
        await page.goto(path)
        await waitForHydration(page)
        for (const screen of SCREENS) {
          await page.setViewportSize(screen)
          for (const line of await axeViolationsInBothThemes(page)) {
            failures.push(`${route} ${path} [${screen.name}]${line}`)
          }
        }
      }
      expect(failures).toEqual([])
    },
  )
})

/** axe on the page as shown now, at both sizes and in both themes, each line naming the state. */
async function axeEverywhere(page: Page, state: string): Promise<string[]> {
  await waitForHydration(page)
  const failures: string[] = []
  for (const screen of SCREENS) {
    await page.setViewportSize(screen)
    for (const line of await axeViolationsInBothThemes(page)) {
      failures.push(`${state} [${screen.name}]${line}`)
    }
  }
  await page.setViewportSize(SCREENS[0])
  return failures
}

describe('axe on a study’s exercises in every state', () => {
  test('signed out, signed in, answered, and a premium question locked', async () => {
    // Someone else's study, so the premium question is locked for a free learner; two code
    // questions in the same language, as sets often have.
    const study = await studyWithExercises(OTHER, [
      {
        kind: 'code',
        prompt: '入力の数を 3 倍にして表示してください',
        explanation: '掛け算です。',
        tags: ['javascript'],
        language: 'javascript',
        starterCode: 'const n = Number(input())\n',
        referenceSolution: 'console.log(Number(input()) * 3)',
        tests: [{ name: '3 倍', stdin: '4\n', expectedOutput: '12' }],
      },
    ])
    const path = `/${OTHER}/studies/${study}/exercises`
    const failures: string[] = []

    const guest = await site.newPage()
    await guest.goto(path)
    failures.push(...(await axeEverywhere(guest, 'signed out')))

    const page = await site.newPage(cookies[ME])
    await page.goto(path)
    await page.getByText('この問題はプレミアムプランで挑戦できます').waitFor()
    failures.push(...(await axeEverywhere(page, 'signed in, premium locked')))

    // Answered on the page: one wrong, one right, with their feedback and explanations shown.
    const [single, , text] = await page.locator('section[data-question-id]').all()
    await single?.getByLabel('[1, 2]').check()
    await single?.getByRole('button', { name: '答える' }).click()
    await text?.getByLabel('答え').fill('filter')
    await text?.getByRole('button', { name: '答える' }).click()
    await text?.locator('[data-status="solved"]').waitFor()
    await single?.locator('[data-status="attempted"]').waitFor()
    failures.push(...(await axeEverywhere(page, 'answered')))
    // And as the page opens for a learner who answered before.
    await page.reload()
    failures.push(...(await axeEverywhere(page, 'answered, reloaded')))

    expect(failures).toEqual([])
  }, 300_000)
})
