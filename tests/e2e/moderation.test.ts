import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { directMessageRoom, type Member, sendMessage } from '#tests/support/direct-messages.ts'
import { callApi, fetchPage } from '#tests/support/http.ts'
import { newSignedInUser, signedInMember } from '#tests/support/signed-in-user.ts'
import { submitSignIn } from './auth-support.ts'
import { axeAtBothSizes } from './axe.ts'
import { collectPageErrors, waitForHydration } from './browser.ts'
import { browserSuite } from './suite.ts'

/**
 * Reports and moderation in Chromium: A reports B's message from the room, an
 * admin opens /admin/reports and hides it; B sees it marked hidden, A no longer sees its text;
 * the admin suspends B, whose session ends and whose next sign-in is refused in Japanese. axe
 * checks the report dialog and every admin page. Each test reports users and content of its own;
 * only the admin, named by the server's settings, is shared.
 */
const ADMIN = 'mika_admin'
const site = browserSuite({ ADMIN_USERS: ADMIN, DM_MESSAGES_PER_USER_PER_MINUTE: '1000' })
const BAD = 'おまえは本当にだめなやつだ'
let admin: Member

async function api(who: Member, method: string, path: string, body?: unknown) {
  const answer = await callApi(site.server.url, method, path, who.cookie, body)
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBeLessThan(300)
  return answer.body
}

beforeAll(async () => {
  admin = await signedInMember(site.server, ADMIN)
}, 60_000)

const messageItem = (page: Page, id: string) => page.locator(`li[data-message="${id}"]`)

