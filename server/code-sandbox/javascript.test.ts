import { afterAll, describe, expect, it } from 'vitest'
import { type CodeRunRequest, MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'

// The real engine in a real child process: QuickJS (WebAssembly) through the pool.
const sandbox = createCodeSandbox({
  javascriptWorkers: 1,
  pythonWorkers: 1,
  maxQueued: 8,
  maxWaitMs: 30_000,
})
afterAll(() => sandbox.close())

const js = (code: string, more: Partial<CodeRunRequest> = {}) =>
  sandbox.run({ language: 'javascript', code, stdin: '', timeLimitMs: 2_000, ...more })

describe('JavaScript in the sandbox', () => {
  it('prints, and reads stdin line by line with input()', async () => {
    expect(await js('console.log("こんにちは")')).toMatchObject({
      outcome: 'completed',
      stdout: 'こんにちは\n',
    })
    const sum = await js(
      'const a = Number(input()); const b = Number(input())\nconsole.log(a + b, input())',
      { stdin: '3\n4\n' },
    )
    expect(sum).toMatchObject({ outcome: 'completed', stdout: '7 null\n' })
  })

  it('writes values as Node does, stderr apart, timers and promises in order', async () => {
    const result = await js(
      [
        'console.log([1, "a", { b: true }], new Map([["k", 1]]), null, undefined, 2n)',
        'console.error("warning")',
        'setTimeout(() => console.log("timer"), 100)',
        'Promise.resolve().then(() => console.log("job"))',
        'console.log("now")',
      ].join('\n'),
    )
    expect(result).toMatchObject({
      outcome: 'completed',
      stdout: "[ 1, 'a', { b: true } ] Map(1) { 'k' => 1 } null undefined 2n\nnow\njob\ntimer\n",
      stderr: 'warning\n',
    })
  })

  it('names the line of a runtime error and of a syntax error', async () => {
    const thrown = await js('const a = 1\n\nundefinedFunction(a)\n')
    expect(thrown).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringContaining('undefinedFunction'), line: 3 },
    })
    const syntax = await js('let x = 1\nlet y = )\n')
    expect(syntax).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringMatching(/^SyntaxError/), line: 2 },
    })
    const recursive = await js(
      'function sum(n) { return n === 0 ? 0 : n + sum(n - 1) }\nconsole.log(sum(5000))',
    )
    expect(recursive).toMatchObject({ outcome: 'completed', stdout: '12502500\n' })
    const deep = await js('function f(n) { return f(n + 1) }\nf(0)')
    // Worded as the browser words it (the learner sees the same message on both sides).
    expect(deep).toMatchObject({
      outcome: 'error',
      error: { message: 'RangeError: Maximum call stack size exceeded' },
    })
  })

  it('ends an infinite loop at the time limit, and the next run works', async () => {
    const looped = await js('let i = 0\nwhile (true) { i++ }', { timeLimitMs: 500 })
    expect(looped.outcome).toBe('timeout')
    expect(looped.durationMs).toBeGreaterThanOrEqual(500)
    expect(looped.durationMs).toBeLessThan(1_500)
    expect(await js('console.log("next")')).toMatchObject({
      outcome: 'completed',
      stdout: 'next\n',
    })
  })

  it('ends endless promise jobs at the time limit, and the next run works', async () => {
    const spun = await js('const spin = () => Promise.resolve().then(spin)\nspin()', {
      timeLimitMs: 500,
    })
    expect(spun.outcome).toBe('timeout')
    expect(await js('console.log("next")')).toMatchObject({
      outcome: 'completed',
      stdout: 'next\n',
    })
  })

  it('ends a memory bomb cleanly, and the next run works', async () => {
    for (const grow of ['new Uint8Array(1e7)', 'new Array(1e5).fill(0)']) {
      const bomb = await js(`const keep = []\nwhile (true) keep.push(${grow})`, {
        timeLimitMs: 10_000,
      })
      expect(bomb).toMatchObject({
        outcome: 'error',
        error: { message: expect.stringMatching(/out of memory/) },
      })
    }
    expect(await js('console.log(1 + 1)')).toMatchObject({ outcome: 'completed', stdout: '2\n' })
  })

  it('stops a program that writes too much, keeping what fits', async () => {
    const flood = await js('while (true) console.log("あいうえお")')
    expect(flood.outcome).toBe('output-limit')
    expect(Buffer.byteLength(flood.stdout)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES)
    expect(Buffer.byteLength(flood.stdout)).toBeGreaterThan(MAX_OUTPUT_BYTES - 100)
  })

  it('reaches nothing of the host', async () => {
    const probe = await js(
      'console.log([typeof process, typeof require, typeof fetch, typeof WebAssembly, typeof setImmediate, typeof Buffer].join(" "))',
    )
    expect(probe).toMatchObject({
      outcome: 'completed',
      stdout: 'undefined undefined undefined undefined undefined undefined\n',
    })
    // Code made from strings runs in the same empty engine.
    const generated = await js('console.log(new Function("return typeof process")())')
    expect(generated.stdout).toBe('undefined\n')
    const imported = await js(
      'import("node:fs").then((fs) => console.log(fs.readFileSync("/etc/passwd", "utf8")), (e) => console.log("refused", e.name))',
    )
    expect(imported.stdout).not.toContain('root:')
    expect(imported.stdout).toMatch(/refused/)
    // One run leaves nothing behind for the next.
    await js('globalThis.leftover = 1; Array.prototype.push = null')
    expect(
      await js('console.log(typeof leftover); const a = []; a.push(1); console.log(a.length)'),
    ).toMatchObject({
      outcome: 'completed',
      stdout: 'undefined\n1\n',
    })
  })
})
