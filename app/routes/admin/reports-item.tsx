import { useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { ActionLog } from '#app/components/admin-parts.tsx'
import { FormMessage, SubmitButton, TextAreaField } from '#app/components/forms.tsx'
import { ADMIN_HEADERS } from '#app/lib/admin.server.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { formFieldErrors } from '#app/lib/form-errors.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { requireModerator } from '#app/lib/moderation.server.ts'
import type { ModerationSubjectKind } from '#db/schema.ts'
import { moderate, readModerationItem } from '#features/moderation/moderation.server.ts'
import { MODERATION_ACTION_LABELS } from '#features/moderation/moderation-views.ts'
import {
  REPORT_NOTE_MAX,
  REPORT_REASONS,
  REPORT_SUBJECTS,
} from '#features/moderation/report-labels.ts'
import type { Route } from './+types/reports-item'

export function headers() {
  return ADMIN_HEADERS
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: '報告の対応', description: '報告された対象と対応の記録です。' })

function kindOf(value: string | undefined): ModerationSubjectKind {
  if (value && value in REPORT_SUBJECTS) return value as ModerationSubjectKind
  throw data('ページが見つかりません', { status: 404, statusText: 'ページが見つかりません' })
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const moderator = await requireModerator(context, request)
  const work = readModerationItem(context.db, moderator, kindOf(params.kind), params.id)
  return contentForPage(work, new URL(request.url).pathname)
}

type ActionResult = { errors?: Record<string, string>; notice?: string }

const NOTICES = {
  hide: '非表示にしました。',
  unhide: '再表示しました。',
  suspend: '利用停止にしました。ログイン中のセッションはすべて終了しました。',
  unsuspend: '利用停止を解除しました。',
  dismiss: '報告を却下しました。',
} as const

export async function action({ context, request, params }: Route.ActionArgs) {
  const moderator = await requireModerator(context, request)
  const form = Object.fromEntries(await request.formData())
  const target = { kind: kindOf(params.kind), id: params.id }
  const work = async (): Promise<ActionResult> => {
    const action = String(form.intent ?? '') as keyof typeof NOTICES
    if (!(action in NOTICES)) throw data('不明な操作です', { status: 400 })
    try {
      await moderate(
        context.db,
        moderator,
        target,
        { action, note: typeof form.note === 'string' ? form.note : '' },
        {
          now: context.contact.now(),
          publish: context.moderation.publish,
          disconnect: context.moderation.disconnect,
        },
      )
    } catch (error) {
      return { errors: formFieldErrors(error) }
    }
    return { notice: NOTICES[action] }
  }
  const result = await contentForPage(work(), new URL(request.url).pathname)
  return data(result, { status: result.errors ? 400 : 200, headers: ADMIN_HEADERS })
}

