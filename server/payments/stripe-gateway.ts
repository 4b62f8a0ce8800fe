import Stripe from 'stripe'
import {
  type GatewayPlanId,
  type HostedGateway,
  type HostedInvoice,
  type HostedSubscription,
  WebhookSignatureError,
} from './gateway.ts'

/**
 * The Stripe gateway (docs/decisions/040): subscribing through Stripe Checkout
 * Sessions, card changes and cancellation through the Customer Portal, and webhook events
 * verified with the official package and translated into the gateway-neutral facts of
 * gateway.ts, which the plans feature applies to our own subscription state. Stripe renews by
 * itself; we never see a card number.
 */

export type StripeSettings = {
  secretKey: string
  webhookSecret: string
  prices: Record<GatewayPlanId, string>
  /** Where the API is (tests point it at a local stand-in); Stripe's own by default. */
  api?: { host: string; port: number; protocol: 'http' | 'https' } | undefined
}

export function createStripeGateway(settings: StripeSettings): HostedGateway {
  // Long by design: a factory whose returned methods share its private state; each method is short.
  const stripe = new Stripe(settings.secretKey, {
    ...settings.api,
    // A webhook must answer quickly; a slow API call fails and Stripe redelivers the event.
    timeout: 20_000,
    maxNetworkRetries: 2,
    appInfo: { name: 'techlab' },
  })
  const planOf = (priceId: string | undefined): GatewayPlanId | null => {
    if (priceId === settings.prices['premium-monthly']) return 'premium-monthly'
    if (priceId === settings.prices['premium-yearly']) return 'premium-yearly'
    return null
  }

  const subscriptionOf = (
    object: Stripe.Subscription,
    userId: string | null = null,
  ): HostedSubscription => {
    const item = object.items.data[0]
    const method = object.default_payment_method
    const card = typeof method === 'object' && method?.card ? method.card : null
    return {
      id: object.id,
      customer: idOf(object.customer),
      userId: object.metadata?.user_id ?? userId,
      status: statusOf(object.status),
      // The portal cancels "at the period's end" either way, depending on its settings.
      cancelAtPeriodEnd:
        object.cancel_at_period_end ||
        (object.cancel_at !== null &&
          item !== undefined &&
          object.cancel_at <= item.current_period_end),
      planId: planOf(item?.price.id),
      periodStart: (item?.current_period_start ?? object.start_date) * 1000,
      periodEnd: (item?.current_period_end ?? object.start_date) * 1000,
      card: card && {
        brand: card.brand,
        last4: card.last4,
        expMonth: card.exp_month,
        expYear: card.exp_year,
      },
    }
  }

  const invoiceOf = (object: Stripe.Invoice): HostedInvoice | undefined => {
    const details = object.parent?.subscription_details
    if (!details) return undefined
    const line = object.lines.data[0]
    const price = line?.pricing?.price_details?.price
    return {
      id: object.id ?? '',
      subscriptionId: idOf(details.subscription),
      customer: object.customer ? idOf(object.customer) : '',
      userId: details.metadata?.user_id ?? null,
      kind: object.billing_reason === 'subscription_create' ? 'subscribe' : 'renewal',
      planId: planOf(price === undefined ? undefined : idOf(price)),
      // JPY has no minor unit: Stripe's amounts are whole yen.
      amountYen: object.amount_paid > 0 ? object.amount_paid : object.amount_due,
      taxYen: (object.total_taxes ?? []).reduce((sum, tax) => sum + tax.amount, 0),
      periodStart: (line?.period.start ?? object.period_start) * 1000,
      periodEnd: (line?.period.end ?? object.period_end) * 1000,
    }
  }

  return {
    kind: 'stripe',

    async checkoutSession(request) {
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'subscription',
          line_items: [{ price: settings.prices[request.planId], quantity: 1 }],
          client_reference_id: request.userId,
          ...(request.customer
            ? { customer: request.customer }
            : request.email
              ? { customer_email: request.email }
              : {}),
          // Every later event about the subscription then names our user.
          subscription_data: { metadata: { user_id: request.userId } },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
          locale: 'ja',
        },
        { idempotencyKey: request.idempotencyKey },
      )
      if (!session.url) throw new Error('Stripe returned a Checkout Session without a URL')
      return { url: session.url }
    },

    async portalSession(request) {
      const session = await stripe.billingPortal.sessions.create({
        customer: request.customer,
        return_url: request.returnUrl,
        locale: 'ja',
      })
      return { url: session.url }
    },

    async webhookEvent(rawBody, signature, options) {
      let event: Stripe.Event
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature ?? '', settings.webhookSecret)
      } catch (error) {
        throw new WebhookSignatureError(
          error instanceof Error ? error.message : 'bad webhook signature',
        )
      }
      const base = { id: event.id, type: event.type, createdAt: event.created * 1000 }
      // A replay is answered from our own record, without asking Stripe anything.
      if (await options?.alreadySeen?.(event.id)) return { ...base, kind: 'ignored' }
      switch (event.type) {
        case 'checkout.session.completed': {
          const session = event.data.object
          if (session.mode !== 'subscription' || !session.subscription) {
            return { ...base, kind: 'ignored' }
          }
          // The session names the subscription only: fetch it, with its card for /plans.
          const subscription = await stripe.subscriptions.retrieve(idOf(session.subscription), {
            expand: ['default_payment_method'],
          })
          return {
            ...base,
            kind: 'subscription',
            subscription: subscriptionOf(subscription, session.client_reference_id),
          }
        }
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          return { ...base, kind: 'subscription', subscription: subscriptionOf(event.data.object) }
        case 'invoice.paid':
        case 'invoice.payment_failed': {
          const invoice = invoiceOf(event.data.object)
          if (!invoice) return { ...base, kind: 'ignored' }
          return {
            ...base,
            kind: event.type === 'invoice.paid' ? 'invoice-paid' : 'invoice-failed',
            invoice,
          }
        }
        default:
          return { ...base, kind: 'ignored' }
      }
    },
  }
}

function idOf(reference: string | { id?: string | undefined }): string {
  return typeof reference === 'string' ? reference : (reference.id ?? '')
}

/** Stripe's subscription statuses, reduced to what our state machine knows. */
function statusOf(status: Stripe.Subscription.Status): HostedSubscription['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active'
    case 'past_due':
      return 'past_due'
    case 'incomplete':
      return 'incomplete'
    // canceled, incomplete_expired, unpaid (retries exhausted), paused: no premium.
    default:
      return 'canceled'
  }
}
