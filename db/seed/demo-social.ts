import type { ContentKind } from '#db/schema.ts'

/** Demo studies (learning notes) and the likes, comments and follows between demo users. */
export type DemoStudy = {
  author: string
  title: string
  summary: string
  /** Markdown, as the study editor saves it. */
  notes: string
  tags: string[]
}

/** An item named by its kind and title (titles are unique within the demo content). */
export type DemoSubject = { kind: ContentKind; title: string }

export type DemoComment = DemoSubject & {
  author: string
  body: string
  replies?: { author: string; body: string }[]
}

export const demoStudies: DemoStudy[] = [
  {
    author: 'sakura_dev',
    title: 'CSS の余白、margin と padding の違いをやっと理解した',
    summary: 'ボックスモデルの図を自分で描いてみたら、margin と padding の違いがすっきりしました。',
    notes: [
      '## きっかけ',
      '',
      'ボタンの中の文字と枠の間を広げたいのに、`margin` を増やしてもボタンの外側が広がるだけでした。',
      '',
      '## わかったこと',
      '',
      '- `padding` … 枠（border）の **内側** の余白',
      '- `margin` … 枠の **外側** の余白',
      '',
      '```css',
      '.button {',
      '  padding: 8px 16px; /* 文字と枠の間 */',
      '  margin: 0 8px;     /* となりのボタンとの間 */',
      '}',
      '```',
      '',
      '## 次にやること',
      '',
      '開発者ツールのボックスモデル表示で、ほかのサイトの余白も観察してみます。',
    ].join('\n'),
    tags: ['css', '初心者'],
  },
  {
    author: 'kenta_py',
    title: 'Python の for 文で enumerate を使うと便利だった',
    summary: '番号つきでリストを回したいとき、enumerate を使うとすっきり書けることを学びました。',
    notes: [
      '## 前の書き方',
      '',
      '```python',
      'fruits = ["りんご", "みかん", "ぶどう"]',
      'for i in range(len(fruits)):',
      '    print(i + 1, fruits[i])',
      '```',
      '',
      '## enumerate を使った書き方',
      '',
      '```python',
      'for number, fruit in enumerate(fruits, start=1):',
      '    print(number, fruit)',
      '```',
      '',
      '`start=1` を付けると 1 から数えてくれます。添字の計算がなくなって読みやすくなりました。',
    ].join('\n'),
    tags: ['python', '初心者'],
  },
  {
    author: 'yui_frontend',
    title: 'JavaScript の const と let の使い分けメモ',
    summary: '迷ったら const、という理由を自分の言葉でまとめました。',
    notes: [
      '## ルール',
      '',
      '1. まず `const` で書く',
      '2. あとで値を入れ替える必要が出たら `let` に変える',
      '3. `var` は使わない',
      '',
      '## なぜ const から？',
      '',
      '`const` にしておくと、うっかり上書きしたときにエラーで気づけます。',
      '',
      '```js',
      "const greeting = 'こんにちは'",
      "greeting = 'こんばんは' // TypeError になる",
      '```',
      '',
      '> 配列やオブジェクトは `const` でも中身は変えられる点に注意。',
    ].join('\n'),
    tags: ['javascript', '初心者'],
  },
  {
    author: 'hiro_backend',
    title: 'HTML のフォームとラベルを正しくつなぐ',
    summary: 'label の for と input の id をそろえる理由を、読み上げソフトで確かめました。',
    notes: [
      '## 書き方',
      '',
      '```html',
      '<label for="email">メールアドレス</label>',
      '<input id="email" type="email" name="email">',
      '```',
      '',
      '## わかったこと',
      '',
      '- ラベルをクリックすると入力欄にカーソルが移る',
      '- 読み上げソフトが「メールアドレス、編集」と読んでくれる',
      '',
      '見た目は同じでも、つながっているかどうかで使いやすさが大きく変わります。',
    ].join('\n'),
    tags: ['html', 'アクセシビリティ'],
  },
  {
    author: 'techlab',
    title: '学習記録のつけ方：毎日 3 行でいい',
    summary: '続けるコツは短く書くこと。編集部おすすめの学習メモの型を紹介します。',
    notes: [
      '## 3 行メモの型',
      '',
      '1. **今日やったこと**：例）JavaScript の if 文を練習した',
      '2. **つまずいたこと**：例）`=` と `===` を書き間違えた',
      '3. **次にやること**：例）else if を使った問題を 3 問解く',
      '',
      '## ポイント',
      '',
      '- 完璧に書こうとしない',
      '- エラーメッセージはそのまま貼っておく',
      '- 1 週間に 1 回、読み返して「できるようになったこと」を数える',
    ].join('\n'),
    tags: ['学習法'],
  },
]

