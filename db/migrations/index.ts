import type { Migration } from 'kysely'
import * as usersAndCourses from './2026-11-22-0001-users-and-courses.ts'
import * as identityAndMail from './2026-11-22-0002-identity-and-mail.ts'

/**
 * Every migration, in order. Listed statically rather than read from the folder so the same
 * list works when run by Node directly and when bundled.
 */
export const migrations: Record<string, Migration> = {
  '2026-11-22-0001-users-and-courses': usersAndCourses,
  '2026-11-22-0002-identity-and-mail': identityAndMail,
}
