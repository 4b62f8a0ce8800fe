import type { ContentKind } from '#db/schema.ts'
import { callApi } from './client.ts'

/** The like and comment components' calls to /api (the same feature functions the pages use). */
export function socialApi(baseUrl: string, kind: ContentKind, id: string) {
  const subject = { kind, id }
  return {
    like: () => callApi(baseUrl, 'social.like', { params: subject }),
    unlike: () => callApi(baseUrl, 'social.unlike', { params: subject }),
    comments: (cursor: string, limit: number) =>
      callApi(baseUrl, 'social.comments', {
        params: subject,
        query: { cursor, limit },
      }),
    post: (body: string, parentId?: string) =>
      callApi(baseUrl, 'social.postComment', {
        params: subject,
        body: { body, parentId },
      }),
    update: (commentId: string, body: string) =>
      callApi(baseUrl, 'social.updateComment', {
        params: { commentId },
        body: { body },
      }),
    remove: (commentId: string) =>
      callApi(baseUrl, 'social.deleteComment', { params: { commentId } }),
  }
}

export type SocialApi = ReturnType<typeof socialApi>
