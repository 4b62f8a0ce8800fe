import type { StudyDraft } from '../../../features/studies/study-view.server.ts'
import { type DraftApi, draftApi } from '../draft-api.ts'

/** The study editor's calls to /api (the same feature functions the pages use). */
export function studyApi(baseUrl: string): StudyApi {
  return draftApi<StudyDraft>(baseUrl, '/studies')
}

export type StudyApi = DraftApi<StudyDraft>
