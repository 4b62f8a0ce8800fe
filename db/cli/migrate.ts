import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { ConfigError, loadConfig, loadDotEnv } from '#server/config.ts'

/** `npm run db:migrate`: applies pending migrations to the configured database. */
loadDotEnv()
try {
  const config = loadConfig(process.env)
  const database = openDatabase(config.database)
  try {
    const applied = await migrateToLatest(database.db)
    console.log(
      applied.length === 0 ? 'The schema is up to date.' : `Applied: ${applied.join(', ')}`,
    )
  } finally {
    await database.close()
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exitCode = 1
}
