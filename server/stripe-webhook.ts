import type { FastifyInstance } from 'fastify'
import { applyGatewayEvent, gatewayEventSeen } from '#features/plans/hosted-billing.server.ts'
import type { Billing } from '#features/plans/subscription-records.server.ts'
import { ApiError } from './api/api-error.ts'
import type { QueuedMailDelivery } from './mail/mailer.ts'
import { type HostedGateway, WebhookSignatureError } from './payments/gateway.ts'

export const STRIPE_WEBHOOK_PATH = '/api/payments/stripe/webhook'

/**
 * Stripe's webhook endpoint (docs/decisions/040). The signature covers the
 * exact bytes Stripe sent, so the body is kept raw here (its own plugin, its own parser). A
 * delivery whose signature does not match changes nothing and is answered 400; a replay (an
 * event id already stored) is answered 200 and changes nothing. Not part of the product API's
 * contract (openapi.json): it is Stripe's, and only Stripe calls it.
 */
export function registerStripeWebhook(
  app: FastifyInstance,
  options: { billing: Billing; gateway: HostedGateway; mail: QueuedMailDelivery },
): void {
  const { billing, gateway, mail } = options
  app.register(async (scope) => {
    // Every body as the bytes that came, JSON included: the signature is over those bytes.
    scope.removeAllContentTypeParsers()
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
      done(null, body)
    })
    scope.setErrorHandler((error, request, reply) => {
      const known = ApiError.from(error)
      if (known) return reply.code(known.status).send(known.toJSON())
      // Stripe delivers again later: the event was not recorded (its transaction rolled back).
      request.log.error({ err: error }, 'stripe webhook failed')
      const internal = new ApiError('INTERNAL', 'イベントを処理できませんでした')
      return reply.code(500).send(internal.toJSON())
    })
    scope.post(STRIPE_WEBHOOK_PATH, { bodyLimit: 1024 * 1024 }, async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0)
      const signature = request.headers['stripe-signature']
      let event: Awaited<ReturnType<HostedGateway['webhookEvent']>>
      try {
        // Verified before anything else is read; a replay is not fetched again from Stripe.
        event = await gateway.webhookEvent(
          body,
          typeof signature === 'string' ? signature : undefined,
          {
            alreadySeen: (id) => gatewayEventSeen(billing.db, id),
          },
        )
      } catch (error) {
        if (!(error instanceof WebhookSignatureError)) throw error
        request.log.warn('stripe webhook refused: the signature does not match')
        throw new ApiError('BAD_SIGNATURE')
      }
      const result = await applyGatewayEvent(billing.db, event, billing.now())
      request.log.info(
        { event: event.id, type: event.type, outcome: result.outcome },
        'stripe webhook',
      )
      // The receipt is in the outbox already: a failed send is retried from there, not by Stripe.
      if (result.mailIds.length > 0) {
        await mail.deliverQueued(result.mailIds).catch((error: unknown) => {
          request.log.error({ err: error }, 'stripe webhook: receipt mail not sent yet')
        })
      }
      return { received: true, outcome: result.outcome }
    })
  })
}