describe('reporting and moderation', () => {
  test('A reports B’s message; an admin hides it; B sees it marked, A no longer sees it', async () => {
    const { room, opener: A, other: B } = await directMessageRoom(site.server, ['akane', 'bun'])
    const roomPath = `/dms/${room}`
    await sendMessage(site.server, A, room, 'こんにちは')
    const messageId = (await sendMessage(site.server, B, room, BAD)).id

    const a = await site.newPage(A.cookie)
    const aErrors = collectPageErrors(a)
    await a.goto(roomPath)
    await waitForHydration(a)
    // A's own message has no report button; B's has one, which opens the dialog.
    const own = a.locator('li[data-message]').filter({ hasText: 'こんにちは' })
    expect(await own.getByRole('button', { name: /報告する/ }).count()).toBe(0)
    await messageItem(a, messageId)
      .getByRole('button', { name: /報告する/ })
      .click()
    const dialog = a.getByRole('dialog', { name: 'このメッセージを報告する' })
    await dialog.waitFor()
    const a11y = await axeAtBothSizes(a)
    // Sent without a reason, it says so in Japanese and sends nothing.
    await dialog.getByRole('button', { name: '報告を送る' }).click()
    await dialog.getByRole('alert').getByText('理由を選んでください').waitFor()
    await dialog.getByLabel('嫌がらせ・いじめ').check()
    await dialog.getByLabel(/補足/).fill('何度も同じことを言われます')
    await dialog.getByRole('button', { name: '報告を送る' }).click()
    await a.getByRole('status').getByText('報告を受け付けました', { exact: false }).waitFor()
    expect(await dialog.isVisible()).toBe(false)

    // Non-admins get 403 at /admin/reports, guests are sent to sign in; the API likewise.
    expect((await fetchPage(site.server.url, '/admin/reports', A.cookie)).status).toBe(403)
    expect((await callApi(site.server.url, 'GET', '/admin/reports', A.cookie)).status).toBe(403)
    expect((await callApi(site.server.url, 'GET', '/admin/reports')).status).toBe(401)

    const adminPage = await site.newPage(admin.cookie)
    const adminErrors = collectPageErrors(adminPage)
    await adminPage.goto('/admin/reports')
    await waitForHydration(adminPage)
    const entry = adminPage
      .getByTestId('reports')
      .getByRole('listitem')
      .filter({ hasText: 'メッセージ' })
    expect(await entry.textContent()).toContain('嫌がらせ・いじめ')
    a11y.push(...(await axeAtBothSizes(adminPage)))
    await entry.getByRole('link').click()
    await adminPage.waitForURL(`**/admin/reports/message/${messageId}`)
    await waitForHydration(adminPage)
    // The message in context (with the one before it), the report with its note.
    const context = adminPage.getByTestId('message-context')
    expect(await context.textContent()).toContain('こんにちは')
    expect(await context.locator('[aria-current="true"]').textContent()).toContain(BAD)
    expect(await adminPage.getByTestId('report-list').textContent()).toContain(
      '何度も同じことを言われます',
    )
    a11y.push(...(await axeAtBothSizes(adminPage)))
    await adminPage.getByRole('button', { name: '非表示にする' }).click()
    await adminPage.getByRole('status').getByText('非表示にしました。').waitFor()
    await expect
      .poll(() => adminPage.getByTestId('moderation-state').textContent())
      .toContain('非表示（')
    expect(await adminPage.getByTestId('moderation-log').textContent()).toContain(
      `非表示にした・@${ADMIN}・`,
    )
    expect(await adminPage.getByTestId('report-list').textContent()).toContain('対応済み')

    // A's open page loses the text (live, or on its next catch-up).
    await expect
      .poll(() => messageItem(a, messageId).textContent(), { timeout: 20_000 })
      .toContain('このメッセージは運営により非表示になりました')
    expect(await messageItem(a, messageId).textContent()).not.toContain(BAD)
    await a.reload()
    await waitForHydration(a)
    expect(await messageItem(a, messageId).textContent()).not.toContain(BAD)
    expect(
      await messageItem(a, messageId)
        .getByRole('button', { name: /報告する/ })
        .count(),
    ).toBe(0)

    // B still sees their message, marked hidden with the reason.
    const b = await site.newPage(B.cookie)
    const bErrors = collectPageErrors(b)
    await b.goto(roomPath)
    await waitForHydration(b)
    const mine = messageItem(b, messageId)
    expect(await mine.textContent()).toContain(BAD)
    expect(await mine.locator('[data-moderation-hidden]').textContent()).toContain(
      '運営により非表示（理由: 嫌がらせ・いじめ）',
    )
    a11y.push(...(await axeAtBothSizes(b)))

    // The queue moved it to 対応済み.
    await adminPage.goto('/admin/reports')
    await waitForHydration(adminPage)
    await adminPage.getByText('未対応の報告はありません').waitFor()
    await adminPage.getByRole('link', { name: '対応済み' }).click()
    await adminPage.getByTestId('reports').waitFor()
    a11y.push(...(await axeAtBothSizes(adminPage)))

    expect(a11y).toEqual([])
    expect(aErrors).toEqual([])
    expect(bErrors).toEqual([])
    expect(adminErrors).toEqual([])
  })

  test('A reports B’s profile; the admin suspends B: the session ends, the next sign-in is refused', async () => {
    const A = await newSignedInUser(site.server, 'akane')
    const { username: B, cookie: bCookie, id: bId } = await newSignedInUser(site.server, 'bun')
    const a = await site.newPage(A.cookie)
    const aErrors = collectPageErrors(a)
    await a.goto(`/${B}`)
    await waitForHydration(a)
    await a.getByRole('button', { name: /報告する/ }).click()
    const dialog = a.getByRole('dialog', { name: 'このユーザーを報告する' })
    await dialog.getByLabel('スパム').check()
    await dialog.getByRole('button', { name: '報告を送る' }).click()
    await a.getByRole('status').getByText('報告を受け付けました', { exact: false }).waitFor()

    const adminPage = await site.newPage(admin.cookie)
    const adminErrors = collectPageErrors(adminPage)
    await adminPage.goto('/admin/reports')
    await waitForHydration(adminPage)
    await adminPage
      .getByTestId('reports')
      .getByRole('link', { name: /ユーザー/ })
      .click()
    await adminPage.waitForURL(`**/admin/reports/user/${bId}`)
    await waitForHydration(adminPage)
    expect(await adminPage.getByTestId('moderation-state').textContent()).toBe('利用中')
    const a11y = await axeAtBothSizes(adminPage)
    await adminPage.getByLabel('メモ（任意）').fill('スパムの繰り返し')
    await adminPage.getByRole('button', { name: '利用停止にする' }).click()
    await adminPage
      .getByRole('status')
      .getByText('利用停止にしました。', { exact: false })
      .waitFor()
    await expect
      .poll(() => adminPage.getByTestId('moderation-state').textContent())
      .toContain('利用停止中')

    // B's tokens no longer pass: the API answers 401, a members' page sends B to sign in.
    expect((await callApi(site.server.url, 'GET', '/dms/rooms', bCookie)).status).toBe(401)
    const b = await site.newPage()
    const bErrors = collectPageErrors(b)
    await b.goto('/auth/signin')
    await waitForHydration(b)
    await submitSignIn(b, B)
    await b
      .getByRole('alert')
      .getByText('このアカウントは現在利用できません。お問い合わせください。')
      .waitFor()
    a11y.push(...(await axeAtBothSizes(b)))

    // Lifted, B signs in again.
    await adminPage.getByRole('button', { name: '利用停止を解除する' }).click()
    await adminPage.getByRole('status').getByText('利用停止を解除しました。').waitFor()
    await submitSignIn(b, B)
    await b.waitForURL((url) => !url.pathname.startsWith('/auth/'))

    expect(a11y).toEqual([])
    expect(aErrors).toEqual([])
    expect(adminErrors).toEqual([])
    expect(bErrors).toEqual([])
  })

  test('A reports C’s study and a comment; hidden, the study is C’s alone, with the reason', async () => {
    const A = await newSignedInUser(site.server, 'akane')
    const C = await newSignedInUser(site.server, 'chika')
    const created = await api(C, 'POST', '/studies', { title: '盗用されたノート', notes: '# 本文' })
    await api(C, 'POST', `/studies/${created.id}/publish`, { revision: 1 })
    const studyPath = `/${C.username}/studies/${created.id}`
    const comment = await api(C, 'POST', `/comments/study/${created.id}`, {
      body: '自分のコメント',
    })

    const a = await site.newPage(A.cookie)
    const aErrors = collectPageErrors(a)
    await a.goto(studyPath)
    await waitForHydration(a)
    // The study's button, and the comment's (named for its kind).
    await a.getByRole('button', { name: /^報告する\s*（スタディ）$/ }).click()
    const dialog = a.getByRole('dialog', { name: 'このスタディを報告する' })
    const a11y = await axeAtBothSizes(a)
    await dialog.getByLabel('著作権の侵害').check()
    await dialog.getByRole('button', { name: '報告を送る' }).click()
    await a.getByRole('status').getByText('報告を受け付けました', { exact: false }).waitFor()
    await a.getByRole('button', { name: /^報告する\s*（コメント）$/ }).click()
    const commentDialog = a.getByRole('dialog', { name: 'このコメントを報告する' })
    await commentDialog.getByLabel('スパム').check()
    await commentDialog.getByRole('button', { name: '報告を送る' }).click()
    await commentDialog.waitFor({ state: 'hidden' })

    const adminPage = await site.newPage(admin.cookie)
    const adminErrors = collectPageErrors(adminPage)
    await adminPage.goto(`/admin/reports/comment/${comment.id}`)
    await waitForHydration(adminPage)
    a11y.push(...(await axeAtBothSizes(adminPage)))
    await adminPage.goto(`/admin/reports/study/${created.id}`)
    await waitForHydration(adminPage)
    expect(await adminPage.getByRole('link', { name: studyPath }).count()).toBe(1)
    a11y.push(...(await axeAtBothSizes(adminPage)))
    await adminPage.getByLabel('メモ（任意）').fill('他のサイトからの転載です')
    await adminPage.getByRole('button', { name: '非表示にする' }).click()
    await adminPage.getByRole('status').getByText('非表示にしました。').waitFor()

    // Gone for A and for guests (404, and off the lists); C reads it with the notice.
    expect((await fetchPage(site.server.url, studyPath, A.cookie)).status).toBe(404)
    expect((await fetchPage(site.server.url, studyPath)).status).toBe(404)
    expect((await fetchPage(site.server.url, '/studies')).html).not.toContain('盗用されたノート')
    const b = await site.newPage(C.cookie)
    const bErrors = collectPageErrors(b)
    await b.goto(studyPath)
    await waitForHydration(b)
    const notice = b
      .getByRole('note')
      .filter({ hasText: 'このスタディは運営により非表示になっています。' })
    expect(await notice.textContent()).toContain('理由: 他のサイトからの転載です')
    a11y.push(...(await axeAtBothSizes(b)))

    expect(a11y).toEqual([])
    expect(aErrors).toEqual([])
    expect(adminErrors).toEqual([])
    expect(bErrors).toEqual([])
  })
})
