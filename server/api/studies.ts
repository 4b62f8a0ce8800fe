import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { studyRoutes } from '#features/api/editable.ts'
import type { CodeVerifier } from '#features/exercises/answers.server.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import {
  createStudy,
  deleteStudy,
  discardStudyRevision,
  publishStudy,
  publishStudyRevision,
  unpublishStudy,
  updateStudy,
} from '#features/studies/study-editing.server.ts'
import { listPublishedStudies } from '#features/studies/study-lists.server.ts'
import { readStudyForEditor, readStudyForViewer } from '#features/studies/study-view.server.ts'
import { registerEditableRoutes } from './editable-routes.ts'

/** Studies: reading at the pages' addresses, and the editor's writes addressed by study id. */
export function registerStudyRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  images: ImageStorage,
  verifier: CodeVerifier,
): void {
  registerEditableRoutes(api, studyRoutes, 'studyId', {
    list: (query, username) => listPublishedStudies(db, query, username),
    read: ({ username, id }, viewer) => readStudyForViewer(db, { username, studyId: id }, viewer),
    create: (actor, body) => createStudy(db, images, actor, body),
    readDraft: (actor, id) => readStudyForEditor(db, actor, id),
    update: (actor, id, body) => updateStudy(db, images, actor, id, body),
    publish: (actor, id, body) => publishStudy(db, actor, id, body, Date.now(), verifier),
    unpublish: (actor, id, body) => unpublishStudy(db, images, actor, id, body),
    publishRevision: (actor, id, body) =>
      publishStudyRevision(db, images, verifier, actor, id, body),
    discardRevision: (actor, id, body) => discardStudyRevision(db, actor, id, body),
    remove: (actor, id) => deleteStudy(db, actor, id),
  })
}
