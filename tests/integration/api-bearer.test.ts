import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { amplifyCookieHeader } from '#server/web-session/test-tokens.ts'
import { CLIENT_ID, signedInUser } from '#tests/support/signed-in-user.ts'
import { startTestServer, type TestServer } from '#tests/support/test-server.ts'

/**
 * Clients outside the browser call /api with the user pool's access token as a bearer token;
 * pages never accept one (a guest page could otherwise be cached from a bearer's request).
 */
let server: TestServer
let tokens: Awaited<ReturnType<typeof signedInUser>>

beforeAll(async () => {
  server = await startTestServer()
  tokens = await signedInUser(server, 'bearer_client')
})
afterAll(async () => {
  await server?.close()
})

function createCourse(headers: Record<string, string>) {
  return fetch(`${server.url}/api/courses`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ title: 'API から作ったコース' }),
  })
}

describe('Authorization: Bearer on /api', () => {
  it('acts as the access token’s user', async () => {
    const created = await createCourse({ authorization: `Bearer ${tokens.accessToken}` })
    expect(created.status).toBe(201)
    const { id } = (await created.json()) as { id: string }
    const row = await server.database.db
      .selectFrom('courses')
      .innerJoin('users', 'users.id', 'courses.owner_id')
      .select('users.username')
      .where('courses.id', '=', id)
      .executeTakeFirstOrThrow()
    expect(row.username).toBe('bearer_client')
  })

  it('refuses an id token, a forged token and other schemes, without falling back to cookies', async () => {
    const cookie = amplifyCookieHeader(CLIENT_ID, 'bearer_client', tokens)
    const forged = `${tokens.accessToken.slice(0, -4)}AAAA`
    for (const authorization of [
      `Bearer ${tokens.idToken}`,
      `Bearer ${forged}`,
      `Basic ${Buffer.from('bearer_client:x').toString('base64')}`,
      'Bearer',
    ]) {
      const refused = await createCourse({ authorization, cookie })
      expect(refused.status, authorization.slice(0, 12)).toBe(401)
    }
  })

  it('is not a session for pages', async () => {
    const page = await fetch(`${server.url}/settings`, {
      headers: { authorization: `Bearer ${tokens.accessToken}` },
      redirect: 'manual',
    })
    expect(page.status).toBe(302)
    expect(page.headers.get('location')).toContain('/auth/signin')
  })
})
