import type { RouteRequest } from '#features/api/contract.ts'
import { courseRoutes as routes } from '#features/api/courses.ts'
import { callApi } from './client.ts'

type Body<C extends keyof typeof routes> =
  RouteRequest<(typeof routes)[C]> extends {
    body: infer B
  }
    ? B
    : never

/** The course editor's calls to /api (the same feature functions the pages use). */
export function courseApi(baseUrl: string) {
  return {
    draft: (courseId: string) => callApi(baseUrl, routes.draft, { params: { courseId } }),
    create: (fields: Body<'create'>) => callApi(baseUrl, routes.create, { body: fields }),
    update: (courseId: string, fields: Body<'update'>) =>
      callApi(baseUrl, routes.update, { params: { courseId }, body: fields }),
    setCover: (courseId: string, body: Body<'setCover'>) =>
      callApi(baseUrl, routes.setCover, { params: { courseId }, body }),
    publish: (courseId: string, body: Body<'publish'>) =>
      callApi(baseUrl, routes.publish, { params: { courseId }, body }),
    publishRevision: (courseId: string, body: Body<'publishRevision'>) =>
      callApi(baseUrl, routes.publishRevision, { params: { courseId }, body }),
    discardRevision: (courseId: string, body: Body<'discardRevision'>) =>
      callApi(baseUrl, routes.discardRevision, { params: { courseId }, body }),
    unpublish: (courseId: string, body: Body<'unpublish'>) =>
      callApi(baseUrl, routes.unpublish, { params: { courseId }, body }),
    addSection: (courseId: string, body: Body<'addSection'>) =>
      callApi(baseUrl, routes.addSection, { params: { courseId }, body }),
    renameSection: (courseId: string, sectionId: string, body: Body<'renameSection'>) =>
      callApi(baseUrl, routes.renameSection, { params: { courseId, sectionId }, body }),
    moveSection: (courseId: string, sectionId: string, body: Body<'moveSection'>) =>
      callApi(baseUrl, routes.moveSection, { params: { courseId, sectionId }, body }),
    deleteSection: (courseId: string, sectionId: string, revision: number) =>
      callApi(baseUrl, routes.deleteSection, {
        params: { courseId, sectionId },
        query: { revision },
      }),
    addLesson: (courseId: string, body: Body<'addLesson'>) =>
      callApi(baseUrl, routes.addLesson, { params: { courseId }, body }),
    updateLesson: (courseId: string, lessonId: string, body: Body<'updateLesson'>) =>
      callApi(baseUrl, routes.updateLesson, { params: { courseId, lessonId }, body }),
    moveLesson: (courseId: string, lessonId: string, body: Body<'moveLesson'>) =>
      callApi(baseUrl, routes.moveLesson, { params: { courseId, lessonId }, body }),
    deleteLesson: (courseId: string, lessonId: string, revision: number) =>
      callApi(baseUrl, routes.deleteLesson, {
        params: { courseId, lessonId },
        query: { revision },
      }),
  }
}

export type CourseApi = ReturnType<typeof courseApi>
