import { z } from 'zod'
import { created, pageOf, published, saved } from '#features/content-views.ts'
import { basedOnRevision } from '#features/courses/course-input.ts'
import {
  labChoicesQuery,
  labFields,
  labStoryFields,
  labStoryUpdate,
  labUpdate,
} from '#features/labs/lab-input.ts'
import {
  labCard,
  labDraft,
  labRef,
  labStoryDraft,
  labStoryView,
  labView,
} from '#features/labs/lab-views.ts'
import { pageQuery } from '#features/pagination.ts'
import { studyFields, studyUpdate } from '#features/studies/study-input.ts'
import { studyCard, studyDraft, studyView } from '#features/studies/study-views.ts'
import { noContent, pathId, route } from './contract.ts'

/**
 * The routes every authored kind has (studies, labs, lab stories): its lists and pages' reads
 * at the pages' addresses, and the editor's writes addressed by id.
 */
function editableRoutes<
  const I extends string,
  Fields extends z.ZodType,
  Update extends z.ZodType,
  Card extends z.ZodType,
  View extends z.ZodType,
  Draft extends z.ZodType,
>(kind: {
  /** The kind's collection under /api, e.g. `/studies`; its pages use the same segment. */
  collection: string
  /** The name of the id in paths, e.g. `studyId`. */
  idName: I
  label: string
  fields: Fields
  update: Update
  card: Card
  view: View
  draft: Draft
}) {
  // Long by design: a table of route contracts, one entry per route, with no logic between them.
  const { collection, label } = kind
  const item = `${collection}/:${kind.idName}`
  const idParams = z.object({ [kind.idName]: pathId } as Record<I, typeof pathId>)
  const author = z.object({ username: pathId })
  return {
    list: route({
      method: 'GET',
      path: collection,
      summary: `公開中の${label}一覧`,
      query: pageQuery,
      status: 200,
      response: pageOf(kind.card),
    }),
    listByAuthor: route({
      method: 'GET',
      path: `/users/:username${collection}`,
      summary: `ユーザーの公開中の${label}一覧`,
      params: author,
      query: pageQuery,
      status: 200,
      response: pageOf(kind.card),
    }),
    read: route({
      method: 'GET',
      path: `/users/:username${item}`,
      summary: label,
      params: author.extend(idParams.shape),
      status: 200,
      response: kind.view,
    }),
    create: route({
      method: 'POST',
      path: collection,
      summary: `${label}を作成（下書き）`,
      signIn: true,
      body: kind.fields,
      status: 201,
      response: created,
    }),
    draft: route({
      method: 'GET',
      path: `${item}/draft`,
      summary: `編集用の${label}`,
      signIn: true,
      params: idParams,
      status: 200,
      response: kind.draft,
    }),
    update: route({
      method: 'PUT',
      path: item,
      summary: `${label}を保存（公開中なら保留中の変更として。revision が古ければ 409）`,
      signIn: true,
      params: idParams,
      body: kind.update,
      status: 200,
      response: saved,
    }),
    publish: route({
      method: 'POST',
      path: `${item}/publish`,
      summary: `${label}を公開`,
      signIn: true,
      params: idParams,
      body: basedOnRevision,
      status: 200,
      response: published,
    }),
    publishRevision: route({
      method: 'POST',
      path: `${item}/pending/publish`,
      summary: `公開中の${label}の保留中の変更を公開（「更新する」。変更がなければ 409）`,
      signIn: true,
      params: idParams,
      body: basedOnRevision,
      status: 200,
      response: saved,
    }),
    discardRevision: route({
      method: 'POST',
      path: `${item}/pending/discard`,
      summary: `公開中の${label}の保留中の変更を破棄（「変更を破棄」）`,
      signIn: true,
      params: idParams,
      body: basedOnRevision,
      status: 200,
      response: saved,
    }),
    unpublish: route({
      method: 'POST',
      path: `${item}/unpublish`,
      summary: `${label}を非公開に戻す`,
      signIn: true,
      params: idParams,
      body: basedOnRevision,
      status: 200,
      response: saved,
    }),
    remove: route({
      method: 'DELETE',
      path: item,
      summary: `${label}を削除`,
      signIn: true,
      params: idParams,
      status: 204,
      response: noContent,
    }),
  }
}

export const studyRoutes = editableRoutes({
  collection: '/studies',
  idName: 'studyId',
  label: 'スタディ',
  fields: studyFields,
  update: studyUpdate,
  card: studyCard,
  view: studyView,
  draft: studyDraft,
})

export const labRoutes = {
  ...editableRoutes({
    collection: '/labs',
    idName: 'labId',
    label: 'ラボ',
    fields: labFields,
    update: labUpdate,
    card: labCard,
    view: labView,
    draft: labDraft,
  }),
  stories: route({
    method: 'GET',
    path: '/labs/:labId/stories',
    summary: 'ラボの公開中のストーリー一覧',
    params: z.object({ labId: pathId }),
    query: pageQuery,
    status: 200,
    response: pageOf(labCard),
  }),
}

export const labStoryRoutes = {
  ...editableRoutes({
    collection: '/labs_stories',
    idName: 'storyId',
    label: 'ストーリー',
    fields: labStoryFields,
    update: labStoryUpdate,
    card: labCard,
    view: labStoryView,
    draft: labStoryDraft,
  }),
  labChoices: route({
    method: 'GET',
    path: '/labs_stories/lab-choices',
    summary: 'ストーリーに結び付けられるラボ（自分のラボ）',
    signIn: true,
    query: labChoicesQuery,
    status: 200,
    response: z.object({ items: z.array(labRef) }),
  }),
}

/** The routes any authored kind has, whatever its schemas. */
export type EditableRouteSet = ReturnType<
  typeof editableRoutes<string, z.ZodType, z.ZodType, z.ZodType, z.ZodType, z.ZodType>
>
