import Fastify, { type RouteOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTemporaryDatabase, type TemporaryDatabase } from '#db/test-support.ts'
import { apiRoutes } from '#features/api/routes.ts'
import { errorCatalogue } from '#features/error-catalogue.ts'
import { registerApiWithoutServices } from '#tests/support/api-plugin.ts'

describe('/api/openapi.json', () => {
  const registered: { method: string; url: string }[] = []
  const app = Fastify()
  let database: TemporaryDatabase

  beforeAll(async () => {
    database = await openTemporaryDatabase()
    app.addHook('onRoute', (route: RouteOptions) => {
      for (const method of [route.method].flat()) registered.push({ method, url: route.url })
    })
    await registerApiWithoutServices(app, database.db)
    await app.ready()
  })
  afterAll(async () => {
    await app.close()
    await database.remove()
  })

  async function fetchDocument() {
    const response = await app.inject({ method: 'GET', url: '/api/openapi.json' })
    expect(response.statusCode).toBe(200)
    return response.json() as {
      openapi: string
      paths: Record<
        string,
        Record<
          string,
          {
            parameters: { name: string; in: string }[]
            responses: Record<string, { content?: { 'application/json': { schema: object } } }>
          }
        >
      >
    }
  }

  it('describes every registered /api route', async () => {
    const document = await fetchDocument()
    expect(document.openapi).toBe('3.1.0')
    // HEAD mirrors GET, and the catch-all only answers unknown paths with 404.
    const routes = registered.filter(({ method, url }) => method !== 'HEAD' && url !== '/api/*')
    expect(routes.length).toBeGreaterThan(15)
    for (const { method, url } of routes) {
      const path = url.replace(/:(\w+)/g, '{$1}')
      expect(document.paths[path]?.[method.toLowerCase()], `${method} ${url}`).toBeDefined()
    }
    const described = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(described.sort()).toEqual(
      routes.map(({ method, url }) => `${method} ${url.replace(/:(\w+)/g, '{$1}')}`).sort(),
    )
  })

  it('gives every route the schema of its answer and of its errors', async () => {
    const document = await fetchDocument()
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    )
    for (const { path, method, operation } of operations) {
      const name = `${method.toUpperCase()} ${path}`
      const success = Object.keys(operation.responses).filter((status) => status.startsWith('2'))
      expect(success, name).toHaveLength(1)
      const [status] = success as [string]
      if (status === '204') expect(operation.responses[status]?.content, name).toBeUndefined()
      else
        expect(operation.responses[status]?.content?.['application/json'].schema, name).toEqual(
          expect.objectContaining({ type: 'object' }),
        )
      expect(operation.responses['4XX']?.content?.['application/json'].schema, name).toBeDefined()
    }
  })

  it('registers every contract of features/api, at its method and path', () => {
    const contracts = Object.values(apiRoutes).flatMap((area) =>
      Object.values(area).map(({ method, path }) => `${method} /api${path}`),
    )
    const routes = registered.map(({ method, url }) => `${method} ${url}`)
    expect(contracts.length).toBeGreaterThan(60)
    expect(routes).toEqual(expect.arrayContaining(contracts))
  })

  it('lists every code of the error catalogue in every error answer', async () => {
    const document = await fetchDocument()
    const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
    )
    expect(operations.length).toBeGreaterThan(60)
    for (const { path, method, operation } of operations) {
      const schema = operation.responses['4XX']?.content?.['application/json'].schema as {
        properties: { error: { properties: { code: { anyOf: { enum?: string[] }[] } } } }
      }
      const listed = schema.properties.error.properties.code.anyOf.flatMap(({ enum: e }) => e ?? [])
      expect(listed.sort(), `${method.toUpperCase()} ${path}`).toEqual(
        Object.keys(errorCatalogue).sort(),
      )
    }
  })

  it('takes parameters and bodies from the zod schemas', async () => {
    const document = await fetchDocument()
    const search = document.paths['/api/search']?.get
    expect(search?.parameters.map(({ name, in: where }) => `${where}:${name}`)).toEqual([
      'query:q',
      'query:kind',
      'query:limit',
    ])
    const update = document.paths['/api/courses/{courseId}/lessons/{lessonId}']?.put as unknown as {
      requestBody: {
        content: { 'application/json': { schema: { properties: object; required: string[] } } }
      }
    }
    const body = update.requestBody.content['application/json'].schema
    expect(Object.keys(body.properties).sort()).toEqual(['access', 'body', 'revision', 'title'])
    expect(body.required).toEqual(expect.arrayContaining(['title', 'access', 'revision']))
  })
})
