import { GetObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3'
import { getSignedUrl } from '@aws-sdk/s3-request-presigner'
import type { Page } from 'playwright-core'
import { beforeAll, describe, expect, test } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID } from '#tests/integration/identity/support.ts'
import { BUCKET, type Person, signedInUser } from '#tests/integration/storage/support.ts'
import { browserSuite } from './suite.ts'

/**
 * An account takeover through uploads: a signed-in user uploads a page or an SVG with a script
 * into the public or protected prefix, and a victim opens its URL. In Chromium, signed in, the
 * script must neither run nor reach the victim's cookies or the API.
 */
const suite = browserSuite()
let attacker: Person
let victimCookie: string

// What the uploaded script would do: tell the API the cookies it read, and mark the page.
const STEAL =
  "fetch('/api/stolen?c=' + encodeURIComponent(document.cookie)); document.title = 'ran'"
const PAYLOADS = {
  'page.html': [
    'text/html; charset=utf-8',
    `<!doctype html><title>x</title><script>${STEAL}</script>`,
  ],
  'image.svg': [
    'image/svg+xml',
    `<svg xmlns="http://www.w3.org/2000/svg"><script>${STEAL}</script><rect width="9" height="9"/></svg>`,
  ],
  // Declared a picture, but markup: nosniff keeps Chromium from treating it as a page.
  'photo.png': ['image/png', `<html><script>${STEAL}</script></html>`],
} as const

beforeAll(async () => {
  attacker = await signedInUser(suite.server, 'atk')
  const victim = await signedInUser(suite.server, 'vic')
  victimCookie = amplifyCookieHeader(CLIENT_ID, victim.username, {
    accessToken: victim.tokens.AccessToken,
    idToken: victim.tokens.IdToken,
  })
})

async function upload(key: string, contentType: string, body: string): Promise<string> {
  await attacker.s3.send(
    new PutObjectCommand({
      Bucket: BUCKET,
      Key: key,
      Body: body,
      ContentType: contentType,
      ContentDisposition: 'inline',
    }),
  )
  if (key.startsWith('public/'))
    return `/s3/${BUCKET}/${key.split('/').map(encodeURIComponent).join('/')}`
  // Protected objects are read with a signature: the attacker shares a presigned URL.
  return getSignedUrl(attacker.s3, new GetObjectCommand({ Bucket: BUCKET, Key: key }), {
    expiresIn: 300,
  })
}

/** Opens the URL as the signed-in victim; answers the API requests the page made, and how it ended. */
async function open(page: Page, path: string) {
  const apiRequests: string[] = []
  page.context().on('request', (request) => {
    if (new URL(request.url()).pathname.startsWith('/api/')) apiRequests.push(request.url())
  })
  const download = page.waitForEvent('download', { timeout: 5_000 }).then(
    () => true,
    () => false,
  )
  const response = await page.goto(path).catch(() => undefined)
  // A page that renders has loaded (its scripts would have run) once goto resolved.
  const downloaded = response === undefined ? await download : false
  return { apiRequests, downloaded, title: await page.title().catch(() => '') }
}

describe('an uploaded file opened by URL, as a signed-in victim', () => {
  for (const level of ['public', 'protected'] as const) {
    for (const [name, [type, body]] of Object.entries(PAYLOADS)) {
      test(`${level}/…/${name} (${type}) runs nothing and reads no cookie`, async () => {
        const key = `${level}/${attacker.identityId}/${name}`
        const path = await upload(key, type, body)
        const page = await suite.newPage(victimCookie)
        const { apiRequests, downloaded, title } = await open(page, path)
        expect(apiRequests).toEqual([])
        expect(title).not.toBe('ran')
        // Markup is never shown: it is a download; the mislabelled picture shows as a picture.
        expect(downloaded).toBe(type !== 'image/png')
        await page.context().close()
      })
    }
  }
})
