import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { isStorageFull } from '#db/database.ts'
import type { DB } from '#db/schema.ts'
import { type Actor, actorOf } from '#features/actor.ts'
import type { ExerciseServices } from '#features/exercises/answers.server.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import type { Publish } from '#features/messages/events.ts'
import type { MessageLimits } from '#features/messages/message-limits.server.ts'
import type { PageCache } from '#server/page-cache.ts'
import { ApiError } from './api-error.ts'
import { registerCourseRoutes } from './courses.ts'
import { keepSignedInAnswersPrivate, refuseCrossSiteWrites } from './cross-site.ts'
import { registerExampleRoutes } from './example.ts'
import { registerExerciseRoutes } from './exercises.ts'
import { registerLabRoutes } from './labs.ts'
import { registerMessageRoutes } from './messages.ts'
import { type ModerationServices, registerModerationRoutes } from './moderation.ts'
import { registerOpenApi } from './openapi.ts'
import { registerPeopleRoutes } from './people.ts'
import { validateWithZod } from './serve.ts'
import { registerSocialRoutes } from './social.ts'
import { registerStudyRoutes } from './studies.ts'
import { registerUploadRoutes } from './uploads.ts'

type SessionUser = { sub: string; groups: string[] }

/** The product API under /api: thin adapters from HTTP to feature functions. */
export async function apiPlugin(
  api: FastifyInstance,
  options: {
    db: Kysely<DB>
    /** The site's origin (PUBLIC_BASE_URL's): the pages that may write with cookies. */
    siteOrigin: string
    /** User Markdown rendered off the request thread, within a deadline (decision 022). */
    markdown: MarkdownRenderer
    /** Checks of uploaded images (covers, screenshots), answered by the site's object storage. */
    images: ImageStorage
    /** Direct messages' per-user limit, their clock, and where their events go (server/realtime). */
    messages: { limits: MessageLimits; now: () => number; publish?: Publish | undefined }
    /**
     * Who is signed in: the user of an `Authorization: Bearer` access token (clients outside
     * the browser), or else of the same session (Amplify's cookies) the pages read.
     */
    user(request: FastifyRequest): Promise<SessionUser | undefined>
    /** Answering exercises: the server's verifier of code and each learner's limits. */
    exercises: ExerciseServices
    /** Reports' hourly limit, and where moderation's effects go live (decision 039). */
    moderation: ModerationServices
    /** Keeps guests' answers of public reads (`guestCacheSeconds`); none: always computed. */
    guestAnswers?: PageCache
  },
): Promise<void> {
  api.decorate('guestAnswers', options.guestAnswers)
  api.decorate(
    'actorOf',
    async (request: FastifyRequest): Promise<Actor | undefined> =>
      actorOf(await options.user(request)),
  )
  api.addHook('onRequest', refuseCrossSiteWrites(options.siteOrigin))
  api.addHook('onSend', keepSignedInAnswersPrivate)
  api.setErrorHandler((error: FastifyError, request, reply) => {
    const known = ApiError.from(error)
    if (known) {
      if (known.retryAfterSeconds !== undefined) {
        reply.header('retry-after', String(known.retryAfterSeconds))
      }
      return reply.code(known.status).send(known.toJSON())
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const tooLarge = new ApiError('PAYLOAD_TOO_LARGE')
      return reply.code(tooLarge.status).send(tooLarge.toJSON())
    }
    // Fastify's own 4xx errors (bad JSON, body too large, unsupported media type…).
    if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
      const apiError = ApiError.ofFastify(error.statusCode, error.code, error.message)
      return reply.code(apiError.status).send(apiError.toJSON())
    }
    if (isStorageFull(error)) {
      // Nothing was saved (the transaction rolled back); the operator needs the real cause.
      request.log.error({ err: error }, 'api request failed: the disk or database is full')
      const full = new ApiError('INSUFFICIENT_STORAGE')
      return reply.code(full.status).send(full.toJSON())
    }
    request.log.error({ err: error }, 'api request failed')
    const internal = new ApiError('INTERNAL')
    return reply.code(internal.status).send(internal.toJSON())
  })
  validateWithZod(api)
  // Before the routes: it collects each as it is registered.
  await registerOpenApi(api)
  registerCourseRoutes(api, options.db, options.images)
  registerStudyRoutes(api, options.db, options.images, options.exercises.verifier)
  registerExerciseRoutes(api, options.db, options.markdown, options.exercises)
  registerExampleRoutes(api, options.exercises)
  registerLabRoutes(api, options.db, options.images)
  registerUploadRoutes(api, options.images)
  registerSocialRoutes(api, options.db, options.markdown)
  registerPeopleRoutes(api, options.db)
  registerMessageRoutes(api, options.db, options.messages)
  registerModerationRoutes(api, options.db, options.moderation)
  // Claims the rest of /api, so that no unknown API path falls through to the page router.
  api.all('/*', { schema: { hide: true } }, async () => {
    throw ApiError.notFound('この API は存在しません')
  })
}
