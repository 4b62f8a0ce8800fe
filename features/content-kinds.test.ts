import { describe, expect, it } from 'vitest'
import {
  contentPath,
  createPathOf,
  editPath,
  kindOfPath,
  lessonPath,
  profilePath,
} from './content-kinds.ts'

describe('addresses of users and their items', () => {
  it('builds every kind of address from the one table', () => {
    expect(profilePath('hana')).toBe('/hana')
    expect(contentPath('lab_story', 'hana', 'x1')).toBe('/hana/labs_stories/x1')
    expect(editPath('study', 'hana', 's1')).toBe('/hana/studies/s1/edit')
    expect(createPathOf('course', 'hana')).toBe('/hana/courses/create')
    expect(lessonPath('hana', 'c1', 'l1')).toBe('/hana/courses/c1/lessons/l1')
  })

  it('reads a kind back from its path segment, and refuses an unknown one', () => {
    expect(kindOfPath('labs_stories')).toBe('lab_story')
    expect(kindOfPath('courses')).toBe('course')
    expect(() => kindOfPath('exercises')).toThrow(/no content kind/)
  })
})
