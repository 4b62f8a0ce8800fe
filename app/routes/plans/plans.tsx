import { Check } from 'lucide-react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { useConfirmedSubmit } from '#app/components/confirm-dialog.tsx'
import { FormMessage, SubmitButton } from '#app/components/forms.tsx'
import { planDate } from '#app/components/plans/plan-dates.ts'
import { safeRedirect } from '#app/lib/auth/flow.ts'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { planName } from '#features/plans/billing-mail.server.ts'
import { cardBrandLabel } from '#features/plans/card.ts'
import { openBillingPortal, startHostedCheckout } from '#features/plans/hosted-billing.server.ts'
import { currentPlan } from '#features/plans/plan.server.ts'
import { formatYen, PAID_PLAN_IDS, type PaidPlanId } from '#features/plans/plan-catalogue.ts'
import { changeSubscription } from '#features/plans/subscription-changes.server.ts'
import { findSubscription } from '#features/plans/subscription-records.server.ts'
import { SubscriptionTransitionError } from '#features/plans/subscription-state.ts'
import type { Route } from './+types/plans'

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '料金プラン',
    description:
      '無料プランとプレミアムプラン（月額・年額）の比較です。プレミアムでは、すべてのプレミアムコース・レッスン・演習を学べます。',
  })

export const headers: Route.HeadersFunction = ({ actionHeaders, loaderHeaders }) =>
  actionHeaders.has('Cache-Control') ? actionHeaders : loaderHeaders

