import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { Actor } from '#features/actor.ts'
import { courseRoutes as routes } from '#features/api/courses.ts'
import { listPublishedCourses } from '#features/courses/catalogue.server.ts'
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
  discardCourseRevision,
  publishCourseRevision,
} from '#features/courses/course-revisions.server.ts'
import {
  addLesson,
  addSection,
  deleteLesson,
  deleteSection,
  moveLesson,
  moveSection,
  renameSection,
} from '#features/courses/course-structure.server.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { updateLesson } from '#features/courses/lesson-editing.server.ts'
import { markLessonDone, unmarkLessonDone } from '#features/courses/lesson-progress.server.ts'
import { readLessonForViewer } from '#features/courses/lesson-view.server.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import { serve } from './serve.ts'

/**
 * Courses (the writes' feature functions parse what was `sent` at their own boundary): reading and learners' progress at the pages' addresses; the editor's writes addressed
 * by course id (the owner knows it). Deletes of sections and lessons carry the revision they are
 * based on in the query string, the other writes in their JSON body.
 */
export function registerCourseRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  images: ImageStorage,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  serve(api, routes.catalogue, async ({ query }) => listPublishedCourses(db, query))
  serve(api, routes.course, async ({ params }, request) =>
    readCourseForViewer(db, params, await actorOf(request)),
  )
  serve(api, routes.lesson, async ({ params }, request) =>
    readLessonForViewer(db, params, await actorOf(request)),
  )
  serve(api, routes.markDone, async ({ params }, request) =>
    markLessonDone(db, params, await actorOf(request)),
  )
  serve(api, routes.unmarkDone, async ({ params }, request) =>
    unmarkLessonDone(db, params, await actorOf(request)),
  )

  serve(api, routes.create, async ({ sent }, request) =>
    createCourse(db, await actorOf(request), sent.body),
  )
  serve(api, routes.draft, async ({ params }, request) =>
    readCourseForEditor(db, await actorOf(request), params.courseId),
  )
  serve(api, routes.update, async ({ params, sent }, request) =>
    updateCourse(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.setCover, async ({ params, sent }, request) =>
    setCourseCover(db, images, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.publish, async ({ params, sent }, request) =>
    publishCourse(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.publishRevision, async ({ params, sent }, request) =>
    publishCourseRevision(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.discardRevision, async ({ params, sent }, request) =>
    discardCourseRevision(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.unpublish, async ({ params, sent }, request) =>
    unpublishCourse(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.remove, async ({ params }, request) =>
    deleteCourse(db, await actorOf(request), params.courseId),
  )

  serve(api, routes.addSection, async ({ params, sent }, request) =>
    addSection(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.renameSection, async ({ params, sent }, request) =>
    renameSection(db, await actorOf(request), params, sent.body),
  )
  serve(api, routes.moveSection, async ({ params, sent }, request) =>
    moveSection(db, await actorOf(request), params, sent.body),
  )
  serve(api, routes.deleteSection, async ({ params, sent }, request) =>
    deleteSection(db, await actorOf(request), params, sent.query),
  )
  serve(api, routes.addLesson, async ({ params, sent }, request) =>
    addLesson(db, await actorOf(request), params.courseId, sent.body),
  )
  serve(api, routes.updateLesson, async ({ params, sent }, request) =>
    updateLesson(db, images, await actorOf(request), params, sent.body),
  )
  serve(api, routes.moveLesson, async ({ params, sent }, request) =>
    moveLesson(db, await actorOf(request), params, sent.body),
  )
  serve(api, routes.deleteLesson, async ({ params, sent }, request) =>
    deleteLesson(db, await actorOf(request), params, sent.query),
  )
}
