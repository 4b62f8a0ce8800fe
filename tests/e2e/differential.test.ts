import { afterAll, expect, test } from 'vitest'
import {
  type CodeRunRequest,
  type CodeRunResult,
  outputMatches,
  runErrorMessage,
  runProblemMessage,
  type TestOutcome,
} from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'
import { defaultSandboxSettings } from '#server/code-sandbox/settings.ts'
import {
  type CorpusEntry,
  differentialCorpus,
  type Expected,
} from '#tests/differential/corpus/index.ts'
import { waitForHydration } from './browser.ts'
import { builtChunk } from './built-chunks.ts'
import { browserSuite } from './suite.ts'

/**
 * The browser and the server agree: every submission of the corpus (tests/differential/corpus)
 * runs through the browser's runners in Chromium (app/lib/code-runner, the workers the exercise
 * pages use, from the built site) and through the server's verifier (createCodeSandbox), and
 * both must give every test the same pass or fail, name every limit the same way in Japanese,
 * and give the verdict the corpus expects.
 */
const suite = browserSuite()
const runnerUrl = builtChunk('code-runner')
const corpus = differentialCorpus()
// A cold Pyodide start on a busy machine may take longer than a learner's wait.
const sandbox = createCodeSandbox({ ...defaultSandboxSettings(), maxWaitMs: 300_000 })
afterAll(async () => {
  await sandbox.close()
})

/** How a run ended, as both sides must name it: a limit, an error kind, or done. */
function kindOf(run: CodeRunResult): Expected | 'completed' | 'unavailable' {
  if (run.outcome !== 'error') return run.outcome
  const last = lastLine(run.error.message)
  if (/^RecursionError|Maximum call stack size exceeded|stack overflow/i.test(last)) {
    return 'recursion'
  }
  if (/^MemoryError|out of memory/i.test(last)) return 'memory'
  return 'error'
}

function lastLine(message: string): string {
  return message.trimEnd().split('\n').at(-1) ?? ''
}

/**
 * What a learner reads of a run that did not complete: the runners' Japanese message, of an
 * error its last line (the browser shows Python's traceback above it; the server, that line).
 */
function shownOf(run: CodeRunResult, entry: CorpusEntry): string | null {
  if (run.outcome !== 'error') return runProblemMessage(run, entry.timeLimitMs)
  const kind = kindOf(run)
  if (entry.language === 'javascript') {
    // Each engine has its own words for ordinary errors and its own idea of the line a stack
    // overflow or a thrown class points at: the kind, and a limit's words, must agree.
    return kind === 'error' ? 'エラー' : runErrorMessage({ message: lastLine(run.error.message) })
  }
  return runErrorMessage({ message: lastLine(run.error.message), line: run.error.line })
}

const judged = (entry: CorpusEntry, runs: CodeRunResult[]): TestOutcome[] =>
  runs.map((run, index) => ({
    name: String(index + 1),
    passed:
      run.outcome === 'completed' &&
      outputMatches(entry.tests[index]?.expectedOutput ?? '', run.stdout),
    run,
  }))

/** The first failing run's kind: what the corpus's `expected` names. */
function verdictOf(outcomes: TestOutcome[], total: number): Expected | 'unavailable' {
  const failing = outcomes.find((outcome) => !outcome.passed)
  if (!failing) return outcomes.length === total ? 'pass' : 'fail'
  const kind = kindOf(failing.run)
  return kind === 'completed' ? 'fail' : kind
}

/** Runs the requests one after another in the page's browser runner (a fresh one per batch). */
async function inBrowser(requests: CodeRunRequest[]): Promise<CodeRunResult[]> {
  const page = await suite.newPage()
  await page.goto('/')
  await waitForHydration(page)
  // A string, so that the test runner's transform leaves this import() alone.
  await page.evaluate(`window.__module = import(${JSON.stringify(runnerUrl)})`)
  const results: CodeRunResult[] = []
  // In batches: each evaluate stays short enough to report progress and errors.
  for (let start = 0; start < requests.length; start += 40) {
    const batch = requests.slice(start, start + 40)
    results.push(
      ...(await page.evaluate(async (batch) => {
        const w = window as unknown as {
          __module: Promise<typeof import('#app/lib/code-runner/browser-runner.ts')>
          __runner?: import('#app/lib/code-runner/browser-runner.ts').BrowserRunner
        }
        w.__runner ??= (await w.__module).createBrowserRunner()
        const out: CodeRunResult[] = []
        for (const request of batch) out.push(await w.__runner.run(request))
        return out
      }, batch)),
    )
  }
  await page.close()
  return results
}

async function onServer(entries: CorpusEntry[]): Promise<TestOutcome[][]> {
  const verdicts: TestOutcome[][] = []
  for (const entry of entries) {
    const { outcomes } = await sandbox.verify(
      `differential:${entry.id}`,
      { language: entry.language, code: entry.code, timeLimitMs: entry.timeLimitMs },
      entry.tests.map((test, index) => ({ name: String(index + 1), ...test })),
    )
    verdicts.push(outcomes)
  }
  return verdicts
}

test('the browser runner and the server verifier agree on every submission of the corpus', {
  timeout: 900_000,
}, async () => {
  expect(corpus.length).toBeGreaterThanOrEqual(300)
  expect(new Set(corpus.map((entry) => entry.id)).size).toBe(corpus.length)
  const requests = corpus.flatMap((entry) =>
    entry.tests.map((test) => ({
      language: entry.language,
      code: entry.code,
      stdin: test.stdin,
      timeLimitMs: entry.timeLimitMs,
    })),
  )
  const [browserRuns, serverOutcomes] = await Promise.all([inBrowser(requests), onServer(corpus)])

  const disagreements: string[] = []
  let at = 0
  corpus.forEach((entry, index) => {
    const browser = judged(entry, browserRuns.slice(at, at + entry.tests.length))
    at += entry.tests.length
    const server = serverOutcomes[index] ?? []
    const say = (what: string) => disagreements.push(`${entry.id}: ${what}`)
    const browserVerdict = verdictOf(browser, entry.tests.length)
    const serverVerdict = verdictOf(server, entry.tests.length)
    if (browserVerdict !== entry.expected || serverVerdict !== entry.expected) {
      say(`expected ${entry.expected}, browser ${browserVerdict}, server ${serverVerdict}`)
    }
    // The server stops after a timeout (one time limit per looping submission): the tests it
    // ran are compared one by one.
    server.forEach((outcome, test) => {
      const other = browser[test]
      if (!other) return
      if (other.passed !== outcome.passed) {
        say(
          `test ${test + 1}: browser ${other.passed ? 'passed' : 'failed'}, server ${outcome.passed ? 'passed' : 'failed'}`,
        )
      }
      const shown = [shownOf(other.run, entry), shownOf(outcome.run, entry)]
      if (shown[0] !== shown[1]) {
        say(
          `test ${test + 1}: browser says ${JSON.stringify(shown[0])}, server ${JSON.stringify(shown[1])}`,
        )
      }
    })
  })
  expect(disagreements).toEqual([])
})
