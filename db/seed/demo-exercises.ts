import type { z } from 'zod'
import type { questionFields } from '#features/exercises/question-input.ts'

/** A demo question as an author would send it (checked by the editor's own schema when seeded). */
export type DemoQuestion = z.input<typeof questionFields>

/**
 * The demo studies' exercise sets, by study title (db/seed/demo-social.ts): beginner questions
 * of all four kinds in Japanese, for HTML/CSS, JavaScript and Python. Every code question's
 * reference solution passes its own tests on the server's sandbox
 * (tests/integration/demo-content.test.ts runs them).
 */
export const demoExercises: Record<string, DemoQuestion[]> = {
  'CSS の余白、margin と padding の違いをやっと理解した': [
    {
      kind: 'single',
      prompt: 'ボタンの **枠の内側**（文字と枠の間）の余白を広げるプロパティはどれですか？',
      explanation: '`padding` は枠（border）の内側、`margin` は枠の外側の余白です。',
      tags: ['css'],
      options: [
        { id: 'padding', text: 'padding', correct: true },
        { id: 'margin', text: 'margin', correct: false },
        { id: 'border', text: 'border', correct: false },
      ],
    },
    {
      kind: 'multiple',
      prompt: '**余白** を指定する CSS プロパティをすべて選んでください。',
      explanation:
        '余白は `margin` と `padding` です。`color` は文字の色、`font-size` は文字の大きさです。',
      tags: ['css'],
      options: [
        { id: 'margin', text: 'margin', correct: true },
        { id: 'padding', text: 'padding', correct: true },
        { id: 'color', text: 'color', correct: false },
        { id: 'font-size', text: 'font-size', correct: false },
      ],
    },
    {
      kind: 'text',
      prompt: '段落を表す HTML の要素名を、山かっこなしで答えてください（例：`div`）。',
      explanation: '段落は `<p>` 要素です（paragraph の p）。',
      tags: ['html'],
      acceptedAnswers: ['p'],
      pattern: '<\\s*p\\s*>',
    },
    {
      kind: 'code',
      prompt: [
        '1 行目に余白の大きさ（整数、単位 px）が入力されます。',
        '`padding: 〇px;` の形で 1 行出力する JavaScript を書いてください。',
        '',
        '入力は `input()` で 1 行ずつ読めます。',
      ].join('\n'),
      explanation:
        '`input()` で読んだ数を `"padding: " + size + "px;"` のように文字列とつなげて出力します。',
      tags: ['css', 'javascript'],
      language: 'javascript',
      starterCode: 'const size = input()\n',
      referenceSolution: 'const size = Number(input())\nconsole.log("padding: " + size + "px;")\n',
      tests: [
        { name: '8px', stdin: '8\n', expectedOutput: 'padding: 8px;\n' },
        { name: '16px', stdin: '16\n', expectedOutput: 'padding: 16px;\n' },
        { name: '0px', stdin: '0\n', expectedOutput: 'padding: 0px;\n', hidden: true },
      ],
    },
  ],
  'JavaScript の const と let の使い分けメモ': [
    {
      kind: 'single',
      prompt: 'あとから **再代入できない** 変数を宣言するキーワードはどれですか？',
      explanation:
        '`const` で宣言した変数には再代入できません。値を変えたいときは `let` を使います。',
      tags: ['javascript'],
      options: [
        { id: 'const', text: 'const', correct: true },
        { id: 'let', text: 'let', correct: false },
        { id: 'var', text: 'var', correct: false },
      ],
    },
    {
      kind: 'multiple',
      prompt: 'JavaScript で変数を宣言できるキーワードをすべて選んでください。',
      explanation:
        '`let`・`const`・`var` の 3 つです。`print` は JavaScript のキーワードではありません。',
      tags: ['javascript'],
      options: [
        { id: 'let', text: 'let', correct: true },
        { id: 'const', text: 'const', correct: true },
        { id: 'var', text: 'var', correct: true },
        { id: 'print', text: 'print', correct: false },
      ],
    },
    {
      kind: 'text',
      prompt: '`typeof 42` の結果は何という文字列になりますか？',
      explanation: '数値の型は `"number"` です。',
      tags: ['javascript'],
      acceptedAnswers: ['number', '"number"', "'number'"],
      pattern: null,
    },
    {
      kind: 'code',
      prompt: [
        '2 行で整数が 1 つずつ入力されます。2 つの和を出力してください。',
        '',
        '`input()` は 1 回呼ぶごとに次の 1 行を文字列で返します。',
      ].join('\n'),
      explanation: '`input()` は文字列を返すので、`Number()` で数値にしてから足します。',
      tags: ['javascript'],
      language: 'javascript',
      starterCode: 'const a = input()\nconst b = input()\n',
      referenceSolution:
        'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)\n',
      tests: [
        { name: '3 と 4', stdin: '3\n4\n', expectedOutput: '7\n' },
        { name: '10 と 20', stdin: '10\n20\n', expectedOutput: '30\n' },
        { name: '負の数', stdin: '-5\n10\n', expectedOutput: '5\n', hidden: true },
        { name: '0 と 0', stdin: '0\n0\n', expectedOutput: '0\n', hidden: true },
      ],
    },
    {
      kind: 'code',
      prompt: '整数 n が入力されます。1 から n までの合計を出力してください。',
      explanation: '`let` で合計用の変数を用意し、`for` 文で 1 から n まで足していきます。',
      tags: ['javascript'],
      difficulty: 'intermediate',
      language: 'javascript',
      starterCode: 'const n = Number(input())\nlet total = 0\n',
      referenceSolution:
        'const n = Number(input())\nlet total = 0\nfor (let i = 1; i <= n; i++) {\n  total += i\n}\nconsole.log(total)\n',
      tests: [
        { name: 'n = 3', stdin: '3\n', expectedOutput: '6\n' },
        { name: 'n = 10', stdin: '10\n', expectedOutput: '55\n' },
        { name: 'n = 100', stdin: '100\n', expectedOutput: '5050\n', hidden: true },
      ],
    },
  ],
  'Python の for 文で enumerate を使うと便利だった': [
    {
      kind: 'single',
      prompt: '`enumerate(fruits)` が返す番号は、何もしないといくつから始まりますか？',
      explanation:
        '番号は 0 から始まります。`enumerate(fruits, start=1)` とすると 1 から始まります。',
      tags: ['python'],
      options: [
        { id: 'zero', text: '0', correct: true },
        { id: 'one', text: '1', correct: false },
      ],
    },
    {
      kind: 'multiple',
      prompt: '`for x in ...:` で 1 つずつ取り出せるものをすべて選んでください。',
      explanation: 'リスト・文字列・`range()` は繰り返せます。整数そのものは繰り返せません。',
      tags: ['python'],
      options: [
        { id: 'list', text: 'リスト ["a", "b"]', correct: true },
        { id: 'str', text: '文字列 "abc"', correct: true },
        { id: 'range', text: 'range(3)', correct: true },
        { id: 'int', text: '整数 5', correct: false },
      ],
    },
    {
      kind: 'text',
      prompt: '`len("りんご")` の結果はいくつですか？ 数字で答えてください。',
      explanation: '`len()` は文字数を数えます。「り」「ん」「ご」で 3 です。',
      tags: ['python'],
      acceptedAnswers: ['3'],
      pattern: null,
    },
    {
      kind: 'code',
      prompt: '名前が 1 行入力されます。`こんにちは、〇〇さん` と出力してください。',
      explanation: '`input()` で読んだ名前を f 文字列 `f"こんにちは、{name}さん"` に埋め込みます。',
      tags: ['python'],
      language: 'python',
      starterCode: 'name = input()\n',
      referenceSolution: 'name = input()\nprint(f"こんにちは、{name}さん")\n',
      tests: [
        { name: 'さくら', stdin: 'さくら\n', expectedOutput: 'こんにちは、さくらさん\n' },
        { name: 'Ken', stdin: 'Ken\n', expectedOutput: 'こんにちは、Kenさん\n', hidden: true },
      ],
    },
    {
      kind: 'code',
      prompt: [
        '1 行目に個数 n、続く n 行に果物の名前が入力されます。',
        '`enumerate` を使って、1 から始まる番号と名前を空白区切りで 1 行ずつ出力してください。',
      ].join('\n'),
      explanation: '`enumerate(fruits, start=1)` で 1 から番号がつきます。',
      tags: ['python'],
      language: 'python',
      starterCode: 'n = int(input())\nfruits = [input() for _ in range(n)]\n',
      referenceSolution:
        'n = int(input())\nfruits = [input() for _ in range(n)]\nfor i, fruit in enumerate(fruits, start=1):\n    print(i, fruit)\n',
      tests: [
        {
          name: '3 つの果物',
          stdin: '3\nりんご\nみかん\nぶどう\n',
          expectedOutput: '1 りんご\n2 みかん\n3 ぶどう\n',
        },
        { name: '1 つだけ', stdin: '1\nもも\n', expectedOutput: '1 もも\n', hidden: true },
      ],
    },
  ],
}
