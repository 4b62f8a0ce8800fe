import { openAuthSession } from '../auth-sessions.ts'
import type { UserPoolContext } from '../context.ts'
import type { AuthOutcome, AuthResponse } from './outcome.ts'
import { startSignInSession } from './sign-in-session.ts'

/** Turns the outcome of a step into the answer: a challenge under a new Session, or tokens. */
export async function respondWith(
  ctx: UserPoolContext,
  outcome: AuthOutcome,
  clientId: string,
): Promise<AuthResponse> {
  switch (outcome.kind) {
    case 'challenge': {
      const Session = await openAuthSession(ctx, {
        sub: outcome.sub,
        challenge: outcome.name,
        state: { clientId, step: outcome.state },
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
        AuthenticationResult: await startSignInSession(ctx, outcome.user, clientId),
      }
    case 'tokens':
      return { ChallengeParameters: {}, AuthenticationResult: outcome.result }
  }
}
