import type { Locator, Page } from 'playwright-core'
import { describe, expect, test } from 'vitest'
import { axeViolationsInBothThemes } from './axe.ts'
import { collectPageErrors, markdownEditor, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Exercises end to end, in Chromium against the real server: an author writes a study with
 * one question of each kind (the publish is refused while a reference solution fails, naming
 * the question) and publishes it; a learner answers each wrong then right, runs JavaScript and
 * Python in the browser (an infinite loop ends at the time limit), submits code the server
 * re-runs, sees 正解済み everywhere (/histories, /exercises); a forged "solved" is refused.
 */
const site = browserSuite()

/**
 * Two contrast failures inside i16-runners' components, reported to the lead for that branch
 * (not this one's files): the run panel's 「最初のコードに戻す」 in dark mode (`dark:text-brand-300`
 * is no colour of the palette) and CodeMirror's #e40 (escapes, `${}` and f-string braces) on a
 * light page. Everything else on these pages must pass; remove this once those are fixed.
 */
const AUTHOR = 'aoi_exercises'
const LEARNER = 'ren_exercises'

/** The save state of the question editor, once it has settled. */
async function saved(page: Page) {
  await expect
    .poll(() => page.locator('[data-save-state]').first().getAttribute('data-save-state'), {
      timeout: 15_000,
    })
    .toBe('saved')
}

/** On `…/exercises/create`: writes the common part, lets `fill` write the kind's part, waits for the save. */
async function addQuestion(
  page: Page,
  exercises: string,
  kind: 'single' | 'multiple' | 'text' | 'code',
  prompt: string,
  fill: () => Promise<void>,
) {
  await page.goto(`${exercises}/create`)
  await waitForHydration(page)
  await page.getByLabel('問題の種類').selectOption(kind)
  await (await markdownEditor(page, '問題文（Markdown）')).fill(prompt)
  await (await markdownEditor(page, '解説（答えたあとに表示されます）')).fill(
    `${prompt} の解説です。`,
  )
  await fill()
  await page.waitForURL(new RegExp(`${exercises}/[0-9a-z]{16}/edit$`), { timeout: 15_000 })
  await saved(page)
}

/** Replaces the text of a CodeMirror code editor (app/components/code-editor.tsx) found in `scope`. */
async function typeCode(scope: Locator, label: string, code: string) {
  const editor = scope.locator('.cm-content').and(scope.getByRole('textbox', { name: label }))
  await editor.waitFor()
  await editor.fill(code)
}

/** The learner's card of question `number` (1-based). */
function card(page: Page, number: number) {
  return page.locator('section[data-question-id]').nth(number - 1)
}

async function verdictOf(page: Page, number: number) {
  const verdict = card(page, number).locator('[data-verdict]')
  await verdict.waitFor({ timeout: 30_000 })
  return verdict.getAttribute('data-verdict')
}

describe('exercises, from writing to solving', () => {
  test('author publishes one question of each kind; a learner solves them all and the forged solve fails', {
    timeout: 300_000,
  }, async () => {
    const author = await site.signedInPage(AUTHOR)
    const errors = collectPageErrors(author)

    // The study, then its questions.
    await author.goto(`/${AUTHOR}/studies/create`)
    await waitForHydration(author)
    await author.getByLabel('タイトル', { exact: true }).fill('はじめてのプログラミング演習')
    await author.waitForURL(/\/studies\/[0-9a-z]{16}\/edit$/)
    const studyPath = new URL(author.url()).pathname.replace(/\/edit$/, '')
    const exercises = `${studyPath}/exercises`

    await addQuestion(
      author,
      exercises,
      'single',
      '変数を作るキーワードはどれ？（再代入しない）',
      async () => {
        await author.getByLabel('選択肢 1', { exact: true }).fill('let')
        await author.getByLabel('選択肢 2', { exact: true }).fill('const')
        await author.getByLabel('選択肢 2を正解にする').check()
      },
    )
    await addQuestion(
      author,
      exercises,
      'multiple',
      '数を表す値をすべて選んでください',
      async () => {
        await author.getByRole('button', { name: '選択肢を追加' }).click()
        await author.getByLabel('選択肢 1', { exact: true }).fill('42')
        await author.getByLabel('選択肢 2', { exact: true }).fill("'42'")
        await author.getByLabel('選択肢 3', { exact: true }).fill('3.14')
        await author.getByLabel('選択肢 1を正解にする').check()
        await author.getByLabel('選択肢 3を正解にする').check()
      },
    )
    await addQuestion(
      author,
      exercises,
      'text',
      '再代入できない変数を作るキーワードは？',
      async () => {
        await author.getByLabel('正解 1', { exact: true }).fill('const')
      },
    )
    await addQuestion(author, exercises, 'code', '2 行の数の和を表示してください', async () => {
      await author.getByLabel('言語').selectOption('javascript')
      await typeCode(
        author.locator('body'),
        '模範解答',
        'console.log(Number(input()) + Number(input()))',
      )
      await author.getByLabel('テスト 1の標準入力').fill('1\n2\n')
      await author.getByLabel('テスト 1の期待する出力').fill('3')
      await author.getByRole('button', { name: 'テストを追加' }).click()
      await author.getByLabel('非公開テスト（提出時のみ）').nth(1).check()
      await author.getByLabel('テスト 2の標準入力').fill('10\n-4\n')
      await author.getByLabel('テスト 2の期待する出力').fill('6')
    })
    // The reference check runs in this browser (the runners' panel), every test included.
    await author.getByRole('button', { name: '実行' }).click()
    await expect
      .poll(
        () =>
          author
            .getByRole('list', { name: '例の実行結果' })
            .locator('[data-test-passed="true"]')
            .count(),
        {
          timeout: 30_000,
        },
      )
      .toBe(2)

    // A Python question whose reference is wrong at first.
    await addQuestion(author, exercises, 'code', '名前にあいさつしてください', async () => {
      await author.getByLabel('言語').selectOption('python')
      await typeCode(author.locator('body'), '模範解答', 'print("hello " + input())')
      await author.getByLabel('テスト 1の標準入力').fill('Taro\n')
      await author.getByLabel('テスト 1の期待する出力').fill('こんにちは、Taroさん')
    })
    const pythonQuestion = author.url()
    expect(await axeViolationsInBothThemes(author)).toEqual([])

    await author.goto(`${exercises}/edit`)
    await waitForHydration(author)
    expect(await author.locator('li[data-question-id]').count()).toBe(5)
    // Reorder: the text question up and back down, by the labelled buttons.
    await author.getByRole('button', { name: '問題 3を上へ' }).click()
    await expect
      .poll(() => author.locator('li[data-question-id]').nth(1).textContent())
      .toContain('記述')
    await author.getByRole('button', { name: '問題 2を下へ' }).click()
    await expect
      .poll(() => author.locator('li[data-question-id]').nth(2).textContent())
      .toContain('記述')

    await author.getByRole('button', { name: '公開する' }).click()
    const refusal = author.getByRole('alert')
    await refusal.waitFor({ timeout: 120_000 })
    expect(await refusal.textContent()).toContain('問題 5 の模範解答')
    expect(await axeViolationsInBothThemes(author)).toEqual([])
    expect(
      await author.locator('[data-publication-status]').getAttribute('data-publication-status'),
    ).toBe('draft')

    await author.goto(pythonQuestion)
    await waitForHydration(author)
    await typeCode(
      author.locator('body'),
      '模範解答',
      'name = input()\nprint(f"こんにちは、{name}さん")',
    )
    await saved(author)
    await author.goto(`${exercises}/edit`)
    await waitForHydration(author)
    await author.getByRole('button', { name: '公開する' }).click()
    await expect
      .poll(
        () => author.locator('[data-publication-status]').getAttribute('data-publication-status'),
        {
          timeout: 120_000,
        },
      )
      .toBe('published')
    expect(errors).toEqual([])

    // The learner: every kind wrong, then right.
    const learner = await site.signedInPage(LEARNER)
    const learnerErrors = collectPageErrors(learner)
    await learner.goto(exercises)
    await waitForHydration(learner)
    expect(await learner.locator('[data-status="not_started"]').count()).toBe(5)

    const single = card(learner, 1)
    await single.getByLabel('let').check()
    await single.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(learner, 1)).toBe('incorrect')
    expect(await single.locator('[data-option-mark="wrong"]').count()).toBe(1)
    expect(await single.textContent()).toContain('の解説です。')
    await single.getByLabel('const').check()
    await single.getByRole('button', { name: '答える' }).click()
    await expect
      .poll(() => single.locator('[data-verdict]').getAttribute('data-verdict'))
      .toBe('correct')
    expect(await single.locator('[data-status]').getAttribute('data-status')).toBe('solved')

    const multiple = card(learner, 2)
    await multiple.getByLabel('42', { exact: true }).check()
    await multiple.getByLabel("'42'").check()
    await multiple.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(learner, 2)).toBe('incorrect')
    expect(await multiple.locator('[data-option-mark="wrong"]').count()).toBe(1)
    expect(await multiple.locator('[data-verdict]').textContent()).toContain('あと 1 個')
    await multiple.getByLabel("'42'").uncheck()
    await multiple.getByLabel('3.14').check()
    await multiple.getByRole('button', { name: '答える' }).click()
    await expect
      .poll(() => multiple.locator('[data-verdict]').getAttribute('data-verdict'))
      .toBe('correct')

    const text = card(learner, 3)
    await text.getByLabel('答え').fill('let')
    await text.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(learner, 3)).toBe('incorrect')
    // Full-width and upper case fold to the accepted answer.
    await text.getByLabel('答え').fill('ＣＯＮＳＴ')
    await text.getByRole('button', { name: '答える' }).click()
    await expect
      .poll(() => text.locator('[data-verdict]').getAttribute('data-verdict'))
      .toBe('correct')

    for (const { number, loop, wrong, right, hidden } of [
      {
        number: 4,
        loop: 'while (true) {}',
        wrong: 'console.log(input() + input())',
        right: 'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)',
        // Its one hidden test is only counted.
        hidden: ['非公開テスト 1 件中 0 件に合格しました', '非公開テスト 1 件すべてに合格しました'],
      },
      {
        number: 5,
        loop: 'while True:\n    pass',
        wrong: 'print("こんにちは")',
        right: 'name = input()\nprint(f"こんにちは、{name}さん")',
        hidden: undefined,
      },
    ]) {
      const code = card(learner, number)
      const results = code.getByRole('list', { name: '例の実行結果' })
      // Run in the browser: the loop ends at the time limit with the Japanese message.
      await typeCode(code, 'あなたのコード', loop)
      await code.getByRole('button', { name: '実行' }).click()
      await expect
        .poll(() => results.textContent(), { timeout: 120_000 })
        .toContain('無限ループになっていないか確かめてください')
      await typeCode(code, 'あなたのコード', wrong)
      await code.getByRole('button', { name: '提出' }).click()
      expect(await verdictOf(learner, number)).toBe('incorrect')
      if (hidden) {
        expect(await code.locator('[data-verdict]').textContent()).toContain(hidden[0])
      }
      await typeCode(code, 'あなたのコード', right)
      await code.getByRole('button', { name: '実行' }).click()
      await expect
        .poll(() => results.locator('[data-test-passed="true"]').count(), { timeout: 60_000 })
        .toBe(1)
      await code.getByRole('button', { name: '提出' }).click()
      await expect
        .poll(() => code.locator('[data-verdict]').getAttribute('data-verdict'), {
          timeout: 120_000,
        })
        .toBe('correct')
      if (hidden) {
        expect(await code.locator('[data-verdict]').textContent()).toContain(hidden[1])
      }
    }

    // Every card answered, verdicts, explanations and run results showing.
    expect(await axeViolationsInBothThemes(learner)).toEqual([])
    await learner.reload()
    await waitForHydration(learner)
    expect(await learner.locator('section[data-question-id] [data-status="solved"]').count()).toBe(
      5,
    )
    expect(await learner.locator('[data-solved]').first().getAttribute('data-solved')).toBe('5/5')

    await learner.goto(studyPath)
    await waitForHydration(learner)
    expect(await learner.locator('[data-solved]').getAttribute('data-solved')).toBe('5/5')
    expect(
      await learner.getByRole('link', { name: 'このスタディの演習（5 問）' }).getAttribute('href'),
    ).toBe(exercises)

    await learner.goto('/histories')
    await waitForHydration(learner)
    expect(await learner.locator('[data-stat="exercises"]').textContent()).toContain('5 問')
    expect(await learner.getByText('問題を解いた').count()).toBeGreaterThan(0)

    await learner.goto('/exercises?status=solved')
    await waitForHydration(learner)
    const solvedCards = learner.locator('article', { hasText: 'はじめてのプログラミング演習' })
    expect(await solvedCards.count()).toBe(5)
    expect(await solvedCards.locator('[data-status="solved"]').count()).toBe(5)
    expect(await axeViolationsInBothThemes(learner)).toEqual([])
    expect(learnerErrors).toEqual([])

    // A forged "solved": the request can only carry an answer, which the server grades itself.
    const forger = await site.signedInPage('sora_exercises')
    await forger.goto(exercises)
    await waitForHydration(forger)
    const questionId = await card(forger, 4).getAttribute('data-question-id')
    const forged = await forger.evaluate(async (id) => {
      const post = (path: string, body: unknown) =>
        fetch(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then(async (response) => ({ status: response.status, body: await response.json() }))
      return {
        claim: await post(`/api/questions/${id}/answers`, {
          kind: 'code',
          code: 'console.log(3)',
          verdict: 'correct',
          passed: true,
          status: 'solved',
        }),
        solvedRoute: await post(`/api/questions/${id}/solved`, { solved: true }),
      }
    }, questionId)
    expect(forged.solvedRoute.status).toBe(404)
    expect(forged.claim.body.verdict ?? forged.claim.status).not.toBe('correct')
    await forger.reload()
    await waitForHydration(forger)
    expect(await card(forger, 4).locator('[data-status]').getAttribute('data-status')).not.toBe(
      'solved',
    )
    // Started and not finished: the home page offers to continue, at the next unsolved question.
    await forger.goto('/')
    await waitForHydration(forger)
    const continueCard = forger.locator('[data-continue-exercises]')
    expect(await continueCard.textContent()).toContain('0 / 5 問正解')
    await continueCard.getByRole('link', { name: '続きの問題に挑戦' }).click()
    await forger.waitForURL(new RegExp(`${exercises}#question-`))
  })

  test("a guest answers /example's sample set (every kind, JavaScript and Python run and graded) without an account", {
    timeout: 300_000,
  }, async () => {
    const guest = await site.newPage()
    const errors = collectPageErrors(guest)
    await guest.goto('/example')
    await waitForHydration(guest)
    expect(await guest.locator('section[data-question-id]').count()).toBe(5)
    // The page carries no correct answer: what the guest could read in the HTML.
    const html = await guest.content()
    expect(html).not.toContain('console.log(a + b)')
    expect(html).not.toContain('"correct"')

    const single = card(guest, 1)
    await single.getByLabel('let').check()
    await single.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(guest, 1)).toBe('incorrect')
    await single.getByLabel('const', { exact: true }).check()
    await single.getByRole('button', { name: '答える' }).click()
    await expect
      .poll(() => single.locator('[data-verdict]').getAttribute('data-verdict'))
      .toBe('correct')

    const multiple = card(guest, 2)
    await multiple.getByLabel('userName').check()
    await multiple.getByLabel('_count').check()
    await multiple.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(guest, 2)).toBe('correct')

    const text = card(guest, 3)
    await text.getByLabel('答え').fill(' こんにちは、さくらさん ')
    await text.getByRole('button', { name: '答える' }).click()
    expect(await verdictOf(guest, 3)).toBe('correct')

    for (const [number, right] of [
      [4, 'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)'],
      [5, 'name = input()\nprint(f"こんにちは、{name}さん")'],
    ] as const) {
      const code = card(guest, number)
      await typeCode(code, 'あなたのコード', right)
      await code.getByRole('button', { name: '実行' }).click()
      await expect
        .poll(
          () =>
            code
              .getByRole('list', { name: '例の実行結果' })
              .locator('[data-test-passed="false"]')
              .count(),
          {
            timeout: 120_000,
          },
        )
        .toBe(0)
      await code.getByRole('button', { name: '提出' }).click()
      await expect
        .poll(() => code.locator('[data-verdict]').getAttribute('data-verdict'), {
          timeout: 120_000,
        })
        .toBe('correct')
    }
    expect(await guest.getByRole('link', { name: '無料で始める' }).count()).toBeGreaterThan(0)
    expect(await axeViolationsInBothThemes(guest)).toEqual([])

    // Nothing was stored: a reload starts over.
    await guest.reload()
    await waitForHydration(guest)
    expect(await guest.locator('[data-status="not_started"]').count()).toBe(5)
    expect(errors).toEqual([])
  })

  test('a question saved from another tab is not overwritten: the conflict banner shows what this tab holds', {
    timeout: 120_000,
  }, async () => {
    const first = await site.signedInPage('mei_exercises')
    await first.goto('/')
    // The study and one question, made through /api as the editors do.
    const made = await first.evaluate(async () => {
      const send = (method: string, path: string, body: unknown) =>
        fetch(`/api${path}`, {
          method,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((response) => response.json())
      const study = await send('POST', '/studies', { title: '競合のテスト' })
      const question = await send('POST', `/studies/${study.id}/questions`, {
        kind: 'text',
        prompt: '最初の問題文',
        acceptedAnswers: ['a'],
      })
      return { study: study.id as string, question: question.id as string }
    })
    const address = `/mei_exercises/studies/${made.study}/exercises/${made.question}/edit`
    await first.goto(address)
    await waitForHydration(first)
    const second = await first.context().newPage()
    await second.goto(address)
    await waitForHydration(second)

    await (await markdownEditor(second, '問題文（Markdown）')).fill('もう一方のタブの問題文')
    await saved(second)
    await (await markdownEditor(first, '問題文（Markdown）')).fill('このタブの問題文')
    const banner = first
      .getByRole('alert')
      .filter({ hasText: 'ほかのタブまたは端末で更新されています' })
    await banner.waitFor({ timeout: 15_000 })
    expect(await banner.locator('[data-unsaved-text]').inputValue()).toContain('このタブの問題文')
    await second.reload()
    await waitForHydration(second)
    expect(await second.locator('textarea[name="prompt"]').inputValue()).toBe(
      'もう一方のタブの問題文',
    )
  })
})
