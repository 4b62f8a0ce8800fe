import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/** /example: the sample lesson a guest reads without an account. */
let server: TestServer

beforeAll(async () => {
  // A low code limit, so that the per-address limit of guests' submissions is seen.
  server = await startTestServer({ CODE_SUBMISSIONS_PER_USER_PER_MINUTE: '2' })
})

/** A guest's answer to a sample question, as /example's cards send it. */
async function answer(questionId: string, body: unknown) {
  const response = await fetch(`${server.url}/api/example/questions/${questionId}/answers`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  return { status: response.status, body: await response.json() }
}
afterAll(async () => {
  await server?.close()
})

describe('/example', () => {
  it('shows a guest the whole sample lesson with highlighted code, shareably cached', async () => {
    const response = await fetch(`${server.url}/example`, { redirect: 'manual' })
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toContain('public')
    const html = await response.text()
    expect(html).toContain('変数で値に名前をつける')
    expect(html).toMatch(/<h2[^>]*>const で変数を作る<\/h2>/)
    expect(html).toMatch(/<pre[^>]*><code[^>]*>.*<span style="color:light-dark\(/s)
    expect(html).toContain('<table>')
    expect(html).not.toContain('準備中')
  })

  it('invites the reader to sign up for the free plan', async () => {
    const html = await (await fetch(`${server.url}/example`)).text()
    expect(html).toContain('続きは無料プランで')
    expect(html).toMatch(/<a[^>]*href="\/auth\/signup"[^>]*>無料で始める<\/a>/)
  })

  it('ends with a sample exercise set of every kind, and no answer in the page', async () => {
    const html = await (await fetch(`${server.url}/example`)).text()
    expect(html).toContain('お試し演習')
    expect(html.match(/data-question-kind="(\w+)"/g)).toEqual([
      'data-question-kind="single"',
      'data-question-kind="multiple"',
      'data-question-kind="text"',
      'data-question-kind="code"',
      'data-question-kind="code"',
    ])
    // Neither the correct flags, the accepted answer, the reference solutions nor hidden tests.
    expect(html).not.toMatch(/"correct"|acceptedAnswers|referenceSolution|654321|Taro/)
    expect(html).not.toContain('print(f"こんにちは、{name}さん")')
  })

  it("grades a guest's answers on the server by the questions' rules, storing nothing", async () => {
    expect(await answer('sample-const', { kind: 'single', optionId: 'let' })).toMatchObject({
      status: 200,
      body: { verdict: 'incorrect', status: 'attempted', feedback: { chosenWrong: true } },
    })
    const right = await answer('sample-const', { kind: 'single', optionId: 'const' })
    expect(right.body).toMatchObject({ verdict: 'correct', status: 'solved' })
    expect(right.body.explanationHtml).toContain('<code>const</code>')
    expect(right.body).not.toHaveProperty('attemptId')
    expect(
      (await answer('sample-names', { kind: 'multiple', optionIds: ['camel', 'hyphen'] })).body,
    ).toMatchObject({
      verdict: 'incorrect',
      feedback: { wrongOptionIds: ['hyphen'], missingCorrect: 1 },
    })
    // Width, case and surrounding spaces are folded as for a study's text questions.
    expect(
      (await answer('sample-template', { kind: 'text', text: ' こんにちは、さくらさん ' })).body
        .verdict,
    ).toBe('correct')
    expect((await answer('sample-const', { kind: 'text', text: 'const' })).status).toBe(400)
    expect((await answer('no-such-sample', { kind: 'text', text: 'x' })).status).toBe(404)
    const history = await server.database.db.selectFrom('question_attempts').selectAll().execute()
    expect(history).toEqual([])
  })

  it("runs submitted code in the server's sandbox, hidden tests too, limited per address", async () => {
    const passesVisibleOnly = await answer('sample-js-sum', {
      kind: 'code',
      code: 'const a = input(); const b = input(); console.log(a === "123456" ? 0 : Number(a) + Number(b))',
    })
    expect(passesVisibleOnly.body.verdict).toBe('incorrect')
    // The hidden test is only counted: not its name, input, expected output or time.
    expect(passesVisibleOnly.body.feedback.hiddenTests).toEqual({
      total: 1,
      passed: 0,
      allPassed: false,
      message: null,
    })
    expect(JSON.stringify(passesVisibleOnly.body)).not.toContain('大きな数')
    const right = await answer('sample-js-sum', {
      kind: 'code',
      code: 'console.log(Number(input()) + Number(input()))',
    })
    expect(right.body.verdict).toBe('correct')
    const limited = await answer('sample-js-sum', { kind: 'code', code: 'console.log(3)' })
    expect(limited.status).toBe(429)
    expect(limited.body.error.message).toContain('少し待って')
  })
})
