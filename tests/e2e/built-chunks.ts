import { readdirSync } from 'node:fs'
import path from 'node:path'

/** A chunk the build emits for tests (vite.config.ts, codeRunners), as the site serves it. */
export function builtChunk(name: string): string {
  const assets = path.resolve(import.meta.dirname, '../../build/client/assets')
  const file = readdirSync(assets).find((entry) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(entry))
  if (!file) throw new Error(`build/client/assets has no ${name} chunk: npm run build`)
  return `/assets/${file}`
}
