import type { ColumnType, Insertable, Selectable, Updateable } from 'kysely'

/** Milliseconds since the Unix epoch: one representation on SQLite and PostgreSQL alike. */
export type EpochMs = number

export interface UsersTable {
  id: string
  username: string
  display_name: string
  bio: ColumnType<string, string | undefined, string>
  created_at: EpochMs
  updated_at: EpochMs
}

export type CourseLevel = 'beginner' | 'intermediate' | 'advanced'
export type CourseAccess = 'free' | 'premium'
export type PublicationStatus = 'draft' | 'published'

export interface CoursesTable {
  id: string
  owner_id: string
  title: string
  summary: string
  level: CourseLevel
  access: CourseAccess
  status: PublicationStatus
  published_at: EpochMs | null
  created_at: EpochMs
  updated_at: EpochMs
}

export interface DB {
  users: UsersTable
  courses: CoursesTable
}

export type User = Selectable<UsersTable>
export type NewUser = Insertable<UsersTable>
export type UserUpdate = Updateable<UsersTable>
export type Course = Selectable<CoursesTable>
export type NewCourse = Insertable<CoursesTable>
