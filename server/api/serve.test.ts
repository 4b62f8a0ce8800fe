import Fastify, { type FastifyError } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { route } from '#features/api/contract.ts'
import { ApiError } from './api-error.ts'
import { serve, validateWithZod } from './serve.ts'

const item = route({
  method: 'GET',
  path: '/items/:id',
  summary: 'テスト用',
  params: z.object({ id: z.string().max(3) }),
  query: z.object({ limit: z.coerce.number().int().default(5) }),
  status: 200,
  response: z.object({ id: z.string(), limit: z.number() }),
})

/** What serve() does with a contract, on a bare Fastify with the API's error answer. */
describe('serve', () => {
  const app = Fastify()
  beforeAll(async () => {
    validateWithZod(app)
    app.setErrorHandler((error: FastifyError, _request, reply) => {
      const known = ApiError.from(error)
      return known
        ? reply.code(known.status).send(known.toJSON())
        : reply.code(500).send({ error: { code: 'INTERNAL', message: error.message } })
    })
    serve(app, item, async ({ params, query, sent }) => {
      // What the feature did not declare: the serialiser must not send it.
      const row = { id: params.id, limit: query.limit, ownerEmail: 'hana@example.com' }
      if (params.id === 'bad')
        return { id: params.id, limit: Number.NaN, sentLimit: sent.query.limit }
      return row
    })
    await app.ready()
  })
  afterAll(() => app.close())

  it('hands the handler the parsed input and sends only the declared fields', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/abc?limit=7' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toEqual({ id: 'abc', limit: 7 })
  })

  it('refuses input with the API field errors', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/abcd?limit=x' })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toMatchObject({
      error: { code: 'VALIDATION_FAILED', fields: { id: [expect.any(String)] } },
    })
  })

  it('answers 500 instead of an answer its schema does not describe', async () => {
    const response = await app.inject({ method: 'GET', url: '/items/bad' })
    expect(response.statusCode).toBe(500)
  })
})
