import { z } from 'zod'
import { cursorParameter, pageSizeParameter } from '#features/pagination.ts'
import { tagSchema } from '#features/tags/normalize.ts'
import { access, level } from './course-input.ts'

/** The catalogue's filters; an empty value (an unset select in a GET form) means "any". */
const anyWhenEmpty = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === '' ? undefined : value), schema.optional())

export const catalogueFilters = z.object({
  tag: anyWhenEmpty(tagSchema),
  level: anyWhenEmpty(level),
  access: anyWhenEmpty(access),
})
export type CatalogueFilters = z.infer<typeof catalogueFilters>

export const catalogueQuery = catalogueFilters.extend({
  cursor: cursorParameter.optional(),
  limit: pageSizeParameter,
})
export type CatalogueQuery = z.infer<typeof catalogueQuery>
