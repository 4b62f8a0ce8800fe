import { type DraftApi, draftApi } from '#app/components/draft-api.ts'
import type { StudyDraft } from '#features/studies/study-view.server.ts'

/** The study editor's calls to /api (the same feature functions the pages use). */
export function studyApi(baseUrl: string): StudyApi {
  return draftApi<StudyDraft>(baseUrl, '/studies')
}

export type StudyApi = DraftApi<StudyDraft>
