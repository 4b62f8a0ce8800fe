import { ShieldCheck } from 'lucide-react'
import { data, Form, redirect, useNavigation } from 'react-router'
import { FormMessage, SubmitButton } from '#app/components/forms.tsx'
import { safeRedirect } from '#app/lib/auth/flow.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { query } from '#app/lib/query-string.ts'
import { completeAuthentication } from '#features/plans/subscriptions.server.ts'
import type { Route } from './+types/authenticate'

// The confirmation step a card's issuer asks for (3-D Secure), as the embedded test gateway
// plays it: the cardholder confirms or refuses here, as they would on their bank's page.

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'カードの本人認証',
    description: 'カード発行会社による本人認証です。',
  })

export function headers() {
  return { 'Cache-Control': 'private, no-store' }
}

export async function loader({ context, request }: Route.LoaderArgs) {
  await context.auth.requireUser(request)
  return null
}

export async function action({ context, request, params }: Route.ActionArgs) {
  const user = await context.auth.requireUser(request)
  const form = await request.formData()
  const result = await completeAuthentication(context.plans.billing, {
    userId: user.sub,
    chargeId: params.chargeId,
    passed: form.get('answer') === 'pass',
  })
  const next = safeRedirect(new URL(request.url).searchParams.get('next'), '')
  if (result.outcome === 'subscribed') {
    await context.mail.deliverQueued(result.mailIds)
    throw redirect(next || `/plans${query({ subscribed: '1' })}`)
  }
  if (result.outcome === 'already-subscribed') throw redirect('/plans')
  if (result.outcome === 'requires-authentication') return null
  return data({ error: result.message }, { status: 402 })
}

export default function Authenticate({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation()
  const pending = navigation.state === 'submitting'
  const error = (actionData as { error?: string } | null | undefined)?.error
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
      <Form method="post" className="mt-6 flex flex-wrap gap-3">
        <SubmitButton pending={pending} name="answer" value="pass" pendingLabel="確認しています…">
          認証する
        </SubmitButton>
        <SubmitButton pending={pending} name="answer" value="fail" variant="secondary">
          認証に失敗させる
        </SubmitButton>
      </Form>
    </div>
  )
}
