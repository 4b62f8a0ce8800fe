import type { CourseLevel } from '#db/schema.ts'

export type { CourseCard } from './course-views.ts'

export const LEVEL_LABELS: Record<CourseLevel, string> = {
  beginner: '入門',
  intermediate: '中級',
  advanced: '上級',
}
