import { describe, expect, it } from 'vitest'
import { courseFields, summary } from '#features/courses/course-input.ts'
import { labFields } from '#features/labs/lab-input.ts'
import { SEARCH_QUERY_MAX_LENGTH } from '#features/search/limits.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { profileFields } from '#features/users/profile-input.ts'
import { fieldLimits } from './field-limits.ts'

describe('form limits read from the schemas', () => {
  it('reads a required, bounded string', () => {
    expect(fieldLimits(courseFields.shape.title)).toEqual({
      maxLength: 100,
      minLength: 1,
      required: true,
    })
    expect(fieldLimits(profileFields.shape.displayName).maxLength).toBe(50)
    // The header's search box reads the constant the schema is built from.
    expect(fieldLimits(searchQuery.shape.q).maxLength).toBe(SEARCH_QUERY_MAX_LENGTH)
  })

  it('looks through defaults, nullables and transforms; those are not required', () => {
    expect(fieldLimits(summary)).toEqual({ maxLength: 500, minLength: undefined, required: false })
    expect(fieldLimits(profileFields.shape.bio)).toMatchObject({ maxLength: 300, required: false })
    expect(fieldLimits(labFields.shape.demoUrl)).toMatchObject({ maxLength: 500, required: false })
  })
})
