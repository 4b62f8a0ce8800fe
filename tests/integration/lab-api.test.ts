import { randomBytes } from 'node:crypto'
import { PutObjectCommand } from '@aws-sdk/client-s3'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PNG_1X1 } from '#tests/e2e/fixtures/images.ts'
import { callApi, fetchPage } from '#tests/support/http.ts'
import type { TestServer } from '#tests/support/test-server.ts'
import { BUCKET, signedInPageUser, startStorageServer } from './storage/support.ts'

/**
 * Labs and lab stories against the real server and object storage: screenshots and covers are
 * really uploaded with the identity pool's credentials, and the server accepts only the
 * author's own; ownership, revisions, field errors, pages, lists and search.
 */
type User = Awaited<ReturnType<typeof signedInPageUser>>

let server: TestServer

beforeAll(async () => {
  server = await startStorageServer()
})
afterAll(async () => {
  await server?.close()
})

const call = (method: string, path: string, who?: User, body?: unknown) =>
  callApi(server.url, method, path, who?.cookie, body)
const page = (path: string, who?: User) => fetchPage(server.url, path, who?.cookie)

/** Uploads an image as `who`, into their own public folder unless `key` says otherwise. */
async function upload(who: User, key = `public/${who.identityId}/labs/${randomHex()}.png`) {
  await who.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: Buffer.concat([PNG_1X1, randomBytes(1024)]),
      ContentType: 'image/png',
    }),
  )
  return key
}

function randomHex() {
  return randomBytes(6).toString('hex')
}

/** Each test's own author and someone else, so no test depends on what another left behind. */
async function authorAndOther(): Promise<{ author: User; other: User }> {
  return {
    author: await signedInPageUser(server, 'labauthor'),
    other: await signedInPageUser(server, 'labother'),
  }
}

const DESCRIPTION = '## 使った技術\n\n<script>alert(1)</script>Fetch API と Chart.js'

/** A draft lab by `author` with a screenshot they uploaded. */
async function draftLab(author: User) {
  const screenshot = await upload(author)
  const created = await call('POST', '/labs', author, {
    title: '天気ダッシュボード',
    description: DESCRIPTION,
    tags: ['ＪａｖａＳｃｒｉｐｔ'],
    repositoryUrl: 'https://github.com/example/weather',
    demoUrl: 'https://weather.example.com',
    screenshotKeys: [screenshot],
  })
  expect(created.status).toBe(201)
  return { labId: created.body.id as string, revision: created.body.revision as number, screenshot }
}

async function publishedLab(author: User) {
  const { labId, revision, screenshot } = await draftLab(author)
  const published = await call('POST', `/labs/${labId}/publish`, author, { revision })
  expect(published.status).toBe(200)
  return { labId, revision: published.body.revision as number, screenshot }
}

