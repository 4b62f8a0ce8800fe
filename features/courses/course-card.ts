import type { CourseAccess, CourseLevel } from '#db/schema.ts'

/** A course as lists show it; safe to send to the browser. */
export type CourseCard = {
  id: string
  title: string
  summary: string
  level: CourseLevel
  access: CourseAccess
  publishedAt: number
  /** The cover image, a public object of the site's bucket; null for none. */
  coverKey: string | null
  /** Normalised tags in the author's order. */
  tags: string[]
  author: { username: string; displayName: string }
}

export const LEVEL_LABELS: Record<CourseLevel, string> = {
  beginner: '入門',
  intermediate: '中級',
  advanced: '上級',
}
