import path from 'node:path'
import { staleBuildReason } from '#server/build-inputs.ts'

/**
 * Global setup of the integration and e2e suites, which serve the built app: a stale build
 * would test yesterday's pages, so the run stops at once and says how to fix it.
 */
export default function requireCurrentBuild(): void {
  const reason = staleBuildReason(path.resolve(import.meta.dirname, '../..'))
  if (reason !== undefined) {
    throw new Error(`The app's build is stale (${reason}): run \`npm run build\` first.`)
  }
}
