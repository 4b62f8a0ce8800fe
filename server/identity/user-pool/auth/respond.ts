import { openAuthSession } from '#server/identity/user-pool/auth-sessions.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'
import type { AuthOutcome, AuthResponse } from './outcome.ts'
import { startSignInSession } from './sign-in-session.ts'

/** Who is signing in from where: the app client and the caller's address. */
export type SignInClient = { clientId: string; ip: string | null }

/** Turns the outcome of a step into the answer: a challenge under a new Session, or tokens. */
export async function respondWith(
  ctx: UserPoolContext,
  outcome: AuthOutcome,
  client: SignInClient,
): Promise<AuthResponse> {
  switch (outcome.kind) {
    case 'challenge': {
      const Session = await openAuthSession(ctx, {
        sub: outcome.sub,
        challenge: outcome.name,
        state: { clientId: client.clientId, step: outcome.state },
      })
      return {
        ChallengeName: outcome.name,
        Session,
        ChallengeParameters: outcome.parameters,
      }
    }
    case 'signed-in':
      return {
        ChallengeParameters: {},
        AuthenticationResult: await startSignInSession(ctx, outcome.user, {
          ...client,
          deviceKey: outcome.deviceKey,
        }),
      }
    case 'tokens':
      return { ChallengeParameters: {}, AuthenticationResult: outcome.result }
  }
}
