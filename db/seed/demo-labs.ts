/** Demo labs (works learners built) and the stories told about them, all by demo users. */
export type DemoLab = {
  /** Key the stories refer to. */
  key: string
  author: string
  title: string
  description: string
  tags: string[]
  repositoryUrl: string | null
  demoUrl: string | null
}

export type DemoLabStory = {
  author: string
  /** The demo lab it tells of, by key; null for a story of no lab. */
  lab: string | null
  title: string
  body: string
  tags: string[]
}

export const demoLabs: DemoLab[] = [
  {
    key: 'kakeibo',
    author: 'sakura_dev',
    title: 'ふたり暮らしの家計簿アプリ',
    description: [
      '## どんなアプリ？',
      '',
      'パートナーと共有できる、シンプルな家計簿です。レシートの金額とカテゴリを入れるだけで、月ごとの支出がグラフで見られます。',
      '',
      '## 使った技術',
      '',
      '- React と TypeScript',
      '- グラフは Chart.js',
      '- データはブラウザの IndexedDB に保存',
      '',
      '## 工夫したところ',
      '',
      'スマートフォンで片手入力できるよう、金額入力のボタンを画面の下半分にまとめました。',
    ].join('\n'),
    tags: ['react', 'typescript', 'chart.js'],
    repositoryUrl: 'https://github.com/sakura-dev/kakeibo',
    demoUrl: null,
  },
  {
    key: 'weather-bot',
    author: 'kenta_py',
    title: '朝の天気を通知する Python ボット',
    description: [
      '## 概要',
      '',
      '毎朝 7 時に、住んでいる地域の天気と傘が必要かどうかをチャットに送るボットです。',
      '',
      '```python',
      'if forecast.rain_probability >= 50:',
      '    send("今日は傘を持っていきましょう ☔")',
      '```',
      '',
      '気象庁の公開データを取得し、cron で定期実行しています。',
    ].join('\n'),
    tags: ['python', '自動化'],
    repositoryUrl: 'https://github.com/kenta-py/morning-weather',
    demoUrl: null,
  },
  {
    key: 'a11y-checker',
    author: 'yui_frontend',
    title: '配色コントラストチェッカー',
    description: [
      '## 概要',
      '',
      '文字色と背景色を選ぶと、WCAG のコントラスト比を計算して読みやすさを判定するツールです。',
      '',
      '## 使った技術',
      '',
      '- HTML と CSS、素の JavaScript',
      '- コントラスト比の計算式は WCAG 2.2 に沿って実装',
    ].join('\n'),
    tags: ['javascript', 'アクセシビリティ', 'css'],
    repositoryUrl: 'https://github.com/yui-frontend/contrast-checker',
    demoUrl: 'https://yui-frontend.github.io/contrast-checker/',
  },
]

export const demoLabStories: DemoLabStory[] = [
  {
    author: 'sakura_dev',
    lab: 'kakeibo',
    title: '家計簿アプリで useReducer に切り替えた理由',
    body: [
      '最初は useState をいくつも並べていましたが、「支出を追加したら合計も月別の集計も変わる」という更新が増えるたびに、どこかの値を更新し忘れるバグが出ました。',
      '',
      '## useReducer にしてよかったこと',
      '',
      '- 状態の変わり方が reducer 1 か所にまとまった',
      '- 「支出を追加」「支出を削除」という操作の名前でテストが書けた',
      '',
      '```ts',
      "type Action = { type: 'add'; expense: Expense } | { type: 'remove'; id: string }",
      '```',
      '',
      '状態が 3 つを超えたら useReducer を検討する、を自分のルールにしています。',
    ].join('\n'),
    tags: ['react', '状態管理'],
  },
  {
    author: 'kenta_py',
    lab: 'weather-bot',
    title: 'cron が動かなかった日のこと',
    body: [
      'ボットを作って 3 日目、朝になっても通知が来ませんでした。原因は cron の環境変数でした。',
      '',
      '## わかったこと',
      '',
      'cron はログインシェルの設定を読み込まないので、`PATH` も API キーも空っぽです。',
      '',
      '```sh',
      '0 7 * * * cd /home/kenta/bot && /usr/bin/env $(cat .env) python3 main.py',
      '```',
      '',
      'ログをファイルに残すようにしてから、原因を探すのがずっと楽になりました。',
    ].join('\n'),
    tags: ['python', 'cron'],
  },
  {
    author: 'yui_frontend',
    lab: 'a11y-checker',
    title: 'コントラスト比の計算でつまずいたガンマ補正',
    body: [
      'RGB の値をそのまま平均すると、明るさの判定がずれてしまいます。WCAG の相対輝度は、sRGB のガンマ補正を外してから計算します。',
      '',
      '```js',
      'const linear = (c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)',
      '```',
      '',
      '仕様の式を 1 行ずつテストにしてから実装したので、ブラウザの開発者ツールの値とぴったり一致しました。',
    ].join('\n'),
    tags: ['javascript', 'アクセシビリティ'],
  },
  {
    author: 'hiro_backend',
    lab: null,
    title: 'はじめての個人開発でデータベースを選んだ話',
    body: [
      '小さなアプリなら SQLite で十分、というのが今の結論です。',
      '',
      '## 決め手',
      '',
      '- ファイル 1 つなのでバックアップが簡単',
      '- 本番と同じものを手元で動かせる',
      '',
      'ユーザーが増えて書き込みが重なるようになったら、そのとき PostgreSQL へ移れば大丈夫です。',
    ].join('\n'),
    tags: ['sql', 'sqlite', '個人開発'],
  },
]
