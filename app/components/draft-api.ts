import { apiFetch } from '#app/lib/api-client.ts'
import type { PublicationStatus } from '#db/schema.ts'

/** What every authored item's editor knows of it besides its own fields. */
export type EditedItem = { id: string; status: PublicationStatus; revision: number }

/**
 * An editor's calls to /api for one kind (`collection`, e.g. `/studies`): the same feature
 * functions the pages use, with the server checking ownership and revisions.
 */
export function draftApi<D extends EditedItem>(baseUrl: string, collection: string) {
  const send = <T>(method: string, path: string, body?: unknown) =>
    apiFetch<T>(baseUrl, `${collection}${path}`, {
      method,
      headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  return {
    draft: (id: string) => send<D>('GET', `/${id}/draft`),
    create: (fields: unknown) => send<{ id: string; revision: number }>('POST', '', fields),
    update: (id: string, fields: unknown) => send<{ revision: number }>('PUT', `/${id}`, fields),
    publish: (id: string, revision: number) =>
      send<{ revision: number }>('POST', `/${id}/publish`, { revision }),
    unpublish: (id: string, revision: number) =>
      send<{ revision: number }>('POST', `/${id}/unpublish`, { revision }),
    remove: (id: string) => send<void>('DELETE', `/${id}`),
  }
}

export type DraftApi<D extends EditedItem> = ReturnType<typeof draftApi<D>>
