import { randomBytes } from 'node:crypto'
import { afterAll, describe, expect, it } from 'vitest'
import type { CodeRunRequest } from '#features/exercises/code-run.ts'
import { createCodeSandbox } from '#server/code-sandbox/sandbox.ts'

// Each attack is one submission; the next submission (another learner's, say) must run as if
// the attack had never happened, and must not be observable by it.
const sandbox = createCodeSandbox({
  javascriptWorkers: 1,
  pythonWorkers: 1,
  maxQueued: 8,
  maxWaitMs: 120_000,
})
afterAll(() => sandbox.close())

const python = (code: string, more: Partial<CodeRunRequest> = {}) =>
  sandbox.run({ language: 'python', code, stdin: '', timeLimitMs: 10_000, ...more })
const js = (code: string, more: Partial<CodeRunRequest> = {}) =>
  sandbox.run({ language: 'javascript', code, stdin: '', timeLimitMs: 5_000, ...more })
const lines = (...code: string[]) => code.join('\n')

/** Another learner's ordinary program, and what it must print. */
const victim = {
  code: lines(
    'import calendar, decimal, json, random',
    'data = [[n] for n in range(200000)]',
    'print(json.dumps([1, 2]), calendar.month_name[1], decimal.Decimal(1) / decimal.Decimal(8))',
    'print(input())',
  ),
  stdout: '[1, 2] January 0.125\nvictim input\n',
}

async function expectVictimUntouched(attack: string) {
  const planted = await python(attack)
  expect(planted.outcome, JSON.stringify(planted)).toBe('completed')
  const next = await python(victim.code, { stdin: 'victim input\n' })
  expect(next).toMatchObject({ outcome: 'completed', stdout: victim.stdout, stderr: '' })
}

describe('Python: no submission reaches the next', () => {
  it("a hook planted in the runner's namespace through a frame", async () => {
    await expectVictimUntouched(
      lines(
        'import sys',
        'runner = sys._getframe(1).f_globals',
        'def spy(program, namespace):',
        '    print("RECORDED")',
        'runner["exec"] = spy',
        'runner["_restore"] = lambda: True',
      ),
    )
  })

  it('a hook found through gc, and an audit hook', async () => {
    await expectVictimUntouched(
      lines(
        'import gc, sys',
        'for holder in gc.get_objects():',
        '    if isinstance(holder, dict) and "_restore" in holder and "run" in holder:',
        '        holder["compile"] = lambda *a, **k: compile("print(\'HIJACKED\')", "main.py", "exec")',
        'sys.addaudithook(lambda event, args: event == "exec" and sys.stdout.write("AUDITED\\n"))',
      ),
    )
  })

  it('a patched standard library function (its code swapped in place)', async () => {
    await expectVictimUntouched(
      lines('import json', 'json.dumps.__code__ = (lambda *a, **k: "PATCHED").__code__'),
    )
  })

  it("module-level state: the decimal context, the random generator's seed", async () => {
    await expectVictimUntouched(lines('import decimal', 'decimal.getcontext().prec = 1'))
    await python('import random\nrandom.seed(42)')
    const next = await python('import random\nprint(random.random())')
    expect(next.outcome).toBe('completed')
    expect(next.stdout).not.toBe('0.6394267984578837\n')
    // Nor do all submissions share one sequence (every child starts from the same snapshot).
    const other = await python('import random\nprint(random.random())')
    expect(other.stdout).not.toBe(next.stdout)
  })

  it("the import system: a finder left in sys's caches for a module not yet imported", async () => {
    await expectVictimUntouched(
      lines(
        'import sys, importlib.util',
        'class Loader:',
        '    def create_module(self, spec):',
        '        return None',
        '    def exec_module(self, module):',
        '        module.month_name = ["HIJACKED"] * 13',
        'class Finder:',
        '    def find_spec(self, name, target=None):',
        '        if name == "calendar":',
        '            return importlib.util.spec_from_loader(name, Loader())',
        '    def invalidate_caches(self):',
        '        pass',
        'for key in list(sys.path_importer_cache):',
        '    sys.path_importer_cache[key] = Finder()',
        'sys.modules.pop("calendar", None)',
      ),
    )
  })

  it('a finaliser left to run later', async () => {
    await expectVictimUntouched(
      lines(
        'import sys',
        // Each collection of the ghost makes another: it would print into whichever run is on.
        'class Ghost:',
        '    def __del__(self):',
        '        sys.stdout.write("GHOST\\n")',
        '        ghost = Ghost()',
        '        ghost.me = ghost',
        'ghost = Ghost()',
        'ghost.me = ghost',
        'del ghost',
      ),
    )
  })

  it('threads, weak finalisers and atexit', async () => {
    // Pyodide starts no threads; the others would run when their objects or the process go.
    await expectVictimUntouched(
      lines(
        'import atexit, sys, threading, weakref',
        'class Kept:',
        '    pass',
        'kept = Kept()',
        'sys.modules["json"].__dict__.setdefault("_kept", []).append(kept)',
        'weakref.finalize(kept, print, "FINALISED")',
        'atexit.register(print, "AT EXIT")',
        'try:',
        '    threading.Thread(target=lambda: print("THREAD")).start()',
        'except RuntimeError:',
        '    pass',
      ),
    )
  })

  it("reads nothing of an earlier submission's memory (ctypes scanning the heap)", async () => {
    const token = randomBytes(8).toString('hex')
    // A hidden test's input of some size: freed, its bytes stay in the engine's memory.
    const earlier = await python('print(len(input()))', {
      stdin: `${'x'.repeat(100_000)}tok=${token}\n`,
    })
    expect(earlier).toMatchObject({ outcome: 'completed', stdout: '100020\n' })
    const scan = await python(
      lines(
        'import ctypes, re',
        'found = set()',
        'top = ctypes.CDLL(None).emscripten_get_heap_size()',
        'step = 1 << 20',
        'for start in range(0, top, step):',
        '    chunk = ctypes.string_at(start, min(step + 32, top - start))',
        '    found.update(m.group(1).decode() for m in re.finditer(rb"tok=([0-9a-f]{16})", chunk))',
        'print(sorted(found))',
      ),
      { timeLimitMs: 20_000 },
    )
    expect(scan.outcome, JSON.stringify(scan)).toBe('completed')
    expect(scan.stdout).not.toContain(token)
  }, 60_000)

  it('one submission is judged in one fresh interpreter: its tests share it, the next does not', async () => {
    const tests = [
      { name: '1', stdin: '', expectedOutput: '1' },
      { name: '2', stdin: '', expectedOutput: '1' },
    ]
    // A runner-level counter: the same interpreter across one submission's tests (the state
    // put back between them is the learner's, not the runner's), a new one for the next.
    const counting = lines(
      'import sys',
      'runner = sys._getframe(1).f_globals',
      'runner["_count"] = runner.get("_count", 0) + 1',
      'print(runner["_count"])',
    )
    const first = await sandbox.verify(
      `count-${randomBytes(4).toString('hex')}`,
      { language: 'python', code: counting, timeLimitMs: 10_000 },
      tests,
    )
    expect(first.outcomes.map(({ run }) => run.stdout)).toEqual(['1\n', '2\n'])
    const second = await sandbox.verify(
      `count-${randomBytes(4).toString('hex')}`,
      { language: 'python', code: counting, timeLimitMs: 10_000 },
      tests,
    )
    expect(second.outcomes.map(({ run }) => run.stdout)).toEqual(['1\n', '2\n'])
  })

  it('sees no environment variable of the server', async () => {
    process.env.SANDBOX_ISOLATION_SECRET = 'isolation-secret'
    try {
      const environment = await python('import os\nprint(dict(os.environ))')
      expect(environment.outcome).toBe('completed')
      expect(environment.stdout).not.toContain('isolation-secret')
    } finally {
      delete process.env.SANDBOX_ISOLATION_SECRET
    }
  })
})

