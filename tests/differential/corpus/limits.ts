import { MAX_OUTPUT_BYTES } from '#features/exercises/code-run.ts'
import type { CorpusEntry, CorpusTest, Expected } from './types.ts'

// Programs that reach the runners' limits and edges: loops, output at and past the cap,
// recursion, memory, slow but finishing work, sleeping, the ways a program ends, stdin's end.

/** Loops end at 0.5 s: long enough to tell from work, short enough to be cheap. */
const LOOP_LIMIT_MS = 500
/** Slow programs (and floods of output) finish in a fraction of this on either engine. */
const SLOW_LIMIT_MS = 5_000

const one: CorpusTest[] = [{ stdin: '5\n', expectedOutput: 'ok' }]

function entry(
  id: string,
  language: CorpusEntry['language'],
  expected: Expected,
  code: string,
  tests: CorpusTest[] = one,
): CorpusEntry {
  // The browser is slow to write out the traceback of thousands of frames; a flood must
  // reach the output cap before the time limit on either engine.
  const slow =
    id.includes('slow/') || id === 'recursion/raised-limit-too-deep' || expected === 'output-limit'
  const timeLimitMs = expected === 'timeout' ? LOOP_LIMIT_MS : slow ? SLOW_LIMIT_MS : 2_000
  return { id: `${language}/${id}`, language, code, timeLimitMs, tests, expected }
}

const js = (id: string, expected: Expected, code: string, tests?: CorpusTest[]) =>
  entry(id, 'javascript', expected, code, tests)
const py = (id: string, expected: Expected, code: string, tests?: CorpusTest[]) =>
  entry(id, 'python', expected, code, tests)

/** The largest line (with its newline) that fits the cap, of a character of `bytes` bytes. */
const fitting = (bytes: number) => Math.floor((MAX_OUTPUT_BYTES - 1) / bytes)

