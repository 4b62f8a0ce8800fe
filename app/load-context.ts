import type { Kysely } from 'kysely'
import type { DB } from '../db/schema.ts'
import type { PublicSettings } from '../server/config.ts'

/**
 * What the server hands every loader and action. The process owns the database; the
 * bundled app only borrows it through this context, so there is one pool per process.
 */
export type AppContext = {
  db: Kysely<DB>
  settings: PublicSettings
  /** The process's logger (pino): structured, with secrets redacted. */
  log: {
    error(details: object, message: string): void
    warn(details: object, message: string): void
  }
}

declare module 'react-router' {
  interface AppLoadContext extends AppContext {}
}
