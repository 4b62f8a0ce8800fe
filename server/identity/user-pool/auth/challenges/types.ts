import type { AuthOutcome } from '#server/identity/user-pool/auth/outcome.ts'
import type { UserPoolContext } from '#server/identity/user-pool/context.ts'

/** One step of RespondToAuthChallenge, by ChallengeName. */
export type ChallengeHandler = {
  /**
   * Checks the responses before the Session is spent, so that a mistake in the user's input
   * (a password the policy refuses) can be corrected without starting over.
   */
  precheck?(responses: Record<string, string> | undefined): void
  respond(
    ctx: UserPoolContext,
    step: {
      /** The account the session belongs to (null when the sign-in name matched none). */
      sub: string | null
      state: unknown
      responses: Record<string, string> | undefined
    },
  ): Promise<AuthOutcome>
}
