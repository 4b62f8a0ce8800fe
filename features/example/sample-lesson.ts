/**
 * The lesson /example shows to anyone, without an account: a real first lesson, kept in the
 * code rather than the database so it is there on every installation, seeded or not.
 */
export const SAMPLE_LESSON = {
  course: 'はじめての JavaScript',
  section: '第 1 章 JavaScript にふれてみよう',
  title: '変数で値に名前をつける',
  body: `プログラムは、たくさんの値（数や文字）を扱います。値に**名前**をつけておくと、あとから何度でも使えて、読みやすいコードになります。この名前をつけた入れ物が**変数**です。

## const で変数を作る

JavaScript では \`const\` を使って変数を作ります。

\`\`\`js
const name = 'テックラボ'
const year = 2026

console.log(name) // テックラボ
console.log(year + 1) // 2027
\`\`\`

\`=\` は「等しい」ではなく、「右の値を左の名前に入れる」という意味です。

## 値を変えたいときは let

\`const\` で作った変数には、あとから別の値を入れられません。値が変わるものには \`let\` を使います。

\`\`\`js
let count = 0
count = count + 1
count += 1

console.log(count) // 2
\`\`\`

> 迷ったら \`const\` を使い、どうしても値を変える必要があるときだけ \`let\` にしましょう。意図せず値が書き換わるミスを防げます。

## 文字列と組み合わせる

バッククォート（\\\`）で囲んだ文字列の中では、\`\${ }\` を使って変数の値を埋め込めます。

\`\`\`js
const learner = 'さくら'
const lessons = 3

console.log(\`\${learner}さんは今日 \${lessons} つのレッスンを終えました\`)
\`\`\`

## まとめ

| キーワード | 使いどころ |
| --- | --- |
| \`const\` | 値を変えない変数（基本はこちら） |
| \`let\` | あとで値を変える変数 |

- 変数は値につける名前
- \`=\` は右の値を左に入れる
- テンプレート文字列で変数を文章に埋め込める

次のレッスンでは、条件によって処理を分ける \`if\` 文を学びます。
`,
} as const
