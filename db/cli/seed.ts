import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { seedDemoContent } from '#db/seed/seed.ts'
import { ConfigError, loadConfig, loadDotEnv } from '#server/config.ts'

/** `npm run db:seed`: fills an empty database with the Japanese demo users and courses. */
loadDotEnv()
try {
  const config = loadConfig(process.env)
  const database = openDatabase(config.database)
  try {
    await migrateToLatest(database.db)
    const seeded = await seedDemoContent(database.db)
    console.log(
      seeded ? 'Demo content added.' : 'The database already has users; nothing was added.',
    )
  } finally {
    await database.close()
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exitCode = 1
}
