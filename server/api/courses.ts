import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { catalogueQuery, listPublishedCourses } from '#features/courses/catalogue.server.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { markLessonDone, unmarkLessonDone } from '#features/courses/lesson-progress.server.ts'
import { readLessonForViewer } from '#features/courses/lesson-view.server.ts'
import { ApiError } from './api-error.ts'
import { pathId, pathParams } from './request-params.ts'

const courseAddress = z.object({ username: pathId, courseId: pathId })
const lessonAddress = courseAddress.extend({ lessonId: pathId })

/** Reading courses and lessons, and learners' progress; URLs follow the pages' addresses. */
export function registerCourseRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/courses', async (request) => {
    const query = catalogueQuery.safeParse(request.query)
    if (!query.success) throw ApiError.validation(query.error)
    return listPublishedCourses(db, query.data)
  })

  api.get('/users/:username/courses/:courseId', async (request) => {
    return readCourseForViewer(db, pathParams(courseAddress, request), await actorOf(request))
  })

  api.get('/users/:username/courses/:courseId/lessons/:lessonId', async (request) => {
    return readLessonForViewer(db, pathParams(lessonAddress, request), await actorOf(request))
  })

  api.post('/users/:username/courses/:courseId/lessons/:lessonId/done', async (request) => {
    return markLessonDone(db, pathParams(lessonAddress, request), await actorOf(request))
  })

  api.delete('/users/:username/courses/:courseId/lessons/:lessonId/done', async (request) => {
    return unmarkLessonDone(db, pathParams(lessonAddress, request), await actorOf(request))
  })
}
