import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { z } from 'zod'
import type { DB } from '../../db/schema.ts'
import {
  catalogueQuery,
  findPublishedCourse,
  listPublishedCourses,
} from '../../features/courses/catalogue.server.ts'
import { ApiError } from './api-error.ts'

const courseAddress = z.object({
  username: z.string().min(1).max(64),
  courseId: z.string().min(1).max(64),
})

export function registerCourseRoutes(api: FastifyInstance, db: Kysely<DB>): void {
  api.get('/courses', async (request) => {
    const query = catalogueQuery.safeParse(request.query)
    if (!query.success) throw ApiError.validation(query.error)
    return listPublishedCourses(db, query.data)
  })

  api.get('/users/:username/courses/:courseId', async (request) => {
    const address = courseAddress.safeParse(request.params)
    if (!address.success) throw ApiError.validation(address.error)
    const course = await findPublishedCourse(db, address.data)
    if (!course) throw ApiError.notFound('コースが見つかりません')
    return course
  })
}
