import { apiFetch } from '#app/lib/api-client.ts'
import type { CourseDraft } from '#features/courses/course-editor.server.ts'

/** The course editor's calls to /api (the same feature functions the pages use). */
export function courseApi(baseUrl: string) {
  const send = <T>(method: string, path: string, body?: unknown) =>
    apiFetch<T>(baseUrl, path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    draft: (courseId: string) => send<CourseDraft>('GET', `/courses/${courseId}/draft`),
    create: (fields: unknown) => send<{ id: string; revision: number }>('POST', '/courses', fields),
    /** A write addressed by course and, for the structure, section or lesson. */
    write: <T = { revision: number }>(method: string, path: string, body?: unknown) =>
      send<T & { revision: number }>(method, path, body),
  }
}

export type CourseApi = ReturnType<typeof courseApi>
