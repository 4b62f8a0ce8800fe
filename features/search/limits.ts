/**
 * The search box's limit, apart from the schema (search-query.ts) so that the header's search
 * box, on every page, does not download zod to read it.
 */
export const SEARCH_QUERY_MAX_LENGTH = 100
