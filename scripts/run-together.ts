/**
 * `node scripts/run-together.ts typecheck build`: runs those npm scripts at the same time and
 * fails if any fails. `npm test` uses it for the type check and the build, which need nothing
 * from each other: one is mostly single-threaded (tsc), so together they take about as long as
 * the longer one. Each script's output is held and printed whole when it ends, so the two never
 * interleave.
 */
import { spawn } from 'node:child_process'

const names = process.argv.slice(2)
if (names.length === 0) {
  console.error('usage: node scripts/run-together.ts <npm script> [<npm script> …]')
  process.exit(2)
}

const npm = process.env.npm_execpath
const results = await Promise.all(
  names.map(
    (name) =>
      new Promise<{ name: string; code: number }>((resolve) => {
        // Under npm, its own CLI with the Node running this; otherwise `npm` from the PATH.
        const [command, args] = npm
          ? [process.execPath, [npm, 'run', name]]
          : ['npm', ['run', name]]
        const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] })
        let output = ''
        child.stdout.on('data', (chunk) => {
          output += chunk
        })
        child.stderr.on('data', (chunk) => {
          output += chunk
        })
        child.on('error', (error) => {
          process.stdout.write(`${output}${error}\n`)
          resolve({ name, code: 1 })
        })
        child.on('close', (code, signal) => {
          const status = code ?? (signal ? 1 : 0)
          process.stdout.write(output)
          resolve({ name, code: status })
        })
      }),
  ),
)

const failed = results.filter((result) => result.code !== 0)
for (const { name, code } of failed) console.error(`npm run ${name} failed (exit ${code})`)
process.exit(failed.length === 0 ? 0 : 1)