describe('JavaScript: no submission reaches the next', () => {
  const jsVictim = {
    code: 'console.log([1, 2].join("-"), JSON.stringify({ a: 1 }), typeof planted, input())',
    stdout: '1-2 {"a":1} undefined victim input\n',
  }
  const expectJsVictimUntouched = async (attack: string) => {
    const planted = await js(attack)
    expect(planted.outcome, JSON.stringify(planted)).toBe('completed')
    const next = await js(jsVictim.code, { stdin: 'victim input\n' })
    expect(next).toMatchObject({ outcome: 'completed', stdout: jsVictim.stdout, stderr: '' })
  }

  it('patched builtins and prototypes, globals', async () => {
    await expectJsVictimUntouched(
      lines(
        'Array.prototype.join = () => "PATCHED"',
        'JSON.stringify = () => "PATCHED"',
        'Object.defineProperty(Object.prototype, "planted", { value: 1 })',
        'globalThis.planted = 1',
        'globalThis.console.log = () => {}',
      ),
    )
  })

  it('timers, promise jobs and finalisers left behind', async () => {
    await expectJsVictimUntouched(
      lines(
        'setTimeout(() => console.log("TIMER"), 1e9)',
        'new Promise(() => {})',
        'const registry = new FinalizationRegistry(() => console.log("FINALISED"))',
        'registry.register({}, 1)',
        'globalThis.ref = new WeakRef({})',
      ),
    )
  })

  it("reads nothing of an earlier submission's memory", async () => {
    const token = randomBytes(8).toString('hex')
    await js('const secret = input(); console.log(secret.length)', { stdin: `tok=${token}\n` })
    // Fresh buffers and strings: what memory the engine hands out is zeroed or its own.
    const scan = await js(
      lines(
        'const buffer = new Uint8Array(32 * 1024 * 1024)',
        'let text = ""',
        'for (let i = 0; i < buffer.length; i += 4096) if (buffer[i]) text += String.fromCharCode(buffer[i])',
        'console.log(text.length)',
      ),
    )
    expect(scan).toMatchObject({ outcome: 'completed', stdout: '0\n' })
    expect(scan.stdout).not.toContain(token)
  })
})
