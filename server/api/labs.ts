import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import { labRoutes, labStoryRoutes } from '#features/api/editable.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import {
  createLab,
  deleteLab,
  discardLabRevision,
  publishLab,
  publishLabRevision,
  unpublishLab,
  updateLab,
} from '#features/labs/lab-editing.server.ts'
import { listPublishedLabStories, listPublishedLabs } from '#features/labs/lab-lists.server.ts'
import {
  createLabStory,
  deleteLabStory,
  discardLabStoryRevision,
  publishLabStory,
  publishLabStoryRevision,
  unpublishLabStory,
  updateLabStory,
} from '#features/labs/lab-story-editing.server.ts'
import {
  labChoicesFor,
  readLabForEditor,
  readLabForViewer,
  readLabStoryForEditor,
  readLabStoryForViewer,
} from '#features/labs/lab-view.server.ts'
import { registerEditableRoutes } from './editable-routes.ts'
import { serve } from './serve.ts'

/** Labs and lab stories: the same shape as studies, plus a lab's stories and a story's labs. */
export function registerLabRoutes(
  api: FastifyInstance,
  db: Kysely<DB>,
  images: ImageStorage,
): void {
  registerEditableRoutes(api, labRoutes, 'labId', {
    list: (query, username) => listPublishedLabs(db, query, username),
    read: ({ username, id }, viewer) => readLabForViewer(db, { username, labId: id }, viewer),
    create: (actor, body) => createLab(db, images, actor, body),
    readDraft: (actor, id) => readLabForEditor(db, actor, id),
    update: (actor, id, body) => updateLab(db, images, actor, id, body),
    publish: (actor, id, body) => publishLab(db, actor, id, body),
    unpublish: (actor, id, body) => unpublishLab(db, images, actor, id, body),
    publishRevision: (actor, id, body) => publishLabRevision(db, images, actor, id, body),
    discardRevision: (actor, id, body) => discardLabRevision(db, actor, id, body),
    remove: (actor, id) => deleteLab(db, actor, id),
  })
  serve(api, labRoutes.stories, async ({ params, query }) =>
    listPublishedLabStories(db, query, { labId: params.labId }),
  )

  registerEditableRoutes(api, labStoryRoutes, 'storyId', {
    list: (query, username) => listPublishedLabStories(db, query, { username }),
    read: ({ username, id }, viewer) =>
      readLabStoryForViewer(db, { username, storyId: id }, viewer),
    create: (actor, body) => createLabStory(db, images, actor, body),
    readDraft: (actor, id) => readLabStoryForEditor(db, actor, id),
    update: (actor, id, body) => updateLabStory(db, images, actor, id, body),
    publish: (actor, id, body) => publishLabStory(db, actor, id, body),
    unpublish: (actor, id, body) => unpublishLabStory(db, images, actor, id, body),
    publishRevision: (actor, id, body) => publishLabStoryRevision(db, images, actor, id, body),
    discardRevision: (actor, id, body) => discardLabStoryRevision(db, actor, id, body),
    remove: (actor, id) => deleteLabStory(db, actor, id),
  })
  serve(api, labStoryRoutes.labChoices, async ({ query, actor }) => ({
    items: await labChoicesFor(db, actor, query.storyId),
  }))
}
