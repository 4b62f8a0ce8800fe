import type { StudyDraft } from '../../../features/studies/study-view.server.ts'
import { apiFetch } from '../../lib/api-client.ts'

/** The study editor's calls to /api (the same feature functions the pages use). */
export function studyApi(baseUrl: string) {
  const send = <T>(method: string, path: string, body?: unknown) =>
    apiFetch<T>(baseUrl, path, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    draft: (studyId: string) => send<StudyDraft>('GET', `/studies/${studyId}/draft`),
    create: (fields: unknown) => send<{ id: string; revision: number }>('POST', '/studies', fields),
    update: (studyId: string, fields: unknown) =>
      send<{ revision: number }>('PUT', `/studies/${studyId}`, fields),
    publish: (studyId: string, revision: number) =>
      send<{ revision: number }>('POST', `/studies/${studyId}/publish`, { revision }),
    unpublish: (studyId: string, revision: number) =>
      send<{ revision: number }>('POST', `/studies/${studyId}/unpublish`, { revision }),
    remove: (studyId: string) => send<void>('DELETE', `/studies/${studyId}`),
  }
}

export type StudyApi = ReturnType<typeof studyApi>