export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const { billing } = context.plans
  const now = billing.now()
  const subscription = user ? await findSubscription(context.db, user.sub) : undefined
  const url = new URL(request.url)
  const next = safeRedirect(url.searchParams.get('next'), '')
  const returned = url.searchParams.get('checkout')
  return data(
    {
      signedIn: user !== undefined,
      // Stripe mode: subscribing on Stripe Checkout, card and cancellation on its portal.
      hosted: billing.gateway.kind === 'stripe',
      // One key per rendered form: a double click opens the same Checkout Session.
      checkoutKey: user && billing.gateway.kind === 'stripe' ? crypto.randomUUID() : null,
      returned: RETURNS.find((value) => value === returned) ?? null,
      plan: await currentPlan(context.db, user?.sub, now),
      prices: PAID_PLAN_IDS.map((id) => billing.prices[id]),
      subscription:
        subscription && subscription.status !== 'canceled'
          ? {
              status: subscription.status,
              planName: planName(subscription.planId),
              planId: subscription.planId,
              nextPlanName: subscription.nextPlanId && planName(subscription.nextPlanId),
              periodEnd: subscription.currentPeriodEnd,
              graceEnd:
                subscription.pastDueSince === null
                  ? null
                  : subscription.pastDueSince + 3 * 24 * 3600 * 1000,
              card: subscription.card,
              managedByGateway: subscription.gateway !== 'embedded',
            }
          : null,
      next,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

const CHANGE_NOTICES = {
  cancel: '解約を受け付けました。現在の期間の終わりまでプレミアムをご利用いただけます。',
  resume: '解約を取り消しました。プレミアムプランを引き続きご利用いただけます。',
  switch: 'プランの変更を受け付けました。次回の更新から新しいプランになります。',
  unswitch: 'プランの変更を取り消しました。次回も今のプランで更新されます。',
} as const

export async function action({ context, request }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const form = await request.formData()
  const intent = String(form.get('intent') ?? '')
  const noStore = { 'Cache-Control': 'private, no-store' }
  const planId = String(form.get('planId') ?? '') as PaidPlanId
  if (intent === 'checkout' || intent === 'portal') {
    return hostedAction(context, { user, intent, planId, form, noStore })
  }
  const change =
    intent === 'cancel' || intent === 'resume'
      ? ({ action: intent } as const)
      : intent === 'switch' && PAID_PLAN_IDS.includes(planId)
        ? ({ action: 'switch', planId } as const)
        : undefined
  if (!change) return data({ error: '操作を選んでください。' }, { status: 400, headers: noStore })
  let after: Awaited<ReturnType<typeof changeSubscription>>
  try {
    after = await changeSubscription(context.plans.billing, user.sub, change)
  } catch (error) {
    if (!(error instanceof SubscriptionTransitionError)) throw error
    return data({ error: error.message }, { status: 409, headers: noStore })
  }
  // Switching to the plan one is on takes back a switch that was scheduled.
  const notice =
    change.action === 'switch' && after.nextPlanId === null ? 'unswitch' : change.action
  return data({ notice: CHANGE_NOTICES[notice] }, { headers: noStore })
}

const CHECKOUT_KEY = /^[0-9a-f-]{36}$/

/** Stripe mode: to Stripe Checkout to subscribe, or to its portal for the card and cancellation. */
async function hostedAction(
  context: Route.ActionArgs['context'],
  input: {
    user: { sub: string; email: string | undefined }
    intent: 'checkout' | 'portal'
    planId: PaidPlanId
    form: FormData
    noStore: Record<string, string>
  },
) {
  const { user, intent, planId, form, noStore } = input
  const { billing } = context.plans
  if (billing.gateway.kind !== 'stripe') {
    return data({ error: '操作を選んでください。' }, { status: 400, headers: noStore })
  }
  const plansUrl = `${context.settings.baseUrl}/plans`
  if (intent === 'portal') {
    const portal = await openBillingPortal(billing, user.sub, plansUrl)
    if (!portal) {
      return data({ error: 'ご契約中のプランがありません。' }, { status: 409, headers: noStore })
    }
    // 303: the browser follows with a GET to Stripe's page.
    throw redirect(portal.url, { status: 303, headers: noStore })
  }
  const key = String(form.get('checkoutKey') ?? '')
  if (!PAID_PLAN_IDS.includes(planId) || !CHECKOUT_KEY.test(key)) {
    return data({ error: 'ページを読み込み直してください。' }, { status: 400, headers: noStore })
  }
  const result = await startHostedCheckout(billing, {
    userId: user.sub,
    email: user.email,
    planId,
    idempotencyKey: key,
    plansUrl,
  })
  if (result.outcome === 'already-subscribed') throw redirect('/plans', { headers: noStore })
  throw redirect(result.url, { status: 303, headers: noStore })
}

const RETURNS = ['success', 'canceled'] as const

const RETURN_NOTICES = {
  success:
    'お申し込みありがとうございます。お支払いが確認でき次第、プレミアムプランが有効になります。',
  canceled: 'お申し込みは完了していません。いつでもお申し込みいただけます。',
} as const

const FREE_FEATURES = [
  '無料のコースとレッスン',
  '無料の演習（JavaScript・Python のコード問題を含む）',
  'ラボ・ストーリー・スタディの投稿',
  '学習履歴とフォロー',
]
const PREMIUM_FEATURES = [
  '無料プランのすべて',
  'すべてのプレミアムコースとレッスン',
  'プレミアム演習',
  'いつでも解約でき、期間の終わりまで利用可能',
]

export default function Plans({ loaderData, actionData }: Route.ComponentProps) {
  const { signedIn, plan, prices, subscription, next, hosted, checkoutKey, returned } = loaderData
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const result = actionData as { notice?: string; error?: string } | undefined
  const checkoutLink = (planId: PaidPlanId) =>
    `/plans/checkout${query({ plan: planId, next: next || undefined })}`
  return (
    <div className="mx-auto max-w-4xl">
      <h1 className="text-2xl font-bold">料金プラン</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        まずは無料プランで始めて、もっと学びたくなったらプレミアムへ。表示価格はすべて消費税込みです。
      </p>
      {returned && !result && (
        <div className="mt-4">
          <FormMessage tone={returned === 'success' ? 'success' : 'info'}>
            {RETURN_NOTICES[returned]}
          </FormMessage>
        </div>
      )}
      {result?.notice && (
        <div className="mt-4">
          <FormMessage tone="success">{result.notice}</FormMessage>
        </div>
      )}
      {result?.error && (
        <div className="mt-4">
          <FormMessage tone="error">{result.error}</FormMessage>
        </div>
      )}
      <div className="mt-8 grid gap-6 md:grid-cols-2">
        <section
          aria-labelledby="plan-free"
          className="flex flex-col rounded-xl border border-slate-200 p-6 dark:border-slate-800"
        >
          <h2 id="plan-free" className="text-lg font-bold">
            無料プラン
          </h2>
          <p className="mt-2 text-3xl font-bold">0円</p>
          <FeatureList items={FREE_FEATURES} />
          <p className="mt-auto pt-6 text-sm font-semibold text-slate-600 dark:text-slate-400">
            {!signedIn ? (
              <Link to="/auth/signup" className="text-brand-700 underline dark:text-brand-100">
                無料で始める
              </Link>
            ) : plan === 'free' ? (
              '現在のプラン'
            ) : (
              'プレミアム終了後はこのプランになります'
            )}
          </p>
        </section>
        <section
          aria-labelledby="plan-premium"
          className="flex flex-col rounded-xl border-2 border-brand-600 p-6"
        >
          <h2 id="plan-premium" className="text-lg font-bold">
            プレミアムプラン
          </h2>
          <dl className="mt-2 flex flex-col gap-2">
            {prices.map((price) => (
              <div key={price.id}>
                <dt className="text-sm text-slate-600 dark:text-slate-400">
                  {price.interval === 'year' ? '年額' : '月額'}
                </dt>
                <dd>
                  <span className="text-3xl font-bold">{formatYen(price.totalYen)}</span>
                  <span className="ml-1 text-sm">（税込）</span>
                  <span className="block text-xs text-slate-600 dark:text-slate-400">
                    税抜 {formatYen(price.priceYen)}・消費税 {formatYen(price.taxYen)}
                  </span>
                </dd>
              </div>
            ))}
          </dl>
          <FeatureList items={PREMIUM_FEATURES} />
          <div className="mt-auto pt-6">
            {subscription ? (
              <CurrentSubscription subscription={subscription} pending={pending} />
            ) : hosted && checkoutKey ? (
              <div className="flex flex-wrap gap-3">
                {prices.map((price) => (
                  <Form method="post" key={price.id} reloadDocument>
                    <input type="hidden" name="intent" value="checkout" />
                    <input type="hidden" name="planId" value={price.id} />
                    <input type="hidden" name="checkoutKey" value={checkoutKey} />
                    {/* Stripe's page is another site: the whole document goes there. */}
                    <SubmitButton pending={pending} pendingLabel="お支払いページへ移動しています…">
                      {price.interval === 'year' ? '年額で申し込む' : '月額で申し込む'}
                    </SubmitButton>
                  </Form>
                ))}
              </div>
            ) : (
              <div className="flex flex-wrap gap-3">
                {prices.map((price) => (
                  <Link
                    key={price.id}
                    to={
                      signedIn
                        ? checkoutLink(price.id)
                        : `/auth/signin${query({ redirectTo: checkoutLink(price.id) })}`
                    }
                    className="rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
                  >
                    {price.interval === 'year' ? '年額で申し込む' : '月額で申し込む'}
                  </Link>
                ))}
              </div>
            )}
          </div>
        </section>
      </div>
      <p className="mt-6 text-xs leading-relaxed text-slate-600 dark:text-slate-400">
        お支払いはクレジットカードで、期間の初めにお支払いいただきます。解約すると、お支払い済みの期間の終わりまでプレミアムをご利用いただけ、その後は自動で無料プランになります。お支払いの履歴は
        <Link to="/settings#billing" className="underline">
          設定
        </Link>
        でご覧いただけます。
      </p>
    </div>
  )
}

function FeatureList({ items }: { items: string[] }) {
  return (
    <ul className="mt-4 flex flex-col gap-2 text-sm">
      {items.map((item) => (
        <li key={item} className="flex items-start gap-2">
          <Check aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-brand-600" />
          {item}
        </li>
      ))}
    </ul>
  )
}

type CurrentSubscriptionData = NonNullable<Route.ComponentProps['loaderData']['subscription']>

function CurrentSubscription(props: { subscription: CurrentSubscriptionData; pending: boolean }) {
  const { subscription, pending } = props
  return (
    <div className="flex flex-col gap-3 text-sm">
      <p className="font-semibold">現在のプラン: {subscription.planName}</p>
      {subscription.status === 'active' && <p>次回の更新日: {planDate(subscription.periodEnd)}</p>}
      {subscription.status === 'cancel_at_period_end' && (
        <p>解約済みです。{planDate(subscription.periodEnd)} までプレミアムをご利用いただけます。</p>
      )}
      {subscription.status === 'past_due' && subscription.graceEnd !== null && (
        <FormMessage tone="error">
          更新のお支払いができませんでした。{planDate(subscription.graceEnd)}{' '}
          までにお支払いが確認できない場合、無料プランになります。
        </FormMessage>
      )}
      {subscription.nextPlanName && <p>次回の更新から: {subscription.nextPlanName}</p>}
      {subscription.card && (
        <p>
          お支払い方法: {cardBrandLabel(subscription.card.brand)} 末尾 {subscription.card.last4}
        </p>
      )}
      {subscription.managedByGateway ? (
        <Form method="post" reloadDocument>
          <input type="hidden" name="intent" value="portal" />
          <SubmitButton pending={pending} pendingLabel="移動しています…" variant="secondary">
            お支払い方法の変更・解約
          </SubmitButton>
        </Form>
      ) : (
        <InAppChanges subscription={subscription} pending={pending} />
      )}
    </div>
  )
}

/** The embedded gateway's changes, made here (Stripe's are made on its portal). */
function InAppChanges(props: { subscription: CurrentSubscriptionData; pending: boolean }) {
  const { subscription, pending } = props
  const otherPlan: PaidPlanId =
    subscription.planId === 'premium-monthly' ? 'premium-yearly' : 'premium-monthly'
  const [ask, confirmDialog] = useConfirmedSubmit()
  return (
    <div className="flex flex-wrap gap-3">
      {confirmDialog}
      {subscription.status === 'active' && (
        <>
          {/* Once a switch is scheduled, the same place takes it back. */}
          <Form method="post">
            <input type="hidden" name="intent" value="switch" />
            {subscription.nextPlanName ? (
              <>
                <input type="hidden" name="planId" value={subscription.planId} />
                <SubmitButton
                  pending={pending}
                  pendingLabel="取り消しています…"
                  variant="secondary"
                >
                  プランの変更を取り消す
                </SubmitButton>
              </>
            ) : (
              <>
                <input type="hidden" name="planId" value={otherPlan} />
                <SubmitButton pending={pending} pendingLabel="変更しています…" variant="secondary">
                  {otherPlan === 'premium-yearly' ? '年額プランに変更' : '月額プランに変更'}
                </SubmitButton>
              </>
            )}
          </Form>
          <Form method="post">
            <input type="hidden" name="intent" value="cancel" />
            <SubmitButton
              pending={pending}
              pendingLabel="解約しています…"
              variant="secondary"
              onClick={ask({
                title: 'プレミアムプランを解約しますか？',
                body: `${planDate(subscription.periodEnd)} まではプレミアムをご利用いただけます。その後は無料プランになります。期間中なら解約を取り消せます。`,
                confirmLabel: '解約する',
              })}
            >
              解約する
            </SubmitButton>
          </Form>
        </>
      )}
      {subscription.status === 'cancel_at_period_end' && (
        <Form method="post">
          <input type="hidden" name="intent" value="resume" />
          <SubmitButton pending={pending} pendingLabel="再開しています…">
            解約を取り消す
          </SubmitButton>
        </Form>
      )}
    </div>
  )
}
