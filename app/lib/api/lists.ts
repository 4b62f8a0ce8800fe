import type { RouteContract, RouteResult } from '#features/api/contract.ts'
import type { pageQuery } from '#features/pagination.ts'
import { type ContractAt, callRoute, type RouteKey, type RouteRef } from './client.ts'

/** A list route: it takes `?cursor=&limit=` and answers a page. */
type ListRoute = RouteContract & { query: typeof pageQuery }

/** Fetches a list's page after `cursor`, `limit` items long, from the API at `baseUrl`. */
export type PageFetcher<P> = (baseUrl: string, cursor: string, limit: number) => Promise<P>

/** Where a list's later pages come from: its route, with its path parameters (`username`). */
export function pagesOf<K extends RouteKey>(
  route: K,
  params?: Record<string, string>,
): PageFetcher<RouteResult<ContractAt<K>>>
export function pagesOf<C extends ListRoute>(
  route: C,
  params?: Record<string, string>,
): PageFetcher<RouteResult<C>>
export function pagesOf(
  route: RouteRef<ListRoute>,
  params: Record<string, string> = {},
): PageFetcher<unknown> {
  return (baseUrl, cursor, limit) => callRoute(baseUrl, route, { params, query: { cursor, limit } })
}
