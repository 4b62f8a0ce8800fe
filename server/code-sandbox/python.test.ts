import { once } from 'node:events'
import { createServer, type Server } from 'node:net'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type CodeRunRequest, MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'

// The real Pyodide in real child processes, through the pool.
process.env.SANDBOX_TEST_SECRET = 'must-not-leak'
const sandbox = createCodeSandbox({
  javascriptWorkers: 1,
  pythonWorkers: 1,
  maxQueued: 8,
  maxWaitMs: 60_000,
})
let listener: Server
let connections = 0
beforeAll(async () => {
  listener = createServer((socket) => {
    connections++
    socket.end('HELLO\n')
  }).listen(0, '127.0.0.1')
  await once(listener, 'listening')
  // Pyodide loads once per worker: seconds on a busy machine.
  expect(await python('print(1)')).toMatchObject({ outcome: 'completed' })
}, 120_000)
afterAll(async () => {
  await sandbox.close()
  listener.close()
})

// Generous: a busy machine must not turn the probes below into timeouts.
function python(code: string, more: Partial<CodeRunRequest> = {}) {
  return sandbox.run({ language: 'python', code, stdin: '', timeLimitMs: 10_000, ...more })
}

describe('Python in the sandbox', () => {
  it('prints, and reads stdin with input() and sys.stdin', async () => {
    expect(await python('print("こんにちは")')).toMatchObject({
      outcome: 'completed',
      stdout: 'こんにちは\n',
    })
    const read = await python(
      'import sys\na = int(input())\nb = int(input())\nprint(a + b)\nprint(repr(sys.stdin.read()))',
      { stdin: '3\n4\nrest\n' },
    )
    expect(read).toMatchObject({ outcome: 'completed', stdout: "7\n'rest\\n'\n" })
    // The competitive-programming ways too, and a run reads only its own stdin.
    const buffer = await python('import sys\nprint(sys.stdin.buffer.readline())', {
      stdin: '1\n2\n',
    })
    expect(buffer).toMatchObject({ outcome: 'completed', stdout: "b'1\\n'\n" })
    const whole = await python('print(open(0).read().split())', { stdin: '1\n2 3\n' })
    expect(whole).toMatchObject({ outcome: 'completed', stdout: "['1', '2', '3']\n" })
    expect(await python('print(repr(open(0).read()))')).toMatchObject({ stdout: "''\n" })
    const stderr = await python('import sys\nprint("x", file=sys.stderr)')
    expect(stderr).toMatchObject({ outcome: 'completed', stdout: '', stderr: 'x\n' })
  })

  it('names the line of a runtime error and of a syntax error', async () => {
    expect(await python('x = 1\n\nprint(y)')).toMatchObject({
      outcome: 'error',
      error: { message: "NameError: name 'y' is not defined", line: 3 },
    })
    expect(await python('def f():\n    return 1\nprint(f(')).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringMatching(/^SyntaxError/), line: 3 },
    })
    expect(await python('input()')).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringMatching(/^EOFError/), line: 1 },
    })
  })

  it('ends `while True: pass` at the time limit, and the next run works', async () => {
    const looped = await python('while True:\n    pass', { timeLimitMs: 500 })
    expect(looped.outcome).toBe('timeout')
    expect(looped.durationMs).toBeLessThan(1_500)
    expect(await python('print("next")')).toMatchObject({ outcome: 'completed', stdout: 'next\n' })
  })

  it('ends a loop that swallows the interrupt by replacing the worker', async () => {
    const replaced = sandbox.stats().python.replaced
    const stubborn = await python(
      'while True:\n    try:\n        while True:\n            pass\n    except BaseException:\n        pass',
      { timeLimitMs: 500 },
    )
    expect(stubborn.outcome).toBe('timeout')
    expect(sandbox.stats().python.replaced).toBe(replaced + 1)
    expect(await python('print("fresh")')).toMatchObject({
      outcome: 'completed',
      stdout: 'fresh\n',
    })
  }, 120_000)

  it('takes no time to sleep, and caps recursion below what would crash the thread', async () => {
    const sleepy = await python(
      'import time\nfor n in range(3, 0, -1):\n    print(n)\n    time.sleep(1)',
    )
    expect(sleepy).toMatchObject({ outcome: 'completed', stdout: '3\n2\n1\n' })
    expect(sleepy.durationMs).toBeLessThan(1_000)
    const deep = await python(
      'import sys\nsys.setrecursionlimit(10**6)\ndef f(n):\n    return f(n + 1)\nf(0)',
      { timeLimitMs: 10_000 },
    )
    expect(deep).toMatchObject({
      outcome: 'error',
      error: { message: expect.stringMatching(/^RecursionError/), line: 4 },
    })
  })

  it('ends a memory bomb with MemoryError, and the next run works', async () => {
    const bomb = await python('keep = []\nwhile True:\n    keep.append(" " * 10**6)', {
      timeLimitMs: 10_000,
    })
    expect(bomb).toMatchObject({ outcome: 'error', error: { message: 'MemoryError', line: 3 } })
    expect(await python('print([0] * 3)')).toMatchObject({
      outcome: 'completed',
      stdout: '[0, 0, 0]\n',
    })
  })

  it('stops a program that writes too much, keeping what fits', async () => {
    const flood = await python('while True:\n    print("あいうえお")')
    expect(flood.outcome).toBe('output-limit')
    expect(Buffer.byteLength(flood.stdout)).toBeLessThanOrEqual(MAX_OUTPUT_BYTES)
    expect(Buffer.byteLength(flood.stdout)).toBeGreaterThan(MAX_OUTPUT_BYTES - 100)
  })

  it('leaves nothing for the next run: builtins, modules, files', async () => {
    await python(
      'import builtins, math, os\nbuiltins.len = None\nmath.pi = 3\nos.environ["X"] = "1"\nopen("/tmp/answer.txt", "w").write("42")',
    )
    const next = await python(
      'import math, os\nprint(len([1]), math.pi, "X" in os.environ, os.listdir("/tmp"))',
    )
    expect(next).toMatchObject({ outcome: 'completed', stdout: '1 3.141592653589793 False []\n' })
  })

  it('reaches nothing of the host', async () => {
    const refused = (code: string, message: RegExp) =>
      expect(python(code)).resolves.toMatchObject({ outcome: 'error', error: { message } })
    await refused('import js', /ModuleNotFoundError/)
    await refused('import pyodide_js', /ModuleNotFoundError/)
    await refused('from pyodide.code import run_js\nrun_js("process")', /Error/)
    // A JavaScript object made from Python: its Function constructor makes no code.
    await refused(
      'from pyodide.ffi import to_js\nto_js([1]).constructor.constructor("return process")()',
      /Code generation from strings is not available/,
    )
    // No JavaScript object stored at start-up (the Pyodide API above all) is left to find.
    const hunt = await python(
      [
        'import gc',
        'def values(o):',
        '    d = o if isinstance(o, dict) else getattr(o, "__dict__", None)',
        '    return list(d.values()) if isinstance(d, dict) else list(o) if isinstance(o, (list, tuple, set)) else []',
        'print(sum(1 for o in gc.get_objects() for v in values(o) if "JsProxy" in type(v).__name__ and not isinstance(v, type)))',
      ].join('\n'),
    )
    expect(hunt).toMatchObject({ outcome: 'completed', stdout: '0\n' })
    await refused('print(open("/etc/passwd").read())', /FileNotFoundError/)
    const project = path.resolve('package.json')
    await refused(`print(open(${JSON.stringify(project)}).read())`, /FileNotFoundError/)
    await refused(
      `print(open(${JSON.stringify(path.resolve('.env'))}).read())`,
      /FileNotFoundError/,
    )
    await refused('import os\nos.system("touch /tmp/escaped")', /processes are not available/)
    await refused('import subprocess\nsubprocess.run(["ls"])', /OSError/)
    const port = (listener.address() as { port: number }).port
    const network = await python(
      `import socket\ns = socket.create_connection(("127.0.0.1", ${port}), timeout=1)\nprint(s.recv(10))`,
    )
    expect(network.outcome).toBe('error')
    expect(network.stdout).not.toContain('HELLO')
    await refused(
      `import urllib.request\nurllib.request.urlopen("http://127.0.0.1:${port}/")`,
      /Error/,
    )
    expect(connections).toBe(0)
    const environment = await python('import os\nprint(sorted(os.environ.items()))')
    expect(environment.outcome).toBe('completed')
    expect(environment.stdout).not.toContain('must-not-leak')
    expect(environment.stdout).not.toContain(process.cwd())
    // Still a working interpreter afterwards.
    expect(await python('print(sum(range(10)))')).toMatchObject({ stdout: '45\n' })
    // Each of these runs starts a child of its own: seconds each on a busy machine.
  }, 120_000)
})