/** /admin/reports/{kind}/{id}: the item in context, its reports, the log, and the actions. */
export default function ReportsItem({ loaderData, actionData }: Route.ComponentProps) {
  const { subject, context, reports, actions } = loaderData
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const result = actionData as ActionResult | undefined
  const pending = navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined
  const kind = subject?.kind
  const owner = subject?.owner
  const open = reports.some((report) => report.status === 'open')
  return (
    <div>
      <p className="text-sm">
        <Link to="/admin/reports" className="text-brand-700 hover:underline dark:text-sky-300">
          ← 報告一覧
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">
        {subject ? `${REPORT_SUBJECTS[subject.kind]}: ${subject.title}` : '削除された対象'}
      </h1>
      {subject && (
        <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
          <dt className="font-semibold">状態</dt>
          <dd data-testid="moderation-state">
            {subject.hidden
              ? `非表示（${formatDateTime(subject.hidden.at)}、理由: ${subject.hidden.reason}）`
              : subject.kind === 'user'
                ? owner?.suspendedAt != null
                  ? `利用停止中（${formatDateTime(owner.suspendedAt)} から）`
                  : '利用中'
                : '表示中'}
          </dd>
          {owner && (
            <>
              <dt className="font-semibold">{subject.kind === 'user' ? 'ユーザー' : '投稿者'}</dt>
              <dd>
                <Link
                  to={`/${owner.username}`}
                  className="text-brand-700 hover:underline dark:text-sky-300"
                >
                  {owner.displayName}（@{owner.username}）
                </Link>
                {owner.suspendedAt != null && '・利用停止中'}
                {subject.kind !== 'user' && (
                  <>
                    {' '}
                    <Link
                      to={`/admin/reports/user/${owner.id}`}
                      className="text-brand-700 underline dark:text-sky-300"
                    >
                      このユーザーの対応へ
                    </Link>
                  </>
                )}
              </dd>
            </>
          )}
          {subject.path && (
            <>
              <dt className="font-semibold">ページ</dt>
              <dd>
                <Link
                  to={subject.path}
                  className="text-brand-700 hover:underline dark:text-sky-300"
                >
                  {subject.path}
                </Link>
              </dd>
            </>
          )}
        </dl>
      )}
      {subject && kind !== 'message' && subject.excerpt && (
        <blockquote className="mt-4 whitespace-pre-wrap rounded-lg border border-slate-200 p-4 text-sm dark:border-slate-700">
          {subject.excerpt}
        </blockquote>
      )}
      {context.length > 0 && (
        <section aria-labelledby="context-title" className="mt-6">
          <h2 id="context-title" className="text-lg font-bold">
            前後のメッセージ
          </h2>
          <ol className="mt-2 flex flex-col gap-2" data-testid="message-context">
            {context.map((message) => (
              <li
                key={message.id}
                aria-current={message.id === subject?.id ? 'true' : undefined}
                className={`rounded-lg p-3 text-sm ${
                  message.id === subject?.id
                    ? 'border-2 border-red-600 bg-red-50 text-slate-900 dark:bg-red-950 dark:text-slate-100'
                    : 'bg-slate-50 dark:bg-slate-900'
                }`}
              >
                <p className="text-xs text-slate-600 dark:text-slate-400">
                  @{message.sender}・
                  <time dateTime={new Date(message.createdAt).toISOString()}>
                    {formatDateTime(message.createdAt)}
                  </time>
                  {message.id === subject?.id && '・報告されたメッセージ'}
                </p>
                <p className="mt-1 whitespace-pre-wrap">
                  {message.deleted ? '（削除されたメッセージ）' : message.body}
                </p>
              </li>
            ))}
          </ol>
        </section>
      )}

      <h2 className="mt-8 text-lg font-bold">報告（{reports.length} 件）</h2>
      <ol className="mt-2 flex flex-col gap-3" data-testid="report-list">
        {reports.map((report) => (
          <li key={report.id} className="rounded-lg bg-slate-50 p-3 dark:bg-slate-900">
            <p className="text-xs text-slate-600 dark:text-slate-400">
              {REPORT_REASONS[report.reason]}・@{report.reporter}・
              <time dateTime={new Date(report.updatedAt).toISOString()}>
                {formatDateTime(report.updatedAt)}
              </time>
              ・{report.status === 'open' ? '未対応' : '対応済み'}
            </p>
            {report.note && <p className="mt-1 whitespace-pre-wrap">{report.note}</p>}
          </li>
        ))}
      </ol>

      <ActionLog
        testId="moderation-log"
        entries={actions.map((entry) => ({
          id: entry.id,
          label: MODERATION_ACTION_LABELS[entry.action],
          actor: `@${entry.actor}`,
          at: entry.createdAt,
          note: entry.note,
        }))}
      />

      {result?.notice && (
        <div className="mt-6">
          <FormMessage tone="success">{result.notice}</FormMessage>
        </div>
      )}
      {result?.errors && (
        <div className="mt-6">
          <FormMessage tone="error">{Object.values(result.errors).join(' ')}</FormMessage>
        </div>
      )}
      {subject && (
        <Form method="post" noValidate ref={formRef} className="mt-6 flex flex-col gap-3">
          <h2 className="text-lg font-bold">対応する</h2>
          <TextAreaField
            label="メモ（任意）"
            name="note"
            rows={3}
            maxLength={REPORT_NOTE_MAX}
            hint="記録に残ります。非表示にするときは、投稿者に理由として表示されます（空なら報告の理由）。"
            error={result?.errors?.note}
          />
          <div className="flex flex-wrap gap-3">
            {subject.kind === 'user' ? (
              <SubmitButton
                name="intent"
                value={owner?.suspendedAt != null ? 'unsuspend' : 'suspend'}
                variant={owner?.suspendedAt != null ? 'secondary' : 'danger'}
                pending={pending === 'suspend' || pending === 'unsuspend'}
              >
                {owner?.suspendedAt != null ? '利用停止を解除する' : '利用停止にする'}
              </SubmitButton>
            ) : (
              <SubmitButton
                name="intent"
                value={subject.hidden ? 'unhide' : 'hide'}
                variant={subject.hidden ? 'secondary' : 'danger'}
                pending={pending === 'hide' || pending === 'unhide'}
              >
                {subject.hidden ? '再表示する' : '非表示にする'}
              </SubmitButton>
            )}
            {open && (
              <SubmitButton
                name="intent"
                value="dismiss"
                variant="secondary"
                pending={pending === 'dismiss'}
              >
                報告を却下する
              </SubmitButton>
            )}
          </div>
        </Form>
      )}
    </div>
  )
}
