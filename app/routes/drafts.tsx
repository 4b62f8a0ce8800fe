import { Form, Link, useNavigation } from 'react-router'
import { useConfirmedSubmit } from '#app/components/confirm-dialog.tsx'
import { CreateButton } from '#app/components/create-button.tsx'
import { EmptyState } from '#app/components/empty-state.tsx'
import { CREATABLE, type CreatableKind } from '#app/components/navigation.ts'
import { formatDate } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { actorOf } from '#features/actor.ts'
import { ContentError } from '#features/content-error.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import { actOnDraft } from '#features/drafts/draft-actions.server.ts'
import { listMyDrafts } from '#features/drafts/my-drafts.server.ts'
import type { Route } from './+types/drafts'

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '下書き',
    description: 'まだ公開していないコース・スタディ・ラボ・ストーリーの一覧です。',
  })

async function signedInActor(context: Route.LoaderArgs['context'], request: Request) {
  return actorOf(await context.auth.requireUser(request))
}

export async function loader({ context, request }: Route.LoaderArgs) {
  return { drafts: await listMyDrafts(context.db, await signedInActor(context, request)) }
}

/** Publish or delete a draft of any kind; a refusal is shown above the list. */
export async function action({ context, request }: Route.ActionArgs) {
  const actor = await signedInActor(context, request)
  try {
    await actOnDraft(
      context.db,
      actor,
      Object.fromEntries(await request.formData()),
      context.exercises.verifier,
    )
    return { problem: null }
  } catch (error) {
    if (!(error instanceof ContentError)) throw error
    const fields = error.fields ? Object.values(error.fields).flat() : []
    return { problem: fields.length > 0 ? fields.join(' ') : error.message }
  }
}

const buttonClass =
  'rounded-md border border-slate-300 px-3 py-1.5 text-sm hover:bg-slate-100 disabled:opacity-50 dark:border-slate-600 dark:hover:bg-slate-800'

/** One create button per kind: a draft starts on its create page. */
function CreateButtons() {
  return (
    <ul aria-label="新しく作る" className="mt-4 flex flex-wrap gap-2">
      {(Object.keys(CREATABLE) as CreatableKind[]).map((kind) => (
        <li key={kind}>
          <CreateButton kind={kind} />
        </li>
      ))}
    </ul>
  )
}

export default function Drafts({ loaderData, actionData }: Route.ComponentProps) {
  const busy = useNavigation().state !== 'idle'
  const [ask, confirmDialog] = useConfirmedSubmit()
  return (
    <div className="mx-auto max-w-4xl">
      {confirmDialog}
      <h1 className="text-2xl font-bold">下書き</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        公開前のコンテンツです。あなたにだけ表示されます。
      </p>
      <CreateButtons />
      {actionData?.problem && (
        <p role="alert" className="mt-4 text-red-700 dark:text-red-400">
          {actionData.problem}
        </p>
      )}
      {loaderData.drafts.length === 0 ? (
        <div className="mt-6">
          <EmptyState title="下書きはありません">
            作成したコンテンツは、公開するまでここに並びます。上のボタンから書き始めましょう。
          </EmptyState>
        </div>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-800">
          {loaderData.drafts.map((draft) => (
            <li
              key={`${draft.kind}-${draft.id}`}
              data-draft-kind={draft.kind}
              className="flex flex-wrap items-center gap-3 py-4"
            >
              <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs dark:bg-slate-800">
                {CONTENT_KINDS[draft.kind].label}
              </span>
              <div className="min-w-0 flex-1">
                <p className="font-semibold">{draft.title}</p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {formatDate(draft.updatedAt)} 更新
                </p>
              </div>
              <Link to={draft.editPath} className={buttonClass}>
                編集を続ける
              </Link>
              <Form method="post" className="flex gap-2">
                <input type="hidden" name="kind" value={draft.kind} />
                <input type="hidden" name="id" value={draft.id} />
                <input type="hidden" name="revision" value={draft.revision} />
                <button
                  type="submit"
                  name="intent"
                  value="publish"
                  disabled={busy}
                  className={buttonClass}
                >
                  公開する
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="delete"
                  disabled={busy}
                  onClick={ask({
                    title: `「${draft.title}」を削除しますか？`,
                    body: '削除すると元に戻せません。',
                    confirmLabel: '削除する',
                  })}
                  className={`${buttonClass} text-red-700 dark:text-red-400`}
                >
                  削除する
                </button>
              </Form>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}