/** Who follows whom: [follower, followee]. */
export const demoFollows: [string, string][] = [
  ['sakura_dev', 'techlab'],
  ['kenta_py', 'techlab'],
  ['yui_frontend', 'techlab'],
  ['hiro_backend', 'techlab'],
  ['sakura_dev', 'yui_frontend'],
  ['yui_frontend', 'sakura_dev'],
  ['kenta_py', 'hiro_backend'],
  ['hiro_backend', 'kenta_py'],
  ['techlab', 'sakura_dev'],
]

/** Who likes what. */
export const demoLikes: (DemoSubject & { user: string })[] = [
  { user: 'sakura_dev', kind: 'course', title: 'はじめての HTML：Web ページの骨組みをつくろう' },
  { user: 'kenta_py', kind: 'course', title: 'はじめての HTML：Web ページの骨組みをつくろう' },
  { user: 'yui_frontend', kind: 'course', title: 'JavaScript 入門：変数・条件分岐・繰り返し' },
  { user: 'hiro_backend', kind: 'course', title: 'Python 入門：はじめの一歩' },
  { user: 'techlab', kind: 'study', title: 'CSS の余白、margin と padding の違いをやっと理解した' },
  {
    user: 'yui_frontend',
    kind: 'study',
    title: 'CSS の余白、margin と padding の違いをやっと理解した',
  },
  { user: 'sakura_dev', kind: 'study', title: 'Python の for 文で enumerate を使うと便利だった' },
  { user: 'kenta_py', kind: 'lab', title: 'ふたり暮らしの家計簿アプリ' },
  { user: 'yui_frontend', kind: 'lab', title: '朝の天気を通知する Python ボット' },
  { user: 'hiro_backend', kind: 'lab_story', title: 'cron が動かなかった日のこと' },
]

export const demoComments: DemoComment[] = [
  {
    kind: 'course',
    title: 'はじめての HTML：Web ページの骨組みをつくろう',
    author: 'sakura_dev',
    body: 'ひな形の説明がていねいで、最初の一歩にちょうどよかったです。`lang="ja"` の理由まで書いてあるのがうれしい！',
    replies: [
      {
        author: 'techlab',
        body: 'ありがとうございます！次は CSS 入門でページに色をつけてみてください。',
      },
    ],
  },
  {
    kind: 'study',
    title: 'CSS の余白、margin と padding の違いをやっと理解した',
    author: 'yui_frontend',
    body: '開発者ツールのボックスモデル表示、本当に便利ですよね。`box-sizing: border-box` も調べてみると面白いですよ。',
    replies: [{ author: 'sakura_dev', body: '知らなかったです、さっそく調べてみます！' }],
  },
  {
    kind: 'study',
    title: 'Python の for 文で enumerate を使うと便利だった',
    author: 'hiro_backend',
    body: '`zip` と組み合わせると、2 つのリストを番号つきで回すこともできます。',
  },
  {
    kind: 'lab',
    title: '配色コントラストチェッカー',
    author: 'sakura_dev',
    body: 'デザインを決めるときに毎回使っています。色をコピーできるボタンがあるともっと助かります。',
  },
  {
    kind: 'lab_story',
    title: 'cron が動かなかった日のこと',
    author: 'hiro_backend',
    body: 'cron の環境変数、わたしも同じところでハマりました。ログを残すのは大事ですね。',
  },
]
