import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { staleBuildReason } from '#server/build-inputs.ts'

/** `npm start`'s first step: build the app only when a source it was built from has changed. */
const root = path.resolve(import.meta.dirname, '..')
const reason = staleBuildReason(root)
if (reason === undefined) {
  process.stdout.write('The build is current; starting without rebuilding.\n')
} else {
  process.stdout.write(`Building the app (${reason})…\n`)
  const build = spawnSync(path.join(root, 'node_modules/.bin/react-router'), ['build'], {
    cwd: root,
    stdio: 'inherit',
  })
  process.exit(build.status ?? 1)
}
