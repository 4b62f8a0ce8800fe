import type { Kysely } from 'kysely'
import type { DB } from '#db/schema.ts'
import type { ContactLimits } from '#features/contact/contact.server.ts'
import type { ExerciseServices } from '#features/exercises/answers.server.ts'
import type { ImageStorage } from '#features/images/uploaded-image.server.ts'
import type { MarkdownRenderer } from '#features/markdown/stored-html.server.ts'
import type { Billing } from '#features/plans/subscription-records.server.ts'
import type { ModerationServices } from '#server/api/moderation.ts'
import type { PublicSettings } from '#server/config.ts'
import type { QueuedMailDelivery } from '#server/mail/mailer.ts'
import type { RealtimePublisher } from '#server/realtime/protocol.ts'
import type { SignedInUser } from '#server/web-session/reader.ts'
import type { ClientIdentitySettings } from './lib/auth/identity-config.ts'
import type { ClientStorageSettings } from './lib/storage/storage-settings.ts'

/**
 * What the server hands every loader and action. The process owns the database; the
 * bundled app only borrows it through this context, so there is one pool per process.
 */
export type AppContext = {
  db: Kysely<DB>
  settings: PublicSettings
  /** Users' Markdown rendered off the request thread, within a deadline, and stored (decision 022). */
  markdown: MarkdownRenderer
  /** Sessions: who is signed in (from Amplify's cookies), and what the browser needs to sign in. */
  auth: AuthService
  /** Object storage as pages see it: the browser's settings, and checks of uploaded images. */
  storage: { client: ClientStorageSettings; images: ImageStorage }
  /**
   * This response's Content-Security-Policy nonce (server/content-security-policy.ts): the
   * inline scripts React and React Router render carry it.
   */
  cspNonce?: string
  /** Starts delivering mail an action wrote to the outbox in its own transaction, once committed. */
  mail: QueuedMailDelivery
  /**
   * Answering exercises: the server's verifier of code submissions (server/code-sandbox) and
   * each learner's answer limits (decision 031).
   */
  exercises: ExerciseServices
  /** The contact form's limits, and who its messages are mailed to (ADMIN_USERS), decision 030. */
  contact: {
    limits: ContactLimits
    admins: readonly string[]
    /** The server's clock (ServerOptions.now), which messages and admin actions are dated by. */
    now: () => number
  }
  /** Plans and payments (docs/decisions/038): the gateway, the prices and the server's clock. */
  plans: { billing: Billing }
  /** This request's client address (per TRUST_PROXY), which per-address limits key on. */
  clientAddress?: string
  /** The process's logger (pino): structured, with secrets redacted. */
  log: {
    error(details: object, message: string): void
    warn(details: object, message: string): void
  }
  /**
   * Events for users' open pages (server/realtime, docs/decisions/036): publish after the
   * transaction that stored what the event announces has committed.
   */
  realtime: RealtimePublisher
  /** Reports' hourly limit and moderation's live effects (docs/decisions/039). */
  moderation: ModerationServices
}

/** The web session (server/web-session/service.ts): the only way pages learn who is asking. */
export type AuthService = {
  /** The signed-in user, when the request carries valid, unexpired, unrevoked tokens. */
  currentUser(request: Request): Promise<SignedInUser | undefined>
  /**
   * The signed-in user, or, for a guest, a thrown redirect to the sign-in page that comes back
   * to this address: for loaders and actions of pages only for members.
   */
  requireUser(request: Request): Promise<SignedInUser>
  /** Whether the browser holds an Amplify session of this app, valid or not (it can sign out). */
  hasSession(request: Request): boolean
  /** Whether the request carries any session cookie: its page is personal, never shared. */
  isPersonal(request: Request): boolean
  /** Whether a first Google sign-in is waiting for this browser to choose a username. */
  hasPendingGoogleSignUp(request: Request): boolean
  /** Public identity settings for Amplify in the browser. */
  client: ClientIdentitySettings
}

declare module 'react-router' {
  interface AppLoadContext extends AppContext {}
}
