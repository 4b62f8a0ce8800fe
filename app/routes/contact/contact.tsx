import { useRef } from 'react'
import { data, Form, redirect, useNavigation } from 'react-router'
import {
  FormMessage,
  SelectField,
  SubmitButton,
  TextAreaField,
  TextField,
  useFocusOnErrors,
} from '#app/components/forms.tsx'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { formFieldErrors } from '#app/lib/form-errors.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { submitContactMessage } from '#features/contact/contact.server.ts'
import {
  CONTACT_CATEGORIES,
  contactFields,
  fieldConstraints,
  HONEYPOT_FIELD,
} from '#features/contact/contact-input.ts'
import { findProfile } from '#features/users/profiles.server.ts'
import type { Route } from './+types/contact'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'お問い合わせ',
    description: '講座の内容、不具合、お支払いなど、サイトへのお問い合わせを受け付けています。',
  })

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Cache-Control') ? actionHeaders : loaderHeaders

/** A signed-in sender's name and email come prefilled; a guest's page is the same for all. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const profile = user && (await findProfile(context.db, user.username))
  return data(
    { name: profile?.displayName ?? '', email: user?.email ?? '' },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

const TOO_MANY =
  '短い時間に多くのお問い合わせが送られたため、受け付けを一時停止しています。1 時間ほどおいてから、もう一度お送りください。'

export async function action({ context, request }: Route.ActionArgs) {
  const user = await context.auth.currentUser(request)
  const form = Object.fromEntries(await request.formData())
  const noStore = { 'Cache-Control': 'private, no-store' }
  let result: Awaited<ReturnType<typeof submitContactMessage>>
  try {
    result = await submitContactMessage(context.db, form, {
      userId: user?.sub,
      clientAddress: context.clientAddress ?? 'unknown',
      limits: context.contact.limits,
      admins: context.contact.admins,
      baseUrl: context.settings.baseUrl,
      warn: (details, message) => context.log.warn(details, message),
      now: context.contact.now(),
    })
  } catch (error) {
    return data({ errors: formFieldErrors(error) }, { status: 400, headers: noStore })
  }
  if (result.outcome === 'limited') {
    return data({ formError: TOO_MANY }, { status: 429, headers: noStore })
  }
  if (result.outcome === 'stored') await context.mail.deliverQueued(result.mailIds)
  // A bot that filled the honeypot is thanked like anyone else, so it learns nothing.
  throw redirect('/contact/sent')
}

const constraints = (name: keyof typeof contactFields.shape) =>
  fieldConstraints(contactFields.shape[name])

export default function Contact({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = actionData as { errors?: Record<string, string>; formError?: string } | undefined
  useFocusOnErrors(result, formRef, messageRef)
  const errors = result?.errors ?? {}
  return (
    <div className="mx-auto max-w-2xl">
      <h1 className="text-2xl font-bold">お問い合わせ</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        講座の内容、不具合、お支払いなどについてお気軽にお問い合わせください。担当者より、ご入力のメールアドレスあてにご連絡します。
      </p>
      <Form method="post" noValidate ref={formRef} className="mt-6 flex flex-col gap-3">
        {result?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
          </FormMessage>
        )}
        {Object.keys(errors).length > 0 && (
          <FormMessage tone="error">入力内容に誤りがあります。各項目をご確認ください。</FormMessage>
        )}
        <TextField
          label="お名前"
          name="name"
          autoComplete="name"
          defaultValue={loaderData.name}
          error={errors.name}
          {...constraints('name')}
        />
        <TextField
          label="メールアドレス"
          name="email"
          type="email"
          autoComplete="email"
          defaultValue={loaderData.email}
          error={errors.email}
          {...constraints('email')}
        />
        <SelectField
          label="お問い合わせの種類"
          name="category"
          placeholder="選んでください"
          options={CONTACT_CATEGORIES}
          defaultValue=""
          error={errors.category}
          {...constraints('category')}
        />
        <TextAreaField
          label="お問い合わせ内容"
          name="message"
          rows={8}
          error={errors.message}
          hint={`${constraints('message').maxLength} 文字まで`}
          {...constraints('message')}
        />
        {/* Hidden from people and screen readers; bots that fill every field fill this one. */}
        <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
          <label>
            ウェブサイト（入力しないでください）
            <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" />
          </label>
        </div>
        <SubmitButton
          pending={navigation.state === 'submitting'}
          pendingLabel="送信しています…"
          className="mt-2 self-start"
        >
          送信する
        </SubmitButton>
      </Form>
    </div>
  )
}
