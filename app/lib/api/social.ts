import type { ContentKind } from '#db/schema.ts'
import { socialRoutes as routes } from '#features/api/social.ts'
import { callApi } from './client.ts'

/** The like and comment components' calls to /api (the same feature functions the pages use). */
export function socialApi(baseUrl: string, kind: ContentKind, id: string) {
  const subject = { kind, id }
  return {
    like: () => callApi(baseUrl, routes.like, { params: subject }),
    unlike: () => callApi(baseUrl, routes.unlike, { params: subject }),
    comments: (cursor: string, limit: number) =>
      callApi(baseUrl, routes.comments, { params: subject, query: { cursor, limit } }),
    post: (body: string, parentId?: string) =>
      callApi(baseUrl, routes.postComment, { params: subject, body: { body, parentId } }),
    update: (commentId: string, body: string) =>
      callApi(baseUrl, routes.updateComment, { params: { commentId }, body: { body } }),
    remove: (commentId: string) =>
      callApi(baseUrl, routes.deleteComment, { params: { commentId } }),
  }
}

export type SocialApi = ReturnType<typeof socialApi>
