import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import path from 'node:path'

/**
 * What a build of the app was made from: every project file the bundler read, with a hash of
 * its content, written by the Vite plugin in vite.config.ts beside the build. A build is
 * current when every one of them still has that content: `npm start` then skips building, and
 * the integration and e2e suites refuse a stale build instead of testing old code.
 */
export type BuildInputs = { files: Record<string, string> }

export const BUILD_INPUTS_FILE = 'build/inputs.json'

/** Files that shape a build without being modules the bundler reads. */
export const BUILD_CONFIG_FILES = [
  'package-lock.json',
  'vite.config.ts',
  'react-router.config.ts',
  'tsconfig.json',
] as const

export function hashFile(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex')
}

/** Why the build in `root` is not current, or undefined when it is. */
export function staleBuildReason(root: string): string | undefined {
  const inputsFile = path.join(root, BUILD_INPUTS_FILE)
  if (!existsSync(inputsFile)) return 'there is no build yet'
  let inputs: BuildInputs
  try {
    inputs = JSON.parse(readFileSync(inputsFile, 'utf8')) as BuildInputs
  } catch {
    return `${BUILD_INPUTS_FILE} cannot be read`
  }
  for (const [file, hash] of Object.entries(inputs.files)) {
    const absolute = path.join(root, file)
    if (!existsSync(absolute)) return `${file} was removed`
    if (hashFile(absolute) !== hash) return `${file} changed`
  }
  return undefined
}
