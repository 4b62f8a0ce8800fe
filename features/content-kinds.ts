import type { ContentKind } from '#db/schema.ts'

/** How each kind of content is named and addressed on the site (pages under its author). */
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
  return `/${username}/${CONTENT_KINDS[kind].path}/${id}`
}
