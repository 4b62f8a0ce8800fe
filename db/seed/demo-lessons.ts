import type { CourseAccess } from '#db/schema.ts'
import { moreDemoLessons } from './demo-lessons-more.ts'

export type DemoLesson = { title: string; body: string; access?: CourseAccess }
export type DemoSection = { title: string; lessons: DemoLesson[] }

/** The first demo courses' lessons: a little longer, one of them premium inside a free course. */
const firstDemoLessons: Record<string, DemoSection[]> = {
  'はじめての HTML：Web ページの骨組みをつくろう': [
    {
      title: 'HTML の基本',
      lessons: [
        {
          title: 'HTML とは',
          body: `HTML（HyperText Markup Language）は、Web ページの **骨組み** を書くための言語です。
文章に「ここは見出し」「ここは段落」と **タグ** で意味をつけていきます。

\`\`\`html
<h1>わたしのページ</h1>
<p>はじめて HTML を書きました。</p>
\`\`\`

- \`<h1>\` … いちばん大きな見出し
- \`<p>\` … 段落（paragraph）

タグは \`<p>\` で始まり \`</p>\` で終わります。間に書いた文字が、そのタグの中身です。`,
        },
        {
          title: 'ページのひな形',
          body: `どの HTML ファイルも、次の形から書き始めます。

\`\`\`html
<!doctype html>
<html lang="ja">
  <head>
    <meta charset="utf-8">
    <title>はじめてのページ</title>
  </head>
  <body>
    <h1>こんにちは</h1>
  </body>
</html>
\`\`\`

1. \`<head>\` にはページの情報（タイトルや文字コード）を書きます。
2. \`<body>\` には画面に表示される中身を書きます。

> \`lang="ja"\` を書いておくと、読み上げソフトが日本語として読んでくれます。`,
        },
      ],
    },
    {
      title: 'リンクと画像',
      lessons: [
        {
          title: 'リンクを張る',
          body: `\`<a>\` タグの \`href\` に行き先を書きます。

\`\`\`html
<a href="https://developer.mozilla.org/ja/">MDN Web Docs</a>
\`\`\`

リンクの文字は「こちら」ではなく、行き先がわかる言葉にしましょう。`,
        },
      ],
    },
  ],
  'JavaScript 入門：変数・条件分岐・繰り返し': [
    {
      title: '値と変数',
      lessons: [
        {
          title: '変数をつくる',
          body: `変数は値に名前をつけて取っておく箱です。\`let\` か \`const\` でつくります。

\`\`\`js
const name = 'さくら'
let count = 0
count = count + 1
console.log(name, count) // さくら 1
\`\`\`

- \`const\` … あとから入れ替えない値
- \`let\` … あとから入れ替える値

迷ったら \`const\` を使い、入れ替える必要が出てきたら \`let\` に変えます。`,
        },
        {
          title: 'if 文で分岐する',
          body: `\`\`\`js
const score = 72
if (score >= 80) {
  console.log('合格です')
} else if (score >= 60) {
  console.log('あと少し！')
} else {
  console.log('もう一度挑戦しよう')
}
\`\`\`

比較には \`===\`（等しい）、\`!==\`（等しくない）、\`>=\` などを使います。`,
        },
      ],
    },
    {
      title: '繰り返し',
      lessons: [
        {
          title: 'for 文',
          body: `同じ処理を何度も行うときは \`for\` 文を使います。

\`\`\`js
for (let i = 1; i <= 3; i++) {
  console.log(\`\${i} 回目\`)
}
\`\`\`

配列の中身を順に取り出すなら \`for...of\` が読みやすいです。

\`\`\`js
const fruits = ['りんご', 'みかん', 'ぶどう']
for (const fruit of fruits) {
  console.log(fruit)
}
\`\`\``,
        },
      ],
    },
  ],
  'Python 入門：はじめの一歩': [
    {
      title: 'Python を動かそう',
      lessons: [
        {
          title: 'print で表示する',
          body: `Python では \`print\` で文字を画面に表示します。

\`\`\`python
print("こんにちは、Python！")
print(1 + 2)
\`\`\`

文字列は \`"\` か \`'\` で囲みます。数字の計算はそのまま書けます。`,
        },
        {
          title: '変数とリスト',
          body: `\`\`\`python
name = "たろう"
scores = [80, 65, 92]
print(name, "さんの平均点は", sum(scores) / len(scores))
\`\`\`

リストは \`[ ]\` で値を並べたものです。\`len\` で個数、\`sum\` で合計がわかります。`,
        },
        {
          title: 'for 文とリスト内包表記',
          access: 'premium',
          body: `\`\`\`python
prices = [120, 300, 98]
with_tax = [round(price * 1.1) for price in prices]
print(with_tax)  # [132, 330, 108]
\`\`\`

リスト内包表記を使うと、「リストの全部に同じ計算をする」処理を 1 行で書けます。`,
        },
      ],
    },
  ],
}

/**
 * Real beginner lessons for every demo course (keyed by course title), so a newcomer's first
 * start opens courses that can be read, not only listed.
 */
export const demoLessons: Record<string, DemoSection[]> = {
  ...firstDemoLessons,
  ...moreDemoLessons,
}
