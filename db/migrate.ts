import { type Kysely, type MigrationResultSet, Migrator } from 'kysely'
import { migrations } from './migrations/index.ts'
import type { DB } from './schema.ts'

export class MigrationError extends Error {
  override name = 'MigrationError'
}

/** Brings the schema to the newest migration. Pending migrations run in one transaction on both engines (both have transactional DDL), so a failure leaves the schema as it was. */
export async function migrateToLatest(db: Kysely<DB>): Promise<string[]> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Numbers are handed out ahead to work landing in parallel, so a database may already have
    // a later one (0025) when an earlier one (0022) lands; each is independent of the others.
    allowUnorderedMigrations: true,
  })
  return applied(await migrator.migrateToLatest())
}

function applied({ error, results }: MigrationResultSet): string[] {
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')
    throw new MigrationError(
      `Migration ${failed?.migrationName ?? '(unknown)'} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    )
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((r) => r.migrationName)
}
