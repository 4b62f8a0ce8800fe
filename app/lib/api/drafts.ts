import type { PublicationStatus } from '#db/schema.ts'
import type { RouteContract, RouteInput } from '#features/api/contract.ts'
import {
  type EditableRouteSet,
  labRoutes,
  labStoryRoutes,
  studyRoutes,
} from '#features/api/editable.ts'
import { callRoute } from './client.ts'

/** A route's body as the client sends it (the schema's input side). */
type Sent<C extends RouteContract> = RouteInput<C>['sent']['body']

/**
 * An editor's calls to /api for one authored kind (studies, labs, stories): the same feature
 * functions the pages use, with the server checking ownership and revisions. `idName` is the
 * routes' id parameter (`studyId`).
 */
function draftApi<R extends EditableRouteSet>(baseUrl: string, routes: R, idName: string) {
  const at = (id: string) => ({ [idName]: id })
  return {
    draft: (id: string) => callRoute<R['draft']>(baseUrl, routes.draft, { params: at(id) }),
    create: (fields: Sent<R['create']>) =>
      callRoute<R['create']>(baseUrl, routes.create, { body: fields }),
    update: (id: string, fields: Sent<R['update']>) =>
      callRoute<R['update']>(baseUrl, routes.update, { params: at(id), body: fields }),
    publish: (id: string, revision: number) =>
      callRoute<R['publish']>(baseUrl, routes.publish, { params: at(id), body: { revision } }),
    unpublish: (id: string, revision: number) =>
      callRoute<R['unpublish']>(baseUrl, routes.unpublish, { params: at(id), body: { revision } }),
    publishRevision: (id: string, revision: number) =>
      callRoute<R['publishRevision']>(baseUrl, routes.publishRevision, {
        params: at(id),
        body: { revision },
      }),
    discardRevision: (id: string, revision: number) =>
      callRoute<R['discardRevision']>(baseUrl, routes.discardRevision, {
        params: at(id),
        body: { revision },
      }),
    remove: (id: string) => callRoute<R['remove']>(baseUrl, routes.remove, { params: at(id) }),
  }
}

/** What every authored item's editor knows of it besides its own fields. */
export type EditedItem = {
  id: string
  status: PublicationStatus
  revision: number
  /** Since when a published item's edits wait for 「更新する」; null: none. */
  pendingSince: number | null
}

/** What every authored kind's create and update take besides its own fields (`Fields`). */
type Common = { title: string; tags: string[] }

/** The editors' shared client for a kind whose editor opens a `D` and sends `Fields`. */
export type DraftApi<D extends EditedItem, Fields extends object> = {
  draft(id: string): Promise<D>
  create(fields: Fields & Common): Promise<{ id: string; revision: number }>
  update(id: string, fields: Fields & Common & { revision: number }): Promise<{ revision: number }>
  publish(id: string, revision: number): Promise<{ revision: number }>
  unpublish(id: string, revision: number): Promise<{ revision: number }>
  /** 「更新する」: a published item's pending revision becomes its published version. */
  publishRevision(id: string, revision: number): Promise<{ revision: number }>
  /** 「変更を破棄」: drops a published item's pending revision. */
  discardRevision(id: string, revision: number): Promise<{ revision: number }>
  remove(id: string): Promise<void>
}

export const studyApi = (baseUrl: string) => draftApi(baseUrl, studyRoutes, 'studyId')
export const labApi = (baseUrl: string) => draftApi(baseUrl, labRoutes, 'labId')
export const labStoryApi = (baseUrl: string) => draftApi(baseUrl, labStoryRoutes, 'storyId')
