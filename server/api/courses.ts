import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
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
): void {
  serve(api, routes.catalogue, async ({ query }) => listPublishedCourses(db, query))
  serve(api, routes.course, async ({ params, actor }) => readCourseForViewer(db, params, actor))
  serve(api, routes.lesson, async ({ params, actor }) => readLessonForViewer(db, params, actor))
  serve(api, routes.markDone, async ({ params, actor }) => markLessonDone(db, params, actor))
  serve(api, routes.unmarkDone, async ({ params, actor }) => unmarkLessonDone(db, params, actor))

  serve(api, routes.create, async ({ sent, actor }) => createCourse(db, actor, sent.body))
  serve(api, routes.draft, async ({ params, actor }) =>
    readCourseForEditor(db, actor, params.courseId),
  )
  serve(api, routes.update, async ({ params, sent, actor }) =>
    updateCourse(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.setCover, async ({ params, sent, actor }) =>
    setCourseCover(db, images, actor, params.courseId, sent.body),
  )
  serve(api, routes.publish, async ({ params, sent, actor }) =>
    publishCourse(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.publishRevision, async ({ params, sent, actor }) =>
    publishCourseRevision(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.discardRevision, async ({ params, sent, actor }) =>
    discardCourseRevision(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.unpublish, async ({ params, sent, actor }) =>
    unpublishCourse(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.remove, async ({ params, actor }) => deleteCourse(db, actor, params.courseId))

  serve(api, routes.addSection, async ({ params, sent, actor }) =>
    addSection(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.renameSection, async ({ params, sent, actor }) =>
    renameSection(db, actor, params, sent.body),
  )
  serve(api, routes.moveSection, async ({ params, sent, actor }) =>
    moveSection(db, actor, params, sent.body),
  )
  serve(api, routes.deleteSection, async ({ params, sent, actor }) =>
    deleteSection(db, actor, params, sent.query),
  )
  serve(api, routes.addLesson, async ({ params, sent, actor }) =>
    addLesson(db, actor, params.courseId, sent.body),
  )
  serve(api, routes.updateLesson, async ({ params, sent, actor }) =>
    updateLesson(db, images, actor, params, sent.body),
  )
  serve(api, routes.moveLesson, async ({ params, sent, actor }) =>
    moveLesson(db, actor, params, sent.body),
  )
  serve(api, routes.deleteLesson, async ({ params, sent, actor }) =>
    deleteLesson(db, actor, params, sent.query),
  )
}
