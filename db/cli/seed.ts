import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { seedDemoContent } from '#db/seed/seed.ts'
import { ConfigError, loadConfig, loadDotEnv } from '#server/config.ts'
import { ownImageStore } from '#server/site-storage.ts'
import { openObjectStore } from '#server/storage/index.ts'

/**
 * `npm run db:seed`: fills an empty database with the Japanese demo users and courses, and puts
 * their drawn covers in the site's object storage.
 */
loadDotEnv()
try {
  const config = loadConfig(process.env)
  const database = openDatabase(config.database)
  try {
    await migrateToLatest(database.db)
    const store = await openObjectStore(config.storage, database.db)
    try {
      const images = ownImageStore(store, config.storage, database.db, config.identity)
      const seeded = await seedDemoContent(database.db, Date.now(), images)
      console.log(
        seeded ? 'Demo content added.' : 'The database already has users; nothing was added.',
      )
    } finally {
      await store.close()
    }
  } finally {
    await database.close()
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : error)
  process.exitCode = 1
}
