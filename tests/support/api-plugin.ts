import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { apiPlugin } from '#server/api/index.ts'
import { memoryRateLimiter } from '#server/rate-limiter.ts'

/**
 * The whole /api on a bare Fastify, for tests of its routes, guards and client: no request
 * reaches storage or runs code, Markdown renders to nothing and nobody is signed in, unless
 * `overrides` says otherwise.
 */
export async function registerApiWithoutServices(
  app: FastifyInstance,
  db: Kysely<DB>,
  overrides: Partial<Parameters<typeof apiPlugin>[1]> = {},
) {
  await app.register(apiPlugin, {
    prefix: '/api',
    db,
    siteOrigin: 'http://localhost:3000',
    markdown: { render: async () => '', imageSources: async () => [] },
    images: {
      describePublic: async () => undefined,
      readStart: async () => new Uint8Array(),
      delete: async () => undefined,
      publicKeyOf: () => undefined,
      markdownImageSources: async () => [],
    },
    user: async () => undefined,
    messages: { limits: { limiter: memoryRateLimiter(), perUserPerMinute: 30 }, now: Date.now },
    moderation: { limits: { limiter: memoryRateLimiter(), perUserPerHour: 20 }, now: Date.now },
    exercises: {
      verifier: {
        verify: async () => {
          throw new Error('no code is verified in this test')
        },
      },
      limits: {
        limiter: memoryRateLimiter(),
        answersPerMinute: 30,
        codeSubmissionsPerMinute: 10,
      },
    },
    ...overrides,
  })
}
