import { z } from 'zod'
import { CognitoError, invalidParameter } from '#server/identity/cognito-error.ts'
import { CHALLENGES, isRetryable } from '#server/identity/user-pool/auth/challenges/index.ts'
import { AUTH_FLOWS } from '#server/identity/user-pool/auth/flows/index.ts'
import { respondWith } from '#server/identity/user-pool/auth/respond.ts'
import { refreshSignInSession } from '#server/identity/user-pool/auth/sign-in-session.ts'
import {
  consumeAuthSession,
  invalidSession,
  reopenAuthSession,
} from '#server/identity/user-pool/auth-sessions.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import {
  assertClient,
  clientId,
  deviceKey,
  ignored,
  parameterMap,
  session,
  token,
} from './schemas.ts'
import { operation } from './types.ts'

const initiateAuth = z.object({
  AuthFlow: z.string().regex(/^[A-Z_]{1,64}$/, 'must be an authentication flow'),
  ClientId: clientId,
  AuthParameters: parameterMap.optional(),
  ...ignored,
})

const respondToAuthChallenge = z.object({
  ChallengeName: z.string().regex(/^[A-Z_]{1,64}$/, 'must be a challenge name'),
  ClientId: clientId,
  Session: session.optional(),
  ChallengeResponses: parameterMap.optional(),
  ...ignored,
})

const getTokensFromRefreshToken = z.object({
  ClientId: clientId,
  RefreshToken: token,
  ClientSecret: z.string().max(128).optional(),
  DeviceKey: deviceKey.optional(),
  ...ignored,
})

/** Sign-in: InitiateAuth, RespondToAuthChallenge and the refresh of Amplify ≥ 6.15. */
export function authenticationOperations(ctx: UserPoolContext) {
  return {
    InitiateAuth: operation(initiateAuth, async (input, request) => {
      assertClient(ctx, input.ClientId)
      const flow = Object.hasOwn(AUTH_FLOWS, input.AuthFlow)
        ? AUTH_FLOWS[input.AuthFlow]
        : undefined
      if (!flow) throw invalidParameter(`${input.AuthFlow} flow not enabled for this client`)
      return respondWith(ctx, await flow(ctx, input.AuthParameters, input.ClientId), {
        clientId: input.ClientId,
        ip: request.ip,
      })
    }),

    RespondToAuthChallenge: operation(respondToAuthChallenge, async (input, request) => {
      assertClient(ctx, input.ClientId)
      const handler = Object.hasOwn(CHALLENGES, input.ChallengeName)
        ? CHALLENGES[input.ChallengeName]
        : undefined
      if (!handler) throw invalidParameter(`Invalid challenge name ${input.ChallengeName}`)
      if (!input.Session) throw invalidParameter('Missing required parameter Session')
      handler.precheck?.(input.ChallengeResponses)
      const stored = await consumeAuthSession<{ clientId: string; step: unknown }>(
        ctx,
        input.Session,
      )
      if (stored.challenge !== input.ChallengeName || stored.state.clientId !== input.ClientId) {
        throw invalidSession()
      }
      let outcome: Awaited<ReturnType<typeof handler.respond>>
      try {
        outcome = await handler.respond(ctx, {
          sub: stored.sub,
          state: stored.state.step,
          responses: input.ChallengeResponses,
        })
      } catch (error) {
        // A mistyped code: the same Session may try again, a few times.
        if (error instanceof CognitoError && isRetryable(error)) {
          await reopenAuthSession(ctx, input.Session, stored)
        }
        throw error
      }
      return respondWith(ctx, outcome, { clientId: input.ClientId, ip: request.ip })
    }),

    GetTokensFromRefreshToken: operation(getTokensFromRefreshToken, async (input) => {
      assertClient(ctx, input.ClientId)
      return {
        AuthenticationResult: await refreshSignInSession(
          ctx,
          input.RefreshToken,
          input.ClientId,
          input.DeviceKey,
        ),
      }
    }),
  }
}