export function limitEntries(): CorpusEntry[] {
  return [
    // Loops that never end.
    js('loop/while-true', 'timeout', 'while (true) {}'),
    js('loop/for-ever', 'timeout', 'for (;;) {}'),
    js('loop/forgot-increment', 'timeout', 'let i = 0\nwhile (i < 10) {\n  console.log\n}'),
    js('loop/after-output', 'timeout', 'console.log("start")\nwhile (true) {}'),
    js('loop/after-input', 'timeout', 'const n = Number(input())\nwhile (n > 0) {}'),
    js('loop/promise-chain', 'timeout', 'const spin = () => Promise.resolve().then(spin)\nspin()'),
    js('loop/in-function', 'timeout', 'function wait() {\n  while (true) {}\n}\nwait()'),
    py('loop/while-true', 'timeout', 'while True:\n    pass'),
    py('loop/forgot-increment', 'timeout', 'i = 0\nwhile i < 10:\n    x = i * 2'),
    py('loop/after-output', 'timeout', 'print("start")\nwhile True:\n    pass'),
    py('loop/after-input', 'timeout', 'n = int(input())\nwhile n > 0:\n    n += 1'),
    py('loop/in-function', 'timeout', 'def wait():\n    while True:\n        pass\nwait()'),

    // Output: far past the cap, just at it, just past it, in several-byte characters, on stderr.
    js('output/forever', 'output-limit', 'while (true) console.log("またね")'),
    js('output/one-huge-line', 'output-limit', 'console.log("x".repeat(200000))'),
    js('output/fits-exactly', 'fail', `console.log("x".repeat(${fitting(1)}))`),
    js('output/one-byte-over', 'output-limit', `console.log("x".repeat(${fitting(1) + 1}))`),
    js('output/kana-fits', 'fail', `console.log("あ".repeat(${fitting(3)}))`),
    js('output/kana-over', 'output-limit', `console.log("あ".repeat(${fitting(3) + 1}))`),
    js(
      'output/both-streams',
      'output-limit',
      'console.log("o".repeat(40000))\nconsole.error("e".repeat(40000))',
    ),
    js('output/then-error', 'output-limit', 'console.log("x".repeat(70000))\nthrow new Error("x")'),
    js(
      'output/many-lines-ok',
      'pass',
      'for (let i = 0; i < 2000; i++) console.log(i)\nconsole.log("ok")',
      [
        {
          stdin: '',
          expectedOutput: `${Array.from({ length: 2000 }, (_, i) => i).join('\n')}\nok`,
        },
      ],
    ),
    py('output/forever', 'output-limit', 'while True:\n    print("またね")'),
    py('output/one-huge-line', 'output-limit', 'print("x" * 200000)'),
    py('output/fits-exactly', 'fail', `print("x" * ${fitting(1)})`),
    py('output/one-byte-over', 'output-limit', `print("x" * ${fitting(1) + 1})`),
    py('output/kana-fits', 'fail', `print("あ" * ${fitting(3)})`),
    py('output/kana-over', 'output-limit', `print("あ" * ${fitting(3) + 1})`),
    py(
      'output/both-streams',
      'output-limit',
      'import sys\nprint("o" * 40000)\nprint("e" * 40000, file=sys.stderr)',
    ),
    py('output/no-newline', 'output-limit', 'import sys\nwhile True:\n    sys.stdout.write("x")'),
    py('output/many-lines-ok', 'pass', 'for i in range(2000):\n    print(i)\nprint("ok")', [
      {
        stdin: '',
        expectedOutput: `${Array.from({ length: 2000 }, (_, i) => i).join('\n')}\nok`,
      },
    ]),

    // Recursion: fine when shallow, the runtime's own error when endless or too deep.
    js(
      'recursion/shallow',
      'pass',
      'const sum = (n) => (n === 0 ? 0 : n + sum(n - 1))\nconsole.log(sum(1000) === 500500 ? "ok" : "ng")',
    ),
    js('recursion/endless', 'recursion', 'function f(n) {\n  return f(n + 1) + 1\n}\nf(0)'),
    js(
      'recursion/no-base-case',
      'recursion',
      'const fact = (n) => n * fact(n - 1)\nconsole.log(fact(5))',
    ),
    js(
      'recursion/very-deep',
      'recursion',
      'const depth = (n) => (n === 0 ? 0 : 1 + depth(n - 1))\nconsole.log(depth(1000000))',
    ),
    py(
      'recursion/shallow',
      'pass',
      'def s(n):\n    return 0 if n == 0 else n + s(n - 1)\nprint("ok" if s(900) == 405450 else "ng")',
    ),
    py('recursion/endless', 'recursion', 'def f(n):\n    return f(n + 1) + 1\nf(0)'),
    py(
      'recursion/no-base-case',
      'recursion',
      'def fact(n):\n    return n * fact(n - 1)\nprint(fact(5))',
    ),
    py(
      'recursion/default-limit',
      'recursion',
      'def d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(5000))',
    ),
    py(
      'recursion/raised-limit-too-deep',
      'recursion',
      'import sys\nsys.setrecursionlimit(1000000)\ndef d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint(d(200000))',
    ),
    py(
      'recursion/raised-limit-ok',
      'pass',
      'import sys\nsys.setrecursionlimit(5000)\ndef d(n):\n    return 0 if n == 0 else 1 + d(n - 1)\nprint("ok" if d(3000) == 3000 else "ng")',
    ),

    // Memory: a program that keeps allocating, in Python (both runners run Pyodide).
    py(
      'memory/list-of-blocks',
      'memory',
      'blocks = []\nwhile True:\n    blocks.append(bytearray(10_000_000))',
    ),
    py('memory/huge-list', 'memory', 'xs = [0] * (10 ** 9)\nprint(len(xs))'),
    py('memory/huge-string', 'memory', 's = "x" * (2 ** 31 - 100)\nprint(len(s))'),
    py(
      'memory/small-ok',
      'pass',
      'xs = [0] * (10 ** 6)\nprint("ok" if len(xs) == 10 ** 6 else "ng")',
    ),

    // Slow but finishing well within the limit on either engine.
    js(
      'slow/loop',
      'pass',
      'let s = 0\nfor (let i = 0; i < 300000; i++) s += i % 7\nconsole.log(s === 899997 ? "ok" : s)',
    ),
    js(
      'slow/sort',
      'pass',
      'const xs = Array.from({ length: 20000 }, (_, i) => (i * 7919) % 20011)\nxs.sort((a, b) => a - b)\nconsole.log(xs[0] === 0 ? "ok" : "ng")',
    ),
    js(
      'slow/string-build',
      'pass',
      'let s = ""\nfor (let i = 0; i < 20000; i++) s += "a"\nconsole.log(s.length === 20000 ? "ok" : "ng")',
    ),
    py(
      'slow/loop',
      'pass',
      's = 0\nfor i in range(300000):\n    s += i % 7\nprint("ok" if s == 899997 else s)',
    ),
    py(
      'slow/sort',
      'pass',
      'xs = sorted((i * 7919) % 20011 for i in range(20000))\nprint("ok" if xs[0] == 0 else "ng")',
    ),
    py(
      'slow/primes',
      'pass',
      'n = 20000\nsieve = [True] * n\nfor i in range(2, n):\n    if sieve[i]:\n        for j in range(i * i, n, i):\n            sieve[j] = False\nprint("ok" if sum(sieve[2:]) == 2262 else "ng")',
    ),

    // Waiting: a timer or a sleep is not computing.
    js('wait/timeout', 'pass', 'setTimeout(() => console.log("ok"), 50)'),
    js(
      'wait/promise',
      'pass',
      'new Promise((resolve) => setTimeout(resolve, 20)).then(() => console.log("ok"))',
    ),
    js(
      'wait/async',
      'pass',
      'const sleep = (ms) => new Promise((r) => setTimeout(r, ms))\nasync function main() {\n  await sleep(10)\n  console.log("ok")\n}\nmain()',
    ),
    js(
      'wait/interval-cleared',
      'pass',
      'let n = 0\nconst id = setInterval(() => {\n  n++\n  if (n === 3) {\n    clearInterval(id)\n    console.log("ok")\n  }\n}, 10)',
    ),
    py('wait/sleep', 'pass', 'import time\ntime.sleep(0.05)\nprint("ok")'),
    js('wait/longer-than-the-limit', 'pass', 'setTimeout(() => console.log("ok"), 3000)'),
    js(
      'wait/many-timers',
      'pass',
      'let n = 0\nfor (let i = 0; i < 500; i++) setTimeout(() => {\n  n++\n  if (n === 500) console.log("ok")\n}, i)',
    ),
    js('wait/interval-never-cleared', 'timeout', 'setInterval(() => {}, 1000)'),
    py('wait/sleep-longer-than-the-limit', 'pass', 'import time\ntime.sleep(3)\nprint("ok")'),

    // Ways a program ends.
    js('end/throw-string', 'error', 'throw "だめ"'),
    js('end/custom-error', 'error', 'class AppError extends Error {}\nthrow new AppError("だめ")'),
    // An unhandled rejection ends neither runner's run as an error (what it printed is judged).
    js('end/rejected', 'fail', 'Promise.reject(new Error("だめ"))'),
    js(
      'end/async-throw',
      'fail',
      'async function main() {\n  throw new TypeError("だめ")\n}\nmain()',
    ),
    js('end/timer-throw', 'error', 'setTimeout(() => {\n  throw new Error("だめ")\n}, 10)'),
    js('end/no-process', 'error', 'console.log("ok")\nprocess.exit(0)'),
    js('end/caught', 'pass', 'try {\n  JSON.parse("{")\n} catch (e) {\n  console.log("ok")\n}'),
    js('end/error-after-output', 'error', 'console.log("ok")\nnull.x'),
    py('end/sys-exit-zero', 'pass', 'import sys\nprint("ok")\nsys.exit(0)'),
    py('end/sys-exit-none', 'pass', 'import sys\nprint("ok")\nsys.exit()'),
    py('end/sys-exit-one', 'error', 'import sys\nprint("ok")\nsys.exit(1)'),
    py('end/sys-exit-message', 'error', 'import sys\nprint("ok")\nsys.exit("だめ")'),
    py('end/custom-error', 'error', 'class AppError(Exception):\n    pass\nraise AppError("だめ")'),
    py('end/assert', 'error', 'assert 1 + 1 == 3, "計算が合いません"'),
    py('end/caught', 'pass', 'try:\n    int("x")\nexcept ValueError:\n    print("ok")'),
    py('end/error-after-output', 'error', 'print("ok")\nNone.x'),
    py('end/indentation', 'error', 'if True:\nprint("ok")'),
    py('end/keyboard-interrupt', 'error', 'raise KeyboardInterrupt'),

    // stdin's end and its edges.
    js('stdin/null-at-end', 'fail', 'input()\nconsole.log(input())', [
      { stdin: 'only\n', expectedOutput: '' },
    ]),
    js('stdin/empty-line', 'pass', 'input()\nconsole.log(JSON.stringify(input()))', [
      { stdin: 'a\n\nc\n', expectedOutput: '""' },
    ]),
    js('stdin/trailing-spaces-kept', 'pass', 'console.log(JSON.stringify(input()))', [
      { stdin: 'a  \tb  \n', expectedOutput: '"a  \\tb  "' },
    ]),
    js('stdin/no-final-newline', 'pass', 'console.log(input() + "|" + input())', [
      { stdin: 'x\ny', expectedOutput: 'x|y' },
    ]),
    js('stdin/lone-cr', 'pass', 'console.log([input(), input()].join("|"))', [
      { stdin: 'x\ry\r', expectedOutput: 'x|y' },
    ]),
    js('stdin/empty', 'pass', 'console.log(input() === null ? "ok" : "ng")', [
      { stdin: '', expectedOutput: 'ok' },
    ]),
    py('stdin/eof-error', 'error', 'input()\nprint(input())', [
      { stdin: 'only\n', expectedOutput: '' },
    ]),
    py(
      'stdin/readline-at-end',
      'pass',
      'import sys\nsys.stdin.readline()\nprint(repr(sys.stdin.readline()))',
      [{ stdin: 'only\n', expectedOutput: "''" }],
    ),
    py('stdin/empty-line', 'pass', 'input()\nprint(repr(input()))', [
      { stdin: 'a\n\nc\n', expectedOutput: "''" },
    ]),
    py('stdin/trailing-spaces-kept', 'pass', 'print(repr(input()))', [
      { stdin: 'a  \tb  \n', expectedOutput: "'a  \\tb  '" },
    ]),
    py('stdin/no-final-newline', 'pass', 'print(input() + "|" + input())', [
      { stdin: 'x\ny', expectedOutput: 'x|y' },
    ]),
    py('stdin/crlf-read', 'pass', 'import sys\nprint(repr(sys.stdin.read()))', [
      { stdin: 'x\r\ny\r\n', expectedOutput: "'x\\ny\\n'" },
    ]),
    py('stdin/empty', 'error', 'print(input())', [{ stdin: '', expectedOutput: '' }]),
    py('stdin/iterate-empty', 'pass', 'import sys\nprint(sum(1 for _ in sys.stdin))', [
      { stdin: '', expectedOutput: '0' },
    ]),
    py('stdin/fileno-read', 'pass', 'import os\nprint(os.read(0, 100).decode().upper())', [
      { stdin: 'abc\n', expectedOutput: 'ABC' },
    ]),
    py(
      // A full-width digit's bytes are not a number to int(): only its decoded text is.
      'stdin/buffer-lines',
      'error',
      'import sys\nprint(sum(int(x) for x in sys.stdin.buffer.read().split()))',
      [{ stdin: '1 2\n３\n', expectedOutput: '6' }],
    ),
  ]
}
