import { ShieldCheck } from 'lucide-react'
import { data, Form, Link, redirect, useNavigation } from 'react-router'
import { FormMessage, SubmitButton } from '#app/components/forms.tsx'
import { safeRedirect } from '#app/lib/auth/flow.ts'
import { followCheckout } from '#app/lib/checkout-outcome.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import {
  authenticationStep,
  type CheckoutResult,
  completeAuthentication,
  retryAuthentication,
} from '#features/plans/checkout.server.ts'
import type { Route } from './+types/authenticate'

// The confirmation step a card's issuer asks for (3-D Secure), as the embedded test gateway
// plays it: the cardholder confirms or refuses here, as they would on their bank's page. A failed
// confirmation leaves the payment open, as Stripe's does: authenticate again or use another card.

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'カードの本人認証',
    description: 'カード発行会社による本人認証です。',
  })

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

function nextOf(request: Request): string {
  return safeRedirect(new URL(request.url).searchParams.get('next'), '')
}

export async function loader({ context, request, params }: Route.LoaderArgs) {
  const user = await context.auth.requireUser(request)
  const step = await authenticationStep(context.db, { userId: user.sub, chargeId: params.chargeId })
  if (!step || step.state === 'done') throw redirect('/plans')
  const next = nextOf(request)
  return {
    step,
    // Another card starts the checkout of the same plan again.
    otherCard: `/plans/checkout${query({ plan: step.planId, next: next || undefined })}`,
  }
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const form = await request.formData()
  const { billing } = context.plans
  const input = { userId: user.sub, chargeId: params.chargeId }
  const result: CheckoutResult =
    form.get('answer') === 'again'
      ? await retryAuthentication(billing, input)
      : await completeAuthentication(billing, { ...input, passed: form.get('answer') === 'pass' })
  const step = await followCheckout(result, context, nextOf(request))
  if (step.authenticate !== undefined) {
    // The same step still waits (a repeated answer): stay; a new attempt has its own step.
    if (step.authenticate.startsWith(`/plans/checkout/${params.chargeId}/`)) return null
    throw redirect(step.authenticate)
  }
  // The page itself says where the payment stands now and offers the next steps.
  const url = new URL(request.url)
  if (form.get('answer') !== 'again') throw redirect(url.pathname + url.search)
  return data({ error: step.failed }, { status: 402 })
}

export default function Authenticate({ loaderData, actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const { step, otherCard } = loaderData
  const error =
    (actionData as { error?: string } | null | undefined)?.error ??
    (step.state === 'failed' ? step.message : undefined)
  return (
    <div className="mx-auto max-w-lg">
      <h1 className="flex items-center gap-2 text-2xl font-bold">
        <ShieldCheck aria-hidden="true" className="size-6" />
        カードの本人認証
      </h1>
      <p className="mt-3 text-sm leading-relaxed">
        このカードでのお支払いには、カード発行会社による本人認証（3D
        セキュア）が必要です。テスト環境のため、ここで認証の結果を選べます。
      </p>
      {error && (
        <div className="mt-4">
          <FormMessage tone="error">{error}</FormMessage>
        </div>
      )}
      {step.state === 'waiting' ? (
        <Form method="post" className="mt-6 flex flex-wrap gap-3">
          <SubmitButton pending={pending} name="answer" value="pass" pendingLabel="確認しています…">
            認証する
          </SubmitButton>
          <SubmitButton pending={pending} name="answer" value="fail" variant="secondary">
            認証に失敗させる
          </SubmitButton>
        </Form>
      ) : (
        <Form method="post" className="mt-6 flex flex-wrap items-center gap-3">
          <SubmitButton
            pending={pending}
            name="answer"
            value="again"
            pendingLabel="準備しています…"
          >
            もう一度認証する
          </SubmitButton>
          <Link
            to={otherCard}
            className="rounded-lg px-3 py-2 text-sm font-medium underline underline-offset-2"
          >
            別のカードを使う
          </Link>
        </Form>
      )}
    </div>
  )
}