describe('lab API and pages', () => {
  it("accepts only the author's own uploaded screenshots, saving nothing otherwise", async () => {
    const { author, other } = await authorAndOther()
    const screenshot = await upload(author)
    const theirs = await upload(other)
    // Public, uploaded by the author, but outside their own folder.
    const shared = await upload(author, `public/labs/${randomHex()}.png`)
    const refused = await call('POST', '/labs', author, {
      title: '天気ダッシュボード',
      screenshotKeys: [theirs, shared, `public/${author.identityId}/labs/none.png`],
    })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.error.fields).sort()).toEqual([
      'screenshotKeys.0',
      'screenshotKeys.1',
      'screenshotKeys.2',
    ])
    expect((await call('GET', '/drafts', author)).body.items).toEqual([])
    expect((await call('POST', '/labs', undefined, { title: 'ゲスト' })).status).toBe(401)

    const created = await call('POST', '/labs', author, {
      title: '天気ダッシュボード',
      description: DESCRIPTION,
      screenshotKeys: [screenshot],
    })
    expect(created.status).toBe(201)
    const saved = await call('GET', `/users/${author.username}/labs/${created.body.id}`, author)
    expect(saved.body).toMatchObject({ status: 'draft', screenshotKeys: [screenshot] })
  })

  it('keeps the draft to its author and refuses every write by others', async () => {
    const { author, other } = await authorAndOther()
    const { labId, revision, screenshot } = await draftLab(author)
    const path = `/users/${author.username}/labs/${labId}`
    expect((await call('GET', path, author)).body).toMatchObject({
      status: 'draft',
      tags: ['javascript'],
      screenshotKeys: [screenshot],
      canEdit: true,
    })
    for (const who of [undefined, other]) {
      expect((await call('GET', path, who)).status).toBe(404)
      expect((await page(`/${author.username}/labs/${labId}`, who)).status).toBe(404)
    }
    const writes: [string, string, unknown][] = [
      ['PUT', `/labs/${labId}`, { title: '乗っ取り', revision }],
      ['POST', `/labs/${labId}/publish`, { revision }],
      ['POST', `/labs/${labId}/unpublish`, { revision }],
      ['DELETE', `/labs/${labId}`, undefined],
    ]
    for (const [method, target, body] of writes) {
      expect((await call(method, target, undefined, body)).status).toBe(401)
      expect((await call(method, target, other, body)).status).toBe(404)
      const forged = target.replace(labId, 'forgedid00000000')
      expect((await call(method, forged, author, body)).status).toBe(404)
    }
    const stale = await call('PUT', `/labs/${labId}`, author, { title: '古い', revision: 99 })
    expect(stale.status).toBe(409)
    expect(stale.body.error.message).toContain('ほかのタブ')
  })

  it('publishes: the page shows screenshots, links and sanitised description to guests', async () => {
    const { author, other } = await authorAndOther()
    const { labId, revision, screenshot } = await publishedLab(author)
    const detail = await page(`/${author.username}/labs/${labId}`)
    expect(detail.status).toBe(200)
    expect(detail.html).toContain('天気ダッシュボード')
    expect(detail.html).not.toContain('<script>alert(1)')
    expect(detail.html).toContain(`src="/s3/${BUCKET}/${screenshot.replace(':', '%3A')}"`)
    expect(detail.html).toContain('href="https://github.com/example/weather"')
    expect(detail.html).toContain('href="/tags/javascript"')
    // Shared with its first screenshot, in meta a crawler reads without running scripts.
    expect(detail.html).toContain('<meta property="og:title" content="天気ダッシュボード"/>')
    expect(detail.html).toMatch(/<meta property="og:image" content="http[^"]+\/s3\/[^"]+\.png"\/>/)
    expect(detail.html).toContain('https://b.hatena.ne.jp/add?mode=confirm')
    expect((await page('/labs')).html).toContain('天気ダッシュボード')
    expect((await page(`/${author.username}/labs`)).html).toContain('天気ダッシュボード')
    expect((await page(`/${other.username}/labs`)).html).not.toContain('天気ダッシュボード')
    const listed = await call('GET', `/users/${author.username}/labs?limit=1`)
    expect(listed.body.items.map((item: { id: string }) => item.id)).toEqual([labId])
    expect((await call('GET', '/labs?cursor=nonsense')).status).toBe(400)
    const found = await call('GET', `/search?q=${encodeURIComponent('ダッシュボード')}`)
    expect(found.body.items.map((item: { id: string }) => item.id)).toContain(labId)
    // Someone else may not take it down.
    expect((await call('POST', `/labs/${labId}/unpublish`, other, { revision })).status).toBe(403)
  })

  it('stories: linked to the author’s own lab, with a cover they uploaded', async () => {
    const { author, other } = await authorAndOther()
    const { labId } = await publishedLab(author)
    const theirLab = await call('POST', '/labs', other, { title: '他人のラボ' })
    const refused = await call('POST', '/labs_stories', author, {
      title: 'グラフ描画でつまずいた話',
      labId: theirLab.body.id,
      coverKey: await upload(other),
    })
    expect(refused.status).toBe(400)
    expect(Object.keys(refused.body.error.fields).sort()).toEqual(['labId'])
    const cover = await upload(author)
    const created = await call('POST', '/labs_stories', author, {
      title: 'グラフ描画でつまずいた話',
      body: `## 軸の設定\n\n![グラフ](/s3/${BUCKET}/${cover})\n\n目盛りが重なった`,
      tags: ['chart.js'],
      labId,
      coverKey: cover,
    })
    expect(created.status).toBe(201)
    const storyId = created.body.id
    const choices = await call('GET', '/labs_stories/lab-choices', author)
    expect(choices.body.items.map((lab: { id: string }) => lab.id)).toEqual([labId])
    expect((await call('GET', '/labs_stories/lab-choices')).status).toBe(401)
    expect((await page(`/${author.username}/labs_stories/${storyId}`)).status).toBe(404)

    const published = await call('POST', `/labs_stories/${storyId}/publish`, author, {
      revision: 1,
    })
    expect(published.status).toBe(200)
    const story = await page(`/${author.username}/labs_stories/${storyId}`)
    expect(story.status).toBe(200)
    expect(story.html).toContain('目盛りが重なった')
    expect(story.html).toContain(`href="/${author.username}/labs/${labId}"`)
    // As the author: guests may get the page cache's copy for a few seconds (decision 005).
    const labPage = await page(`/${author.username}/labs/${labId}`, author)
    expect(labPage.html).toContain(`href="/${author.username}/labs_stories/${storyId}"`)
    const ofLab = await call('GET', `/labs/${labId}/stories`)
    expect(ofLab.body.items.map((item: { id: string }) => item.id)).toEqual([storyId])
    expect((await page('/labs_stories', author)).html).toContain('グラフ描画でつまずいた話')
    const found = await call('GET', `/search?q=${encodeURIComponent('目盛り')}`)
    expect(found.body.items.map((item: { id: string }) => item.id)).toContain(storyId)

    // From /drafts: the author publishes their other lab's draft… someone else cannot.
    const draft = await call('POST', '/labs_stories', author, { title: '下書きの話' })
    const act = (who: User, fields: Record<string, string>) =>
      fetch(`${server.url}/drafts`, {
        method: 'POST',
        headers: { cookie: who.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(fields),
        redirect: 'manual',
      })
    const fields = { intent: 'publish', kind: 'lab_story', id: draft.body.id, revision: '1' }
    expect(await (await act(other, fields)).text()).toContain('ストーリーが見つかりません')
    await act(author, fields)
    expect(
      (await call('GET', `/users/${author.username}/labs_stories/${draft.body.id}`)).body.status,
    ).toBe('published')
    await act(author, { intent: 'delete', kind: 'lab_story', id: draft.body.id })
    expect(
      (await call('GET', `/users/${author.username}/labs_stories/${draft.body.id}`)).status,
    ).toBe(404)
  })
})

