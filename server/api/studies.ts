import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '../../db/schema.ts'
import type { Actor } from '../../features/actor.ts'
import {
  createStudy,
  deleteStudy,
  publishStudy,
  unpublishStudy,
  updateStudy,
} from '../../features/studies/study-editing.server.ts'
import { listPublishedStudies, studyListQuery } from '../../features/studies/study-lists.server.ts'
import { readStudyForEditor, readStudyForViewer } from '../../features/studies/study-view.server.ts'
import { ApiError } from './api-error.ts'
import { pathId, pathParams } from './request-params.ts'

const studyParams = z.object({ studyId: pathId })
const authorParams = z.object({ username: pathId })
const studyAddress = authorParams.extend({ studyId: pathId })

function listQuery(request: FastifyRequest) {
  const query = studyListQuery.safeParse(request.query)
  if (!query.success) throw ApiError.validation(query.error)
  return query.data
}

/**
 * Studies: reading at the pages' addresses, and the editor's writes addressed by study id.
 * Every write goes through the same feature functions as the pages, which check ownership.
 */
export function registerStudyRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  actorOf: (request: FastifyRequest) => Promise<Actor | undefined>,
): void {
  api.get('/studies', async (request) => listPublishedStudies(db, listQuery(request)))
  api.get('/users/:username/studies', async (request) => {
    const { username } = pathParams(authorParams, request)
    return listPublishedStudies(db, listQuery(request), username)
  })
  api.get('/users/:username/studies/:studyId', async (request) => {
    return readStudyForViewer(db, pathParams(studyAddress, request), await actorOf(request))
  })

  api.post('/studies', async (request, reply) => {
    return reply.code(201).send(await createStudy(db, await actorOf(request), request.body))
  })
  api.get('/studies/:studyId/draft', async (request) => {
    const { studyId } = pathParams(studyParams, request)
    return readStudyForEditor(db, await actorOf(request), studyId)
  })
  api.put('/studies/:studyId', async (request) => {
    const { studyId } = pathParams(studyParams, request)
    return updateStudy(db, await actorOf(request), studyId, request.body)
  })
  api.post('/studies/:studyId/publish', async (request) => {
    const { studyId } = pathParams(studyParams, request)
    return publishStudy(db, await actorOf(request), studyId, request.body)
  })
  api.post('/studies/:studyId/unpublish', async (request) => {
    const { studyId } = pathParams(studyParams, request)
    return unpublishStudy(db, await actorOf(request), studyId, request.body)
  })
  api.delete('/studies/:studyId', async (request, reply) => {
    const { studyId } = pathParams(studyParams, request)
    await deleteStudy(db, await actorOf(request), studyId)
    return reply.code(204).send()
  })
}
