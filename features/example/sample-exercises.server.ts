import { type QuestionFields, questionFields } from '#features/exercises/question-input.ts'

/**
 * The exercise set at the end of /example: one question of each kind, JavaScript and Python
 * code included, answerable by a guest. Kept in the code like the sample lesson, and server
 * only (`.server`): the correct options, accepted answers and hidden tests never reach the
 * browser; /api grades a guest's answer against them without storing anything.
 */
const SAMPLE_QUESTIONS: readonly (QuestionFields & { id: string })[] = [
  {
    id: 'sample-const',
    kind: 'single',
    prompt: 'あとから**別の値を入れられない**変数を作るキーワードはどれですか？',
    explanation:
      '`const` で作った変数には再代入できません。値を変えたいときは `let` を使います。`var` は古い書き方で、今はほとんど使いません。',
    difficulty: 'beginner',
    access: 'free',
    tags: ['javascript'],
    options: [
      { id: 'let', text: 'let', correct: false },
      { id: 'const', text: 'const', correct: true },
      { id: 'var', text: 'var', correct: false },
    ],
  },
  {
    id: 'sample-names',
    kind: 'multiple',
    prompt: 'JavaScript の変数名として**使えるもの**をすべて選んでください。',
    explanation:
      '変数名には英字・数字・`_`・`$` が使えますが、数字から始めることはできません。`-` は引き算の記号なので名前には使えません。',
    difficulty: 'beginner',
    access: 'free',
    tags: ['javascript'],
    options: [
      { id: 'camel', text: 'userName', correct: true },
      { id: 'digit', text: '1stPlace', correct: false },
      { id: 'underscore', text: '_count', correct: true },
      { id: 'hyphen', text: 'user-name', correct: false },
    ],
  },
  {
    id: 'sample-template',
    kind: 'text',
    // Markdown showing JavaScript's template syntax: `\${` is the code the learner reads.
    prompt: `\`const name = "さくら"\` のとき、\`\` \`こんにちは、\${name}さん\` \`\` を \`console.log\` で表示すると何と出ますか？`,
    explanation: `テンプレート文字列の \`\${ }\` の中は、変数の値に置き換わります。`,
    difficulty: 'beginner',
    access: 'free',
    tags: ['javascript'],
    acceptedAnswers: ['こんにちは、さくらさん'],
    pattern: null,
  },
  {
    id: 'sample-js-sum',
    kind: 'code',
    prompt:
      '1 行目に整数 `a`、2 行目に整数 `b` が与えられます。`a + b` を表示するプログラムを JavaScript で書いてください。\n\n入力は `input()` で 1 行ずつ読めます。',
    explanation:
      '`input()` で読んだ値は文字列なので、`Number()` で数に変えてから足します。そのまま `+` すると `"1" + "2"` は `"12"` になってしまいます。',
    difficulty: 'beginner',
    access: 'free',
    tags: ['javascript'],
    language: 'javascript',
    starterCode:
      'const a = input()\nconst b = input()\n// a と b を数に変えて、合計を表示しましょう\n',
    referenceSolution: 'const a = Number(input())\nconst b = Number(input())\nconsole.log(a + b)\n',
    tests: [
      { name: '1 + 2', stdin: '1\n2\n', expectedOutput: '3', hidden: false },
      { name: '負の数', stdin: '-5\n8\n', expectedOutput: '3', hidden: false },
      { name: '大きな数', stdin: '123456\n654321\n', expectedOutput: '777777', hidden: true },
    ],
    timeLimitMs: 2000,
  },
  {
    id: 'sample-py-greet',
    kind: 'code',
    prompt:
      '名前が 1 行与えられます。`こんにちは、{名前}さん` と表示するプログラムを Python で書いてください。',
    explanation: '`input()` で 1 行読み、f 文字列 `f"こんにちは、{name}さん"` で埋め込みます。',
    difficulty: 'beginner',
    access: 'free',
    tags: ['python'],
    language: 'python',
    starterCode: 'name = input()\n# あいさつを表示しましょう\n',
    referenceSolution: 'name = input()\nprint(f"こんにちは、{name}さん")\n',
    tests: [
      {
        name: 'さくら',
        stdin: 'さくら\n',
        expectedOutput: 'こんにちは、さくらさん',
        hidden: false,
      },
      { name: 'Taro', stdin: 'Taro\n', expectedOutput: 'こんにちは、Taroさん', hidden: true },
    ],
    timeLimitMs: 5000,
  },
]

// Parsed once at start-up: a typo in the sample fails loudly, not when a guest answers.
export const sampleQuestions = SAMPLE_QUESTIONS.map((question) => ({
  ...questionFields.parse(question),
  id: question.id,
}))

export type SampleQuestion = (typeof sampleQuestions)[number]

export function sampleQuestion(id: string): SampleQuestion | undefined {
  return sampleQuestions.find((question) => question.id === id)
}