describe('POST /api/uploads/image-check', () => {
  it('refuses an HTML file uploaded as image/png, in Japanese, and accepts a real PNG', async () => {
    const { author, other } = await authorAndOther()
    // An HTML page named .png and declared image/png, as a browser uploads a renamed file.
    const html = `public/${author.identityId}/labs/${randomHex()}.png`
    await author.s3.send(
      new PutObjectCommand({
        Bucket: BUCKET,
        Key: html,
        Body: Buffer.from('<!doctype html><title>x</title><p>not an image</p>'),
        ContentType: 'image/png',
      }),
    )
    const refused = await call('POST', '/uploads/image-check', author, { key: html })
    expect(refused.status).toBe(400)
    expect(refused.body.error.code).toBe('VALIDATION_FAILED')
    expect(refused.body.error.message).toBe('画像には PNG・JPEG・WebP・GIF を選んでください。')

    const png = await upload(author)
    const accepted = await call('POST', '/uploads/image-check', author, { key: png })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toEqual({ key: png })

    // Someone else's picture is not the author's to add, and a guest must sign in.
    expect((await call('POST', '/uploads/image-check', other, { key: png })).status).toBe(400)
    expect((await call('POST', '/uploads/image-check', undefined, { key: png })).status).toBe(401)
  })
})
