import Fastify from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { apiRoutes } from '#features/api/routes.ts'
import { registerApiWithoutServices } from '#tests/support/api-plugin.ts'

/**
 * What /api refuses before a handler runs. `signIn: true` on a contract is the only place a
 * route says it needs a session; Fastify's own refusals keep its status and code.
 */
describe('/api refusals before a handler runs', () => {
  const app = Fastify()
  let database: TemporaryDatabase

  beforeAll(async () => {
    database = await openTemporaryDatabase()
    await registerApiWithoutServices(app, database.db)
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await database.remove()
  })

  it('answers every `signIn: true` contract with 401 when nobody is signed in', async () => {
    const contracts = Object.values(apiRoutes).flatMap((area) =>
      Object.values(area).filter((contract) => 'signIn' in contract && contract.signIn === true),
    )
    expect(contracts.length).toBeGreaterThan(40)
    for (const { method, path } of contracts) {
      // Any value fills a path parameter: the guest is refused before the input is read.
      const url = `/api${path.replace(/:\w+/g, 'x')}`
      const response = await app.inject({ method, url })
      expect(response.statusCode, `${method} ${path}`).toBe(401)
      expect(response.json(), `${method} ${path}`).toEqual({
        error: { code: 'SIGN_IN_REQUIRED', message: 'この操作にはログインが必要です' },
      })
    }
  })

  it('answers unreadable JSON with 400 and Fastify’s code', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/reports',
      headers: { 'content-type': 'application/json' },
      payload: '{nope',
    })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      error: { code: expect.stringMatching(/^FST_ERR_/), message: expect.any(String) },
    })
  })

  it('answers an unknown API path with 404 and the catalogue’s code', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({
      error: { code: 'NOT_FOUND', message: 'この API は存在しません' },
    })
  })
})
