import { redirect } from 'react-router'
import type { CheckoutResult } from '#features/plans/checkout.server.ts'
import { query } from './query-string.ts'

/**
 * Where a checkout step goes next: paid (its receipt mailed) to `next` or /plans, already
 * subscribed to /plans, asked to authenticate to that charge's step. Throws those redirects;
 * answers the failure message, which each page shows its own way.
 */
export async function followCheckout(
  result: CheckoutResult,
  context: { mail: { deliverQueued(ids: string[]): Promise<unknown> } },
  next: string,
): Promise<{ failed: string; authenticate?: undefined } | { authenticate: string }> {
  switch (result.outcome) {
    case 'subscribed':
      await context.mail.deliverQueued(result.mailIds)
      throw redirect(next || `/plans${query({ subscribed: '1' })}`)
    case 'already-subscribed':
      throw redirect('/plans')
    case 'requires-authentication':
      return {
        authenticate: `/plans/checkout/${result.chargeId}/authenticate${query({ next: next || undefined })}`,
      }
    case 'failed':
      return { failed: result.message }
  }
}
