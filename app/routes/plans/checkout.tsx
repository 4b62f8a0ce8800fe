import { CreditCard } from 'lucide-react'
import { useRef } from 'react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { FormMessage, SubmitButton, TextField, useFocusOnErrors } from '#app/components/forms.tsx'
import { safeRedirect } from '#app/lib/auth/flow.ts'
import { followCheckout } from '#app/lib/checkout-outcome.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { planName } from '#features/plans/billing-mail.server.ts'
import { cardFields } from '#features/plans/card.ts'
import { checkout } from '#features/plans/checkout.server.ts'
import { formatYen, PAID_PLAN_IDS, type PaidPlanId } from '#features/plans/plan-catalogue.ts'
import { findSubscription } from '#features/plans/subscription-records.server.ts'
import { maySubscribe } from '#features/plans/subscription-state.ts'
import type { Route } from './+types/checkout'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'プレミアムプランのお申し込み',
    description: 'クレジットカードでプレミアムプランに申し込みます。',
  })

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

function planOf(url: URL): PaidPlanId {
  const plan = url.searchParams.get('plan')
  return PAID_PLAN_IDS.find((id) => id === plan) ?? 'premium-monthly'
}

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.requireUser(request)
  const url = new URL(request.url)
  const { billing } = context.plans
  const subscription = await findSubscription(context.db, user.sub)
  // Stripe mode takes the card on Stripe Checkout, started from /plans.
  if (billing.gateway.kind !== 'embedded' || !maySubscribe(subscription, billing.now())) {
    throw redirect('/plans')
  }
  const planId = planOf(url)
  return {
    planId,
    planName: planName(planId),
    price: billing.prices[planId],
    // One key per rendered form: submitting it twice (a double click, a retry) charges once.
    idempotencyKey: crypto.randomUUID(),
    next: safeRedirect(url.searchParams.get('next'), ''),
    testCards: billing.gateway.kind === 'embedded',
  }
}

export async function action({ context, request }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const url = new URL(request.url)
  const form = Object.fromEntries(await request.formData())
  const noStore = { 'Cache-Control': 'private, no-store' }
  const { billing } = context.plans
  const card = cardFields(billing.now()).safeParse(form)
  if (!card.success) {
    const errors: Record<string, string> = {}
    for (const issue of card.error.issues) errors[String(issue.path[0])] ??= issue.message
    return data({ errors }, { status: 400, headers: noStore })
  }
  const idempotencyKey = String(form.idempotencyKey ?? '')
  if (!/^[0-9a-f-]{36}$/.test(idempotencyKey)) {
    return data(
      { formError: 'ページを読み込み直してください。' },
      { status: 400, headers: noStore },
    )
  }
  const next = safeRedirect(url.searchParams.get('next'), '')
  const result = await checkout(billing, {
    userId: user.sub,
    planId: planOf(url),
    card: card.data,
    idempotencyKey,
  })
  const step = await followCheckout(result, context, next)
  if (step.authenticate !== undefined) throw redirect(step.authenticate)
  // A new key for the next try (another card): this one stays bound to the refused charge.
  return data(
    { formError: step.failed, idempotencyKey: crypto.randomUUID() },
    { status: 402, headers: noStore },
  )
}

export default function Checkout({ loaderData, actionData }: Route.ComponentProps) {
  const { planName, price, idempotencyKey, testCards, next } = loaderData
  const navigation = useNavigation()
  const formRef = useRef<HTMLFormElement>(null)
  const messageRef = useRef<HTMLDivElement>(null)
  const result = actionData as
    | { errors?: Record<string, string>; formError?: string; idempotencyKey?: string }
    | undefined
  useFocusOnErrors(result, formRef, messageRef)
  const errors = result?.errors ?? {}
  const year = new Date().getFullYear()
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="text-2xl font-bold">プレミアムプランのお申し込み</h1>
      <div className="mt-4 rounded-xl border border-slate-200 p-4 text-sm dark:border-slate-800">
        <p className="font-semibold">{planName}</p>
        <p className="mt-1">
          <span className="text-2xl font-bold">{formatYen(price.totalYen)}</span>（税込・
          {price.interval === 'year' ? '1 年ごと' : '1 か月ごと'}）
          <span className="ml-2 text-slate-600 dark:text-slate-400">
            うち消費税 {formatYen(price.taxYen)}
          </span>
        </p>
      </div>
      {testCards && (
        <div className="mt-4">
          <FormMessage tone="info">
            テスト環境です。実際の請求は発生しません。カード番号に 4242 4242 4242 4242
            などのテストカードをお使いください（有効期限は未来の日付、セキュリティコードは任意の 3
            桁）。
          </FormMessage>
        </div>
      )}
      <Form method="post" noValidate ref={formRef} className="mt-6 flex flex-col gap-3">
        {result?.formError && (
          <FormMessage tone="error" focusRef={messageRef}>
            {result.formError}
          </FormMessage>
        )}
        <input
          type="hidden"
          name="idempotencyKey"
          value={result?.idempotencyKey ?? idempotencyKey}
        />
        <TextField
          label="カード番号"
          name="number"
          inputMode="numeric"
          autoComplete="cc-number"
          placeholder="1234 5678 9012 3456"
          maxLength={23}
          required
          error={errors.number}
        />
        <div className="grid grid-cols-3 gap-3">
          <TextField
            label="有効期限（月）"
            name="expMonth"
            inputMode="numeric"
            autoComplete="cc-exp-month"
            placeholder="12"
            maxLength={2}
            required
            error={errors.expMonth}
          />
          <TextField
            label="有効期限（年）"
            name="expYear"
            inputMode="numeric"
            autoComplete="cc-exp-year"
            placeholder={String(year + 3)}
            maxLength={4}
            required
            error={errors.expYear}
          />
          <TextField
            label="セキュリティコード"
            name="cvc"
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            maxLength={4}
            required
            error={errors.cvc}
          />
        </div>
        <TextField
          label="カード名義"
          name="name"
          autoComplete="cc-name"
          placeholder="TARO YAMADA"
          maxLength={100}
          required
          error={errors.name}
        />
        <SubmitButton
          pending={navigation.state === 'submitting'}
          pendingLabel="お支払いを処理しています…"
          className="mt-2"
        >
          <CreditCard aria-hidden="true" className="mr-2 inline size-4" />
          {formatYen(price.totalYen)}を支払って申し込む
        </SubmitButton>
        <p className="text-xs leading-relaxed text-slate-600 dark:text-slate-400">
          カード番号は保存されません（カードの種類と末尾 4
          桁、有効期限のみ記録します）。期間の終わりに自動で更新され、
          <Link to={`/plans${query({ next: next || undefined })}`} className="underline">
            料金プラン
          </Link>
          からいつでも解約できます。
        </p>
      </Form>
    </div>
  )
}
