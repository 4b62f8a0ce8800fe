import { useRef } from 'react'
import { data, Form, Link, useNavigation } from 'react-router'
import { ActionLog } from '#app/components/admin-parts.tsx'
import {
  FormMessage,
  SubmitButton,
  TextAreaField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { ADMIN_HEADERS, requireAdmin } from '#app/lib/admin.server.ts'
import { contentForPage } from '#app/lib/content-response.server.ts'
import { formFieldErrors } from '#app/lib/form-errors.ts'
import { formatDateTime } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import {
  readContactMessage,
  replyToContactMessage,
  setContactMessageClosed,
} from '#features/contact/contact.server.ts'
import { fieldConstraints, replyFields } from '#features/contact/contact-input.ts'
import type { Route } from './+types/contact-message'

export function headers() {
  return ADMIN_HEADERS
}

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'お問い合わせ', description: 'お問い合わせの内容と対応の記録です。' })

export async function loader({ context, request, params }: Route.LoaderArgs) {
  await requireAdmin(context, request)
  const url = new URL(request.url)
  return contentForPage(readContactMessage(context.db, params.id), url.pathname)
}

type ActionResult = { errors?: Record<string, string>; notice?: string }

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = await requireAdmin(context, request)
  const admin = { userId: user.sub, username: user.username }
  const form = Object.fromEntries(await request.formData())
  const work = async (): Promise<ActionResult> => {
    if (form.intent === 'reply') {
      try {
        const mailIds = await replyToContactMessage(
          context.db,
          admin,
          params.id,
          form,
          context.contact.now(),
        )
        await context.mail.deliverQueued(mailIds)
      } catch (error) {
        return { errors: formFieldErrors(error) }
      }
      return { notice: '返信を送りました。' }
    }
    if (form.intent === 'close' || form.intent === 'reopen') {
      await setContactMessageClosed(
        context.db,
        admin,
        params.id,
        form.intent === 'close',
        context.contact.now(),
      )
      return { notice: form.intent === 'close' ? '完了にしました。' : '対応中に戻しました。' }
    }
    throw data('不明な操作です', { status: 400 })
  }
  const result = await contentForPage(work(), new URL(request.url).pathname)
  return data(result, { status: result.errors ? 400 : 200, headers: ADMIN_HEADERS })
}

const EVENT_LABELS = { reply: '返信', closed: '完了にしました', reopened: '対応中に戻しました' }

export default function ContactMessage({ loaderData, actionData }: Route.ComponentProps) {
  const message = loaderData
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = actionData as ActionResult | undefined
  useFocusOnErrors(result, formRef, messageRef)
  const pendingIntent =
    navigation.state === 'submitting' ? navigation.formData?.get('intent') : undefined
  return (
    <div>
      <p className="text-sm">
        <Link to="/admin/contact" className="text-brand-700 hover:underline dark:text-sky-300">
          ← お問い合わせ一覧
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold">
        {message.name} 様からのお問い合わせ（{message.categoryLabel}）
      </h1>
      <dl className="mt-4 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-semibold">状態</dt>
        <dd data-testid="contact-status">{message.statusLabel}</dd>
        <dt className="font-semibold">メールアドレス</dt>
        <dd>{message.email}</dd>
        <dt className="font-semibold">受付日時</dt>
        <dd>{formatDateTime(message.createdAt)}</dd>
      </dl>
      <div className="mt-4 whitespace-pre-wrap rounded-lg border border-slate-200 p-4 dark:border-slate-700">
        {message.body}
      </div>

      <ActionLog
        entries={message.events.map((event) => ({
          id: event.id,
          label: EVENT_LABELS[event.kind],
          actor: event.actorName,
          at: event.createdAt,
          note: event.body,
        }))}
      />

      {result?.notice && (
        <div className="mt-6">
          <FormMessage tone="success">{result.notice}</FormMessage>
        </div>
      )}
      {message.status !== 'closed' && (
        <Form method="post" noValidate ref={formRef} className="mt-6 flex flex-col gap-3">
          <input type="hidden" name="intent" value="reply" />
          <TextAreaField
            label="返信"
            name="body"
            rows={6}
            hint={`${message.email} あてにメールで送られ、この記録に残ります。`}
            error={result?.errors?.body}
            {...fieldConstraints(replyFields.shape.body)}
          />
          <SubmitButton
            pending={pendingIntent === 'reply'}
            pendingLabel="送信しています…"
            className="self-start"
          >
            返信を送る
          </SubmitButton>
        </Form>
      )}
      <Form method="post" className="mt-4">
        <input
          type="hidden"
          name="intent"
          value={message.status === 'closed' ? 'reopen' : 'close'}
        />
        <SubmitButton
          variant="secondary"
          pending={pendingIntent === 'close' || pendingIntent === 'reopen'}
        >
          {message.status === 'closed' ? '対応中に戻す' : '完了にする'}
        </SubmitButton>
      </Form>
      <div ref={messageRef} />
    </div>
  )
}
