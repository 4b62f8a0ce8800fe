import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { setCourseCover } from '#features/courses/course-cover.server.ts'
import {
  createCourse,
  deleteCourse,
  publishCourse,
  unpublishCourse,
  updateCourse,
} from '#features/courses/course-editing.server.ts'
import { readCourseForEditor } from '#features/courses/course-editor.server.ts'
import {
  addLesson,
  addSection,
  deleteLesson,
  deleteSection,
  moveLesson,
  moveSection,
  renameSection,
} from '#features/courses/course-structure.server.ts'
import { updateLesson } from '#features/courses/lesson-editing.server.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import { pathId, pathParams } from './request-params.ts'

const courseParams = z.object({ courseId: pathId })
const sectionParams = courseParams.extend({ sectionId: pathId })
const lessonParams = courseParams.extend({ lessonId: pathId })

/**
 * The course editor's writes, addressed by course id (the owner knows it). Deletes carry the
 * revision they are based on in the query string, the other writes in their JSON body.
 */
export function registerCourseEditingRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  images: ImageStorage,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.post('/courses', async (request, reply) => {
    const created = await createCourse(db, await actorOf(request), request.body)
    return reply.code(201).send(created)
  })
  api.get('/courses/:courseId/draft', async (request) => {
    const { courseId } = pathParams(courseParams, request)
    return readCourseForEditor(db, await actorOf(request), courseId)
  })
  api.put('/courses/:courseId', async (request) => {
    const { courseId } = pathParams(courseParams, request)
    return updateCourse(db, await actorOf(request), courseId, request.body)
  })
  api.put('/courses/:courseId/cover', async (request) => {
    const { courseId } = pathParams(courseParams, request)
    return setCourseCover(db, images, await actorOf(request), courseId, request.body)
  })
  api.post('/courses/:courseId/publish', async (request) => {
    const { courseId } = pathParams(courseParams, request)
    return publishCourse(db, await actorOf(request), courseId, request.body)
  })
  api.post('/courses/:courseId/unpublish', async (request) => {
    const { courseId } = pathParams(courseParams, request)
    return unpublishCourse(db, await actorOf(request), courseId, request.body)
  })
  api.delete('/courses/:courseId', async (request, reply) => {
    const { courseId } = pathParams(courseParams, request)
    await deleteCourse(db, await actorOf(request), courseId)
    return reply.code(204).send()
  })

  api.post('/courses/:courseId/sections', async (request, reply) => {
    const { courseId } = pathParams(courseParams, request)
    return reply
      .code(201)
      .send(await addSection(db, await actorOf(request), courseId, request.body))
  })
  api.put('/courses/:courseId/sections/:sectionId', async (request) => {
    return renameSection(
      db,
      await actorOf(request),
      pathParams(sectionParams, request),
      request.body,
    )
  })
  api.post('/courses/:courseId/sections/:sectionId/move', async (request) => {
    return moveSection(db, await actorOf(request), pathParams(sectionParams, request), request.body)
  })
  api.delete('/courses/:courseId/sections/:sectionId', async (request) => {
    return deleteSection(
      db,
      await actorOf(request),
      pathParams(sectionParams, request),
      request.query,
    )
  })

  api.post('/courses/:courseId/lessons', async (request, reply) => {
    const { courseId } = pathParams(courseParams, request)
    return reply.code(201).send(await addLesson(db, await actorOf(request), courseId, request.body))
  })
  api.put('/courses/:courseId/lessons/:lessonId', async (request) => {
    return updateLesson(
      db,
      images,
      await actorOf(request),
      pathParams(lessonParams, request),
      request.body,
    )
  })
  api.post('/courses/:courseId/lessons/:lessonId/move', async (request) => {
    return moveLesson(db, await actorOf(request), pathParams(lessonParams, request), request.body)
  })
  api.delete('/courses/:courseId/lessons/:lessonId', async (request) => {
    return deleteLesson(
      db,
      await actorOf(request),
      pathParams(lessonParams, request),
      request.query,
    )
  })
}
