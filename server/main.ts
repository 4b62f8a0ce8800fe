import './gc-tuning.ts'
import { ConfigError, loadConfig, loadDotEnv } from './config.ts'
import { startServer } from './start.ts'

/** Process entry: `npm start` (production) and `npm run dev` (development). */
async function main(): Promise<void> {
  loadDotEnv()
  let config: ReturnType<typeof loadConfig>
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`)
      process.exit(1)
    }
    throw error
  }

  // Pretty lines at a terminal; JSON, one object a line, where a collector reads the output.
  const { app, url, httpsUrl, storageUrl, drain } = await startServer(config, {
    prettyLogs: process.stdout.isTTY,
  })
  app.log.info(
    `${config.public.siteTitle} is listening on ${url}${httpsUrl ? ` and ${httpsUrl}` : ''} (${config.env}, ${config.database.kind})`,
  )
  if (storageUrl) app.log.info(`The S3 endpoint also listens at the root of ${storageUrl}`)

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'draining requests before exit')
    const deadline = setTimeout(() => {
      app.log.error('requests did not drain in time; exiting anyway')
      process.exit(1)
    }, config.shutdownGraceMs)
    deadline.unref()
    // drain() ends keep-alive connections without cutting a request short; close() then
    // closes the database.
    drain()
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed')
          process.exit(1)
        },
      )
  }
  process.once('SIGTERM', stop)
  process.once('SIGINT', stop)
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Start-up failed: ${error instanceof Error ? error.message : String(error)}\n`,
  )
  process.exit(1)
})
