import type { ContentKind } from '#db/schema.ts'

/**
 * How each kind of content is named and addressed on the site (pages under its author). Every
 * address of a user's page or item is built here, so a renamed path changes in one place.
 */
export const CONTENT_KINDS: Record<
  ContentKind,
  { label: string; table: 'courses' | 'studies' | 'labs' | 'lab_stories'; path: string }
> = {
  course: { label: 'コース', table: 'courses', path: 'courses' },
  study: { label: 'スタディ', table: 'studies', path: 'studies' },
  lab: { label: 'ラボ', table: 'labs', path: 'labs' },
  lab_story: { label: 'ストーリー', table: 'lab_stories', path: 'labs_stories' },
}

/** The page of an item: `/{user}/{kind's path}/{id}`. */
export function contentPath(kind: ContentKind, username: string, id: string): string {
  return `${profilePath(username)}/${CONTENT_KINDS[kind].path}/${id}`
}

/** The kind whose path segment this is (`studies` → study), for pages addressed by segment. */
export function kindOfPath(segment: string): ContentKind {
  const kind = (Object.keys(CONTENT_KINDS) as ContentKind[]).find(
    (candidate) => CONTENT_KINDS[candidate].path === segment,
  )
  if (!kind) throw new Error(`no content kind has the path ${segment}`)
  return kind
}

/** An item's editor: `/{user}/{kind's path}/{id}/edit`. */
export function editPath(kind: ContentKind, username: string, id: string): string {
  return `${contentPath(kind, username, id)}/edit`
}

/** A kind's create page, under the user's own name: `/{user}/{kind's path}/create`. */
export function createPathOf(kind: ContentKind, username: string): string {
  return `${profilePath(username)}/${CONTENT_KINDS[kind].path}/create`
}

/** A lesson of a course: `/{user}/courses/{course id}/lessons/{lesson id}`. */
export function lessonPath(username: string, courseId: string, lessonId: string): string {
  return `${contentPath('course', username, courseId)}/lessons/${lessonId}`
}

/** A study's exercise set: `/{user}/studies/{study id}/exercises`. */
export function exercisesPath(username: string, studyId: string): string {
  return `${contentPath('study', username, studyId)}/exercises`
}

/** A user's profile page: `/{user}`. */
export function profilePath(username: string): string {
  return `/${username}`
}
