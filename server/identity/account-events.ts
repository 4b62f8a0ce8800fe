/**
 * What the user pool tells the rest of the product, and asks of it, without importing it:
 * the composition root (server/app.ts) connects these to the product's feature modules.
 */
export interface AccountEvents {
  /** May this username be registered? Returns a Japanese reason when it may not. */
  usernameRefusal(username: string): Promise<string | undefined>
  /** A user confirmed their account (or an admin created one): create their profile. */
  accountConfirmed(account: { sub: string; username: string; email: string | null }): Promise<void>
  /** A user deleted their account: remove what belongs to it. */
  accountDeleted(sub: string): Promise<void>
  /**
   * Sessions of the user ended (a sign-out, a global sign-out, a password reset): what holds
   * their tokens open beyond a request (realtime sockets) must check them again.
   */
  sessionsEnded(sub: string): void
}
