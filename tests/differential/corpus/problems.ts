// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the programs are JavaScript source as text
import type { CodeLanguage } from '#features/exercises/code-run.ts'
import type { CorpusEntry, CorpusTest, Expected } from './types.ts'

// Beginners' problems, each with its tests and, per language, programs a learner writes for
// it: right ones in several styles, and the usual ways of being wrong. Every program says what
// verdict it must get; `limits.ts` adds the programs that hit a runner's limits.

type Variant = { name: string; code: string; expected: Expected }
type Problem = {
  name: string
  tests: CorpusTest[]
  javascript: Variant[]
  python: Variant[]
  timeLimitMs?: number
}

const v = (name: string, expected: Expected, code: string): Variant => ({ name, code, expected })

const problems: Problem[] = [
  {
    name: 'sum',
    tests: [
      { stdin: '3\n4\n', expectedOutput: '7' },
      { stdin: '-5\n10', expectedOutput: '5' },
      { stdin: '123456\n654321\n', expectedOutput: '777777' },
    ],
    javascript: [
      v(
        'number',
        'pass',
        'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)',
      ),
      v('parse-int', 'pass', 'console.log(parseInt(input(), 10) + parseInt(input(), 10))'),
      v('unary-plus', 'pass', 'const a = +input(), b = +input()\nconsole.log(`${a + b}`)'),
      v('concatenates', 'fail', 'console.log(input() + input())'),
      v('difference', 'fail', 'console.log(Number(input()) - Number(input()))'),
      v('first-only', 'fail', 'console.log(Number(input()))'),
      v('constant', 'fail', 'input(); input(); console.log(7)'),
      v('trailing-spaces', 'pass', 'console.log(Number(input()) + Number(input()) + "   ")'),
      v(
        'extra-line',
        'fail',
        'console.log("答え:")\nconsole.log(Number(input()) + Number(input()))',
      ),
      v('stderr-only', 'fail', 'console.error(Number(input()) + Number(input()))'),
      v('typo', 'error', 'const a = Number(input())\nconsole.log(a + bb)'),
      v('syntax', 'error', 'const a = Number(input()\nconsole.log(a)'),
      v('throws', 'error', 'throw new Error("まだ書いていません")'),
      v('null-call', 'error', 'const line = input()\nline.foo()'),
    ],
    python: [
      v('int', 'pass', 'a = int(input())\nb = int(input())\nprint(a + b)'),
      v('map', 'pass', 'import sys\na, b = map(int, sys.stdin.read().split())\nprint(a + b)'),
      v('fstring', 'pass', 'a = int(input())\nb = int(input())\nprint(f"{a + b}")'),
      v('concatenates', 'fail', 'print(input() + input())'),
      v('difference', 'fail', 'print(int(input()) - int(input()))'),
      v('first-only', 'fail', 'print(int(input()))'),
      v('constant', 'fail', 'input()\ninput()\nprint(7)'),
      v('trailing-spaces', 'pass', 'print(int(input()) + int(input()), end="   \\n")'),
      v('sep', 'fail', 'print("答え:", int(input()) + int(input()))'),
      v('stderr-only', 'fail', 'import sys\nprint(int(input()) + int(input()), file=sys.stderr)'),
      v('typo', 'error', 'a = int(input())\nprint(a + bb)'),
      v('syntax', 'error', 'a = int(input()\nprint(a)'),
      v('raises', 'error', 'raise ValueError("まだ書いていません")'),
      v(
        'three-inputs',
        'error',
        'a = int(input())\nb = int(input())\nc = int(input())\nprint(a + b)',
      ),
    ],
  },
  {
    name: 'greet',
    tests: [
      { stdin: 'さくら\n', expectedOutput: 'こんにちは、さくらさん' },
      { stdin: 'Ken', expectedOutput: 'こんにちは、Kenさん' },
      { stdin: '😀ちゃん\n', expectedOutput: 'こんにちは、😀ちゃんさん' },
    ],
    javascript: [
      v('template', 'pass', 'const name = input()\nconsole.log(`こんにちは、${name}さん`)'),
      v('concat', 'pass', 'console.log("こんにちは、" + input() + "さん")'),
      v('no-comma', 'fail', 'console.log(`こんにちは${input()}さん`)'),
      v('half-width-comma', 'fail', 'console.log(`こんにちは,${input()}さん`)'),
      v('two-args', 'fail', 'console.log("こんにちは、", input(), "さん")'),
      v('hello', 'fail', 'console.log("hello " + input())'),
      v('undefined-name', 'error', 'console.log(`こんにちは、${name}さん`)'),
    ],
    python: [
      v('fstring', 'pass', 'name = input()\nprint(f"こんにちは、{name}さん")'),
      v('concat', 'pass', 'print("こんにちは、" + input() + "さん")'),
      v('sep', 'pass', 'print("こんにちは、", input(), "さん", sep="")'),
      v('no-comma', 'fail', 'print(f"こんにちは{input()}さん")'),
      v('default-sep', 'fail', 'print("こんにちは、", input(), "さん")'),
      v('hello', 'fail', 'print("hello " + input())'),
      v('undefined-name', 'error', 'print(f"こんにちは、{nam}さん")'),
    ],
  },
  {
    name: 'full-width-digits',
    // Full-width digits, as a Japanese keyboard types them: Python's int() reads them, and
    // JavaScript's Number() does not.
    tests: [
      { stdin: '１２３\n', expectedOutput: '246' },
      { stdin: '４０', expectedOutput: '80' },
    ],
    javascript: [
      v('number', 'fail', 'console.log(Number(input()) * 2)'),
      v(
        'normalise',
        'pass',
        'const text = input().replace(/[０-９]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xfee0))\nconsole.log(Number(text) * 2)',
      ),
      v('nfkc', 'pass', 'console.log(Number(input().normalize("NFKC")) * 2)'),
      v('echo', 'fail', 'console.log(input())'),
    ],
    python: [
      v('int', 'pass', 'print(int(input()) * 2)'),
      v(
        'nfkc',
        'pass',
        'import unicodedata\nprint(int(unicodedata.normalize("NFKC", input())) * 2)',
      ),
      v('string-repeat', 'fail', 'print(input() * 2)'),
      v('float', 'fail', 'print(float(input()) * 2)'),
    ],
  },
  {
    name: 'full-width-text',
    tests: [
      { stdin: 'ｈｅｌｌｏ　ｗｏｒｌｄ\n', expectedOutput: 'ＨＥＬＬＯ　ＷＯＲＬＤ\n11' },
      { stdin: 'ＡｂＣ', expectedOutput: 'ＡＢＣ\n3' },
    ],
    javascript: [
      v(
        'upper-length',
        'pass',
        'const s = input()\nconsole.log(s.toUpperCase())\nconsole.log(s.length)',
      ),
      v(
        'spread-length',
        'pass',
        'const s = input()\nconsole.log(s.toUpperCase())\nconsole.log([...s].length)',
      ),
      v(
        'bytes',
        'fail',
        'const s = input()\nconsole.log(s.toUpperCase())\nconsole.log(unescape(encodeURIComponent(s)).length)',
      ),
      v(
        'nfkc',
        'fail',
        'const s = input().normalize("NFKC")\nconsole.log(s.toUpperCase())\nconsole.log(s.length)',
      ),
      v('lower', 'fail', 'const s = input()\nconsole.log(s.toLowerCase())\nconsole.log(s.length)'),
    ],
    python: [
      v('upper-len', 'pass', 's = input()\nprint(s.upper())\nprint(len(s))'),
      v('bytes', 'fail', 's = input()\nprint(s.upper())\nprint(len(s.encode()))'),
      v(
        'nfkc',
        'fail',
        'import unicodedata\ns = unicodedata.normalize("NFKC", input())\nprint(s.upper())\nprint(len(s))',
      ),
      v('split-words', 'fail', 's = input()\nprint(s.upper())\nprint(len(s.split()))'),
      v('casefold', 'fail', 's = input()\nprint(s.casefold())\nprint(len(s))'),
    ],
  },
  {
    name: 'reverse-lines',
    // Every line to the end of stdin, last first.
    tests: [
      { stdin: 'a\nb\nc\n', expectedOutput: 'c\nb\na' },
      { stdin: '一行目\r\n二行目\r\n', expectedOutput: '二行目\n一行目' },
      { stdin: 'only', expectedOutput: 'only' },
      { stdin: '', expectedOutput: '' },
    ],
    javascript: [
      v(
        'loop',
        'pass',
        'const lines = []\nlet line\nwhile ((line = input()) !== null) lines.push(line)\nconsole.log(lines.reverse().join("\\n"))',
      ),
      v(
        'unshift',
        'pass',
        'const out = []\nfor (let l = input(); l !== null; l = input()) out.unshift(l)\nfor (const l of out) console.log(l)',
      ),
      v(
        'undefined-check',
        'timeout',
        'let count = 0\nwhile (input() !== undefined) count++\nconsole.log(count)',
      ),
      v('not-reversed', 'fail', 'let line\nwhile ((line = input()) !== null) console.log(line)'),
      v('one-line', 'fail', 'console.log(input())'),
      v(
        'falsy-stop',
        'pass',
        'const lines = []\nlet line\nwhile ((line = input())) lines.push(line)\nconsole.log(lines.reverse().join("\\n"))',
      ),
    ],
    python: [
      v('read', 'pass', 'import sys\nprint("\\n".join(reversed(sys.stdin.read().splitlines())))'),
      v(
        'for-line',
        'pass',
        'import sys\nlines = [line.rstrip("\\n") for line in sys.stdin]\nfor line in reversed(lines):\n    print(line)',
      ),
      v(
        'readlines',
        'pass',
        'import sys\nfor line in sys.stdin.readlines()[::-1]:\n    print(line.rstrip())',
      ),
      v('open-0', 'pass', 'print("\\n".join(open(0).read().splitlines()[::-1]))'),
      v(
        'buffer',
        'pass',
        'import sys\ndata = sys.stdin.buffer.read().decode()\nprint("\\n".join(data.splitlines()[::-1]))',
      ),
      v(
        'try-eof',
        'pass',
        'lines = []\nwhile True:\n    try:\n        lines.append(input())\n    except EOFError:\n        break\nprint("\\n".join(reversed(lines)))',
      ),
      v('input-past-eof', 'error', 'lines = []\nwhile True:\n    lines.append(input())'),
      v('not-reversed', 'fail', 'import sys\nprint(sys.stdin.read().rstrip())'),
      v('keeps-cr', 'fail', 'import sys\nprint("|".join(reversed(sys.stdin.read().split("\\n"))))'),
    ],
  },
  {
    name: 'fizzbuzz',
    tests: [
      { stdin: '5\n', expectedOutput: '1\n2\nFizz\n4\nBuzz' },
      {
        stdin: '15',
        expectedOutput: '1\n2\nFizz\n4\nBuzz\nFizz\n7\n8\nFizz\nBuzz\n11\nFizz\n13\n14\nFizzBuzz',
      },
    ],
    javascript: [
      v(
        'if-chain',
        'pass',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) {\n  if (i % 15 === 0) console.log("FizzBuzz")\n  else if (i % 3 === 0) console.log("Fizz")\n  else if (i % 5 === 0) console.log("Buzz")\n  else console.log(i)\n}',
      ),
      v(
        'concat',
        'pass',
        'const n = +input()\nfor (let i = 1; i <= n; i++) console.log((i % 3 ? "" : "Fizz") + (i % 5 ? "" : "Buzz") || i)',
      ),
      v(
        'wrong-order',
        'fail',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) {\n  if (i % 3 === 0) console.log("Fizz")\n  else if (i % 5 === 0) console.log("Buzz")\n  else if (i % 15 === 0) console.log("FizzBuzz")\n  else console.log(i)\n}',
      ),
      v(
        'off-by-one',
        'fail',
        'const n = Number(input())\nfor (let i = 1; i < n; i++) console.log((i % 3 ? "" : "Fizz") + (i % 5 ? "" : "Buzz") || i)',
      ),
      v(
        'one-line',
        'fail',
        'const n = Number(input())\nconst out = []\nfor (let i = 1; i <= n; i++) out.push((i % 3 ? "" : "Fizz") + (i % 5 ? "" : "Buzz") || i)\nconsole.log(out.join(" "))',
      ),
      v(
        'array-log',
        'fail',
        'const n = Number(input())\nconst out = []\nfor (let i = 1; i <= n; i++) out.push((i % 3 ? "" : "Fizz") + (i % 5 ? "" : "Buzz") || i)\nconsole.log(out)',
      ),
      v(
        'never-ends',
        'output-limit',
        'const n = Number(input())\nfor (let i = 1; i <= n; i) console.log(i)',
      ),
    ],
    python: [
      v(
        'if-chain',
        'pass',
        'n = int(input())\nfor i in range(1, n + 1):\n    if i % 15 == 0:\n        print("FizzBuzz")\n    elif i % 3 == 0:\n        print("Fizz")\n    elif i % 5 == 0:\n        print("Buzz")\n    else:\n        print(i)',
      ),
      v(
        'or',
        'pass',
        'for i in range(1, int(input()) + 1):\n    print("Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0) or i)',
      ),
      v(
        'wrong-order',
        'fail',
        'n = int(input())\nfor i in range(1, n + 1):\n    if i % 3 == 0:\n        print("Fizz")\n    elif i % 5 == 0:\n        print("Buzz")\n    elif i % 15 == 0:\n        print("FizzBuzz")\n    else:\n        print(i)',
      ),
      v(
        'off-by-one',
        'fail',
        'for i in range(1, int(input())):\n    print("Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0) or i)',
      ),
      v(
        'one-line',
        'fail',
        'print(*["Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0) or i for i in range(1, int(input()) + 1)])',
      ),
      v(
        'list-print',
        'fail',
        'print(["Fizz" * (i % 3 == 0) + "Buzz" * (i % 5 == 0) or i for i in range(1, int(input()) + 1)])',
      ),
      v('str-input', 'error', 'for i in range(1, input() + 1):\n    print(i)'),
    ],
  },
  {
    name: 'max',
    tests: [
      { stdin: '3 9 2\n', expectedOutput: '9' },
      { stdin: '-4 -2 -8', expectedOutput: '-2' },
      { stdin: '10 9 100 7\n', expectedOutput: '100' },
    ],
    javascript: [
      v('math-max', 'pass', 'console.log(Math.max(...input().split(" ").map(Number)))'),
      v(
        'reduce',
        'pass',
        'const xs = input().trim().split(/\\s+/).map(Number)\nconsole.log(xs.reduce((a, b) => (a > b ? a : b)))',
      ),
      v('string-sort', 'fail', 'const xs = input().split(" ")\nxs.sort()\nconsole.log(xs.at(-1))'),
      v(
        'zero-start',
        'fail',
        'let best = 0\nfor (const x of input().split(" ").map(Number)) if (x > best) best = x\nconsole.log(best)',
      ),
      v(
        'string-compare',
        'fail',
        'let best = "-999"\nfor (const x of input().split(" ")) if (x > best) best = x\nconsole.log(best)',
      ),
      v('json', 'error', 'console.log(Math.max(...JSON.parse(input())))'),
    ],
    python: [
      v('max', 'pass', 'print(max(map(int, input().split())))'),
      v(
        'loop',
        'pass',
        'xs = [int(x) for x in input().split()]\nbest = xs[0]\nfor x in xs:\n    if x > best:\n        best = x\nprint(best)',
      ),
      v('string-max', 'fail', 'print(max(input().split()))'),
      v(
        'zero-start',
        'fail',
        'best = 0\nfor x in map(int, input().split()):\n    best = max(best, x)\nprint(best)',
      ),
      v('sorted-first', 'fail', 'print(sorted(map(int, input().split()))[0])'),
      v(
        'empty-max',
        'error',
        'print(max(int(x) for x in input().split(",") if x.strip().isdigit()))',
      ),
    ],
  },
  {
    name: 'average',
    tests: [
      { stdin: '4\n80\n90\n70\n60\n', expectedOutput: '75.0' },
      { stdin: '3\n1\n2\n2\n', expectedOutput: '1.67' },
      { stdin: '0\n', expectedOutput: 'データがありません' },
    ],
    javascript: [
      v(
        'rounded',
        'pass',
        'const n = Number(input())\nif (n === 0) console.log("データがありません")\nelse {\n  let sum = 0\n  for (let i = 0; i < n; i++) sum += Number(input())\n  const avg = Math.round((sum / n) * 100) / 100\n  console.log(Number.isInteger(avg) ? avg.toFixed(1) : String(avg))\n}',
      ),
      v(
        'to-fixed',
        'fail',
        'const n = Number(input())\nlet sum = 0\nfor (let i = 0; i < n; i++) sum += Number(input())\nconsole.log((sum / n).toFixed(2))',
      ),
      v(
        'nan',
        'fail',
        'const n = Number(input())\nlet sum = 0\nfor (let i = 0; i < n; i++) sum += Number(input())\nconsole.log(sum / n)',
      ),
    ],
    python: [
      v(
        'round',
        'pass',
        'n = int(input())\nif n == 0:\n    print("データがありません")\nelse:\n    print(round(sum(int(input()) for _ in range(n)) / n, 2))',
      ),
      v(
        'format',
        'fail',
        'n = int(input())\nprint(f"{sum(int(input()) for _ in range(n)) / n:.2f}")',
      ),
      v(
        'zero-division',
        'error',
        'n = int(input())\nprint(round(sum(int(input()) for _ in range(n)) / n, 2))',
      ),
      v(
        'floor',
        'fail',
        'n = int(input())\nif n == 0:\n    print("データがありません")\nelse:\n    print(sum(int(input()) for _ in range(n)) // n)',
      ),
    ],
  },
  {
    name: 'triangle',
    tests: [
      { stdin: '3\n', expectedOutput: '*\n**\n***' },
      { stdin: '1\n', expectedOutput: '*' },
    ],
    javascript: [
      v(
        'repeat',
        'pass',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) console.log("*".repeat(i))',
      ),
      v(
        'nested',
        'pass',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) {\n  let row = ""\n  for (let j = 0; j < i; j++) row += "*"\n  console.log(row)\n}',
      ),
      v(
        'full-width-star',
        'fail',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) console.log("＊".repeat(i))',
      ),
      v(
        'leading-space',
        'fail',
        'const n = Number(input())\nfor (let i = 1; i <= n; i++) console.log(" " + "*".repeat(i))',
      ),
      v(
        'upside-down',
        'fail',
        'const n = Number(input())\nfor (let i = n; i >= 1; i--) console.log("*".repeat(i))',
      ),
    ],
    python: [
      v('multiply', 'pass', 'n = int(input())\nfor i in range(1, n + 1):\n    print("*" * i)'),
      v(
        'end',
        'pass',
        'n = int(input())\nfor i in range(n):\n    for j in range(i + 1):\n        print("*", end="")\n    print()',
      ),
      v(
        'full-width-star',
        'fail',
        'n = int(input())\nfor i in range(1, n + 1):\n    print("＊" * i)',
      ),
      v('spaces', 'fail', 'n = int(input())\nfor i in range(1, n + 1):\n    print(*["*"] * i)'),
      v('range-zero', 'fail', 'n = int(input())\nfor i in range(n):\n    print("*" * i)'),
    ],
  },
  {
    name: 'word-count',
    tests: [
      { stdin: 'the cat and the hat\n', expectedOutput: 'and 1\ncat 1\nhat 1\nthe 2' },
      { stdin: 'ねこ いぬ ねこ', expectedOutput: 'いぬ 1\nねこ 2' },
    ],
    javascript: [
      v(
        'map',
        'pass',
        'const counts = new Map()\nfor (const w of input().split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1)\nfor (const w of [...counts.keys()].sort()) console.log(w, counts.get(w))',
      ),
      v(
        'object',
        'pass',
        'const counts = {}\nfor (const w of input().trim().split(/\\s+/)) counts[w] = (counts[w] || 0) + 1\nfor (const w of Object.keys(counts).sort()) console.log(`${w} ${counts[w]}`)',
      ),
      v(
        'unsorted',
        'fail',
        'const counts = new Map()\nfor (const w of input().split(" ")) counts.set(w, (counts.get(w) ?? 0) + 1)\nfor (const [w, c] of counts) console.log(w, c)',
      ),
      v(
        'colon',
        'fail',
        'const counts = {}\nfor (const w of input().split(" ")) counts[w] = (counts[w] || 0) + 1\nfor (const w of Object.keys(counts).sort()) console.log(`${w}: ${counts[w]}`)',
      ),
    ],
    python: [
      v(
        'counter',
        'pass',
        'from collections import Counter\nfor word, count in sorted(Counter(input().split()).items()):\n    print(word, count)',
      ),
      v(
        'dict',
        'pass',
        'counts = {}\nfor w in input().split():\n    counts[w] = counts.get(w, 0) + 1\nfor w in sorted(counts):\n    print(f"{w} {counts[w]}")',
      ),
      v(
        'unsorted',
        'fail',
        'from collections import Counter\nfor word, count in Counter(input().split()).items():\n    print(word, count)',
      ),
      v(
        'key-error',
        'error',
        'counts = {}\nfor w in input().split():\n    counts[w] += 1\nprint(counts)',
      ),
    ],
  },
]

export function problemEntries(): CorpusEntry[] {
  const entries: CorpusEntry[] = []
  for (const problem of problems) {
    for (const language of ['javascript', 'python'] as const satisfies readonly CodeLanguage[]) {
      for (const variant of problem[language]) {
        entries.push({
          id: `${language}/${problem.name}/${variant.name}`,
          language,
          code: variant.code,
          // A loop ends at 0.5 s; a flood gets 5 s to reach the output cap, which it must reach
          // first on either engine (QuickJS writes more slowly than V8).
          timeLimitMs:
            variant.expected === 'timeout'
              ? 500
              : variant.expected === 'output-limit'
                ? 5_000
                : (problem.timeLimitMs ?? 2_000),
          tests: problem.tests,
          expected: variant.expected,
        })
      }
    }
  }
  return entries
}
