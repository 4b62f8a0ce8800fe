import type { DemoSection } from './demo-lessons.ts'

/** Markdown from lines, as the lesson editor would save it. */
const md = (...lines: string[]) => lines.join('\n')

/** One short section for each demo course beyond the first three, so every course can be opened. */
export const moreDemoLessons: Record<string, DemoSection[]> = {
  'CSS 入門：色と余白でページを整える': [
    {
      title: 'CSS の基本',
      lessons: [
        {
          title: 'CSS を読み込む',
          body: md(
            'CSS は見た目を決める言語です。HTML の `<head>` で読み込みます。',
            '',
            '```html',
            '<link rel="stylesheet" href="style.css">',
            '```',
            '',
            '```css',
            'h1 {',
            '  color: #1d4ed8;',
            '}',
            '```',
            '',
            '`h1` の部分を **セレクタ**、`color` を **プロパティ** と呼びます。',
          ),
        },
        {
          title: '余白をつける',
          body: md(
            '- `padding` … 枠の内側の余白',
            '- `margin` … 枠の外側の余白',
            '',
            '```css',
            '.card {',
            '  padding: 16px;',
            '  margin-bottom: 24px;',
            '}',
            '```',
          ),
        },
      ],
    },
  ],
  'Flexbox と Grid でつくるレスポンシブレイアウト': [
    {
      title: '横に並べる',
      lessons: [
        {
          title: 'Flexbox の基本',
          body: md(
            '親要素に `display: flex` を書くと、子要素が横に並びます。',
            '',
            '```css',
            '.menu {',
            '  display: flex;',
            '  gap: 16px;',
            '}',
            '```',
            '',
            '`gap` で要素の間をあけられます。',
          ),
        },
        {
          title: 'Grid でカードを並べる',
          body: md(
            '```css',
            '.cards {',
            '  display: grid;',
            '  grid-template-columns: repeat(auto-fill, minmax(240px, 1fr));',
            '  gap: 24px;',
            '}',
            '```',
            '',
            '画面の幅に合わせて、1 行に入るカードの数が自動で変わります。',
          ),
        },
      ],
    },
  ],
  'JavaScript の関数と配列をやさしく': [
    {
      title: '関数',
      lessons: [
        {
          title: '関数をつくる',
          body: md(
            '```js',
            'function addTax(price) {',
            '  return Math.round(price * 1.1)',
            '}',
            'console.log(addTax(100)) // 110',
            '```',
            '',
            '`price` を **引数**、`return` で返す値を **戻り値** と呼びます。',
          ),
        },
        {
          title: '配列の map と filter',
          body: md(
            '```js',
            'const prices = [100, 250, 80]',
            'const withTax = prices.map((price) => addTax(price))',
            'const cheap = prices.filter((price) => price < 200)',
            '```',
            '',
            '- `map` … すべての要素を変換した新しい配列',
            '- `filter` … 条件に合う要素だけの新しい配列',
          ),
        },
      ],
    },
  ],
  'DOM 操作でボタンに命を吹き込む': [
    {
      title: 'DOM の基本',
      lessons: [
        {
          title: '要素を取り出す',
          body: md(
            '```js',
            "const title = document.querySelector('h1')",
            "title.textContent = 'ようこそ！'",
            '```',
            '',
            '`querySelector` には CSS と同じセレクタを書きます。',
          ),
        },
        {
          title: 'クリックに反応する',
          body: md(
            '```js',
            "const button = document.querySelector('#like')",
            'let count = 0',
            "button.addEventListener('click', () => {",
            '  count += 1',
            "  button.textContent = 'いいね ' + count",
            '})',
            '```',
          ),
        },
      ],
    },
  ],
  '非同期処理と fetch：天気予報アプリを作ろう': [
    {
      title: 'データを取ってくる',
      lessons: [
        {
          title: 'Promise とは',
          body: md(
            '時間のかかる処理の「あとで届く結果」を表すのが Promise です。',
            '',
            '```js',
            "fetch('/api/weather').then((response) => response.json())",
            '```',
          ),
        },
        {
          title: 'async/await で書く',
          body: md(
            '```js',
            'async function showWeather() {',
            "  const response = await fetch('/api/weather')",
            '  const data = await response.json()',
            '  console.log(data.today)',
            '}',
            '```',
            '',
            '`await` を使うと、上から順番に読める形で書けます。',
          ),
        },
      ],
    },
  ],
  'Python で業務を自動化しよう': [
    {
      title: 'ファイルを扱う',
      lessons: [
        {
          title: 'CSV を読み込む',
          body: md(
            '```python',
            'import csv',
            '',
            'with open("sales.csv", encoding="utf-8") as f:',
            '    for row in csv.DictReader(f):',
            '        print(row["商品名"], row["金額"])',
            '```',
          ),
        },
        {
          title: 'フォルダを整理する',
          body: md(
            '```python',
            'from pathlib import Path',
            '',
            'for file in Path("downloads").glob("*.pdf"):',
            '    file.rename(Path("pdf") / file.name)',
            '```',
            '',
            '`pathlib` を使うと、Windows でも Mac でも同じコードで動きます。',
          ),
        },
      ],
    },
  ],
  'pandas ではじめるデータ分析': [
    {
      title: 'pandas の基本',
      lessons: [
        {
          title: 'DataFrame を作る',
          body: md(
            '```python',
            'import pandas as pd',
            '',
            'df = pd.read_csv("population.csv")',
            'print(df.head())',
            '```',
            '',
            '`head()` で最初の 5 行を確認できます。',
          ),
        },
        {
          title: '集計する',
          body: md(
            '```python',
            'df.groupby("都道府県")["人口"].sum().sort_values(ascending=False)',
            '```',
            '',
            '`groupby` でグループごとにまとめ、`sum` で合計します。',
          ),
        },
      ],
    },
  ],
  'SQL 入門：データベースに質問してみよう': [
    {
      title: 'SELECT 文',
      lessons: [
        {
          title: 'データを取り出す',
          body: md(
            '```sql',
            'SELECT title, price FROM books;',
            '```',
            '',
            '`SELECT` のあとに欲しい列、`FROM` のあとにテーブル名を書きます。',
          ),
        },
        {
          title: '条件でしぼりこむ',
          body: md(
            '```sql',
            'SELECT title, price',
            'FROM books',
            'WHERE price < 1000',
            'ORDER BY price;',
            '```',
          ),
        },
      ],
    },
  ],
  'Node.js で作る はじめての Web API': [
    {
      title: 'サーバーを立てる',
      lessons: [
        {
          title: 'http モジュール',
          body: md(
            '```js',
            "import { createServer } from 'node:http'",
            '',
            'createServer((request, response) => {',
            "  response.setHeader('content-type', 'application/json')",
            "  response.end(JSON.stringify({ message: 'こんにちは' }))",
            '}).listen(3000)',
            '```',
          ),
        },
        {
          title: 'ルーティング',
          body: md(
            'URL のパスを見て、返す内容を変えることを **ルーティング** と呼びます。',
            '',
            '```js',
            "if (request.url === '/books') {",
            '  response.end(JSON.stringify(books))',
            '}',
            '```',
          ),
        },
      ],
    },
  ],
  'Git と GitHub の基本': [
    {
      title: 'Git をはじめる',
      lessons: [
        {
          title: 'コミットする',
          body: md(
            '```sh',
            'git init',
            'git add index.html',
            'git commit -m "トップページを追加"',
            '```',
            '',
            'コミットは、ファイルの状態を記録した「セーブポイント」です。',
          ),
        },
        {
          title: 'ブランチを切る',
          body: md(
            '```sh',
            'git switch -c feature/contact-form',
            '```',
            '',
            'ブランチを分けると、作業中の変更がほかの作業とまざりません。',
          ),
        },
      ],
    },
  ],
  'ターミナルに慣れよう：コマンドライン入門': [
    {
      title: 'よく使うコマンド',
      lessons: [
        {
          title: '場所を移動する',
          body: md(
            '```sh',
            'pwd        # 今いる場所を表示',
            'ls         # ファイルの一覧',
            'cd project # project フォルダへ移動',
            '```',
          ),
        },
        {
          title: 'フォルダを作る',
          body: md(
            '```sh',
            'mkdir my-site',
            'cd my-site',
            'touch index.html',
            '```',
            '',
            '`No such file or directory` と出たら、場所と名前のつづりを確かめましょう。',
          ),
        },
      ],
    },
  ],
  'React 入門：コンポーネントで考える': [
    {
      title: 'コンポーネント',
      lessons: [
        {
          title: 'JSX を書く',
          body: md(
            '```jsx',
            'function Greeting({ name }) {',
            '  return <p>こんにちは、{name} さん</p>',
            '}',
            '```',
            '',
            '`{ }` の中には JavaScript の式を書けます。',
          ),
        },
        {
          title: 'state で覚える',
          body: md(
            '```jsx',
            'function Counter() {',
            '  const [count, setCount] = useState(0)',
            '  return <button onClick={() => setCount(count + 1)}>{count}</button>',
            '}',
            '```',
          ),
        },
      ],
    },
  ],
  'はじめての Web アクセシビリティ': [
    {
      title: '基本の 3 つ',
      lessons: [
        {
          title: '見出しの順番',
          body: md(
            '見出しは `h1` → `h2` → `h3` の順に使い、段を飛ばさないようにします。',
            '読み上げソフトの利用者は、見出しをたどってページの構成を知ります。',
          ),
        },
        {
          title: '画像の代替テキスト',
          body: md(
            '```html',
            '<img src="graph.png" alt="4 月から 6 月にかけて売上が 2 倍になったグラフ">',
            '```',
            '',
            '`alt` には、画像が伝えたい内容を書きます。飾りの画像は `alt=""` にします。',
          ),
        },
      ],
    },
  ],
  未経験からのエンジニア転職ロードマップ: [
    {
      title: '学習計画',
      lessons: [
        {
          title: 'ゴールを決める',
          body: md(
            '「Web 制作」「Web アプリ開発」「データ分析」など、目指す仕事で学ぶ順番が変わります。',
            '',
            '1. 求人票を 10 件読む',
            '2. よく出てくる技術を書き出す',
            '3. 3 か月ごとの目標に分ける',
          ),
        },
        {
          title: '毎日の習慣',
          body: md(
            '- 1 日 30 分でも毎日さわる',
            '- 学んだことを 3 行で記録する',
            '- 週に 1 回、作ったものを人に見せる',
          ),
        },
      ],
    },
  ],
  ポートフォリオサイトを公開しよう: [
    {
      title: 'つくって公開する',
      lessons: [
        {
          title: '載せる内容を決める',
          body: md(
            '- 自己紹介（どんな仕事がしたいか）',
            '- 作ったもの 3 つ（画面と、工夫したところ）',
            '- 連絡先',
          ),
        },
        {
          title: 'GitHub Pages で公開する',
          body: md(
            '1. リポジトリに `index.html` を置く',
            '2. Settings → Pages で公開するブランチを選ぶ',
            '3. 表示された URL をひらいて確かめる',
          ),
        },
      ],
    },
  ],
  データベース設計の考え方: [
    {
      title: 'テーブルを分ける',
      lessons: [
        {
          title: '主キーと外部キー',
          body: md(
            '```sql',
            'CREATE TABLE members (id INTEGER PRIMARY KEY, name TEXT NOT NULL);',
            'CREATE TABLE orders (',
            '  id INTEGER PRIMARY KEY,',
            '  member_id INTEGER NOT NULL REFERENCES members (id)',
            ');',
            '```',
          ),
        },
        {
          title: '正規化',
          body: md(
            '同じ情報を何か所にも書かないように、テーブルを分けることを **正規化** と呼びます。',
            '会員の住所が注文ごとに書かれていると、引っ越したときに直し漏れが起きます。',
          ),
        },
      ],
    },
  ],
  'TypeScript で安全なコードを書く': [
    {
      title: '型の基本',
      lessons: [
        {
          title: '型注釈',
          body: md(
            '```ts',
            'function addTax(price: number): number {',
            '  return Math.round(price * 1.1)',
            '}',
            "addTax('100') // エラー：string は number に渡せない",
            '```',
          ),
        },
        {
          title: 'interface',
          body: md(
            '```ts',
            'interface Book {',
            '  title: string',
            '  price: number',
            '}',
            '```',
            '',
            'オブジェクトの形に名前をつけて、何度も使い回せます。',
          ),
        },
      ],
    },
  ],
  'Python で Web スクレイピング入門': [
    {
      title: 'ページを読む',
      lessons: [
        {
          title: 'まずはルールを確認',
          body: md(
            '- 利用規約でスクレイピングが禁止されていないか',
            '- `robots.txt` の指示',
            '- アクセスの間隔をあける（1 秒以上）',
          ),
        },
        {
          title: 'HTML を取得する',
          body: md(
            '```python',
            'import urllib.request',
            '',
            'with urllib.request.urlopen("https://example.com/") as response:',
            '    html = response.read().decode("utf-8")',
            'print(html[:200])',
            '```',
          ),
        },
      ],
    },
  ],
  'アルゴリズムの基本：探索と並べ替え': [
    {
      title: '探索',
      lessons: [
        {
          title: '線形探索',
          body: md(
            '先頭から順に 1 つずつ調べる方法です。',
            '',
            '```python',
            'def find(items, target):',
            '    for i, item in enumerate(items):',
            '        if item == target:',
            '            return i',
            '    return -1',
            '```',
          ),
        },
        {
          title: '二分探索',
          body: md(
            '並んだデータなら、真ん中と比べて半分ずつしぼりこめます。',
            '1000 件でも約 10 回の比較で見つかります。',
          ),
        },
      ],
    },
  ],
  'プログラミング的思考をきたえる 30 問': [
    {
      title: '手順に分ける',
      lessons: [
        {
          title: '問題 1：カレーを作る手順',
          body: md(
            'カレーを作る手順を、小学生にもわかる 5 つ以上のステップに分けて書いてみましょう。',
            '',
            '> ヒント：「材料を切る」は、さらに細かく分けられますか？',
          ),
        },
        {
          title: '問題 2：くり返しを見つける',
          body: md(
            '「お皿を 10 枚洗う」を手順にすると、同じ作業がくり返されます。',
            'くり返しの部分と、終わる条件を言葉で書いてみましょう。',
          ),
        },
      ],
    },
  ],
  'Docker でそろえる開発環境': [
    {
      title: 'コンテナの基本',
      lessons: [
        {
          title: 'コンテナとは',
          body: md(
            'アプリと、そのアプリが動くのに必要なものをひとまとめにした箱です。',
            'だれのパソコンでも同じ環境で動かせます。',
          ),
        },
        {
          title: 'Dockerfile を書く',
          body: md(
            '```dockerfile',
            'FROM node:24',
            'WORKDIR /app',
            'COPY package*.json ./',
            'RUN npm ci',
            'COPY . .',
            'CMD ["npm", "start"]',
            '```',
          ),
        },
      ],
    },
  ],
  'CSS アニメーションで動きをつける': [
    {
      title: '動きの基本',
      lessons: [
        {
          title: 'transition',
          body: md(
            '```css',
            '.button {',
            '  transition: background-color 0.2s;',
            '}',
            '.button:hover {',
            '  background-color: #1d4ed8;',
            '}',
            '```',
          ),
        },
        {
          title: '動きを減らす設定に配慮する',
          body: md(
            '```css',
            '@media (prefers-reduced-motion: reduce) {',
            '  * { transition: none; animation: none; }',
            '}',
            '```',
            '',
            '動きで気分が悪くなる人のために、OS の設定を尊重しましょう。',
          ),
        },
      ],
    },
  ],
  'エラーメッセージと仲良くなる デバッグ入門': [
    {
      title: 'エラーを読む',
      lessons: [
        {
          title: 'エラーメッセージの読み方',
          body: md(
            '```text',
            "Uncaught TypeError: Cannot read properties of undefined (reading 'name')",
            '    at main.js:12:20',
            '```',
            '',
            '1. 種類（`TypeError`）',
            '2. 内容（undefined の name を読もうとした）',
            '3. 場所（main.js の 12 行目）',
          ),
        },
        {
          title: 'console.log で確かめる',
          body: md(
            '```js',
            "console.log('user の中身', user)",
            '```',
            '',
            '「たぶんこうなっているはず」を、実際の値で確かめるのがデバッグの基本です。',
          ),
        },
      ],
    },
  ],
  'Python のクラスとオブジェクト指向': [
    {
      title: 'クラスをつくる',
      lessons: [
        {
          title: 'クラスとインスタンス',
          body: md(
            '```python',
            'class Hero:',
            '    def __init__(self, name, hp):',
            '        self.name = name',
            '        self.hp = hp',
            '',
            'hero = Hero("ゆうしゃ", 100)',
            '```',
          ),
        },
        {
          title: 'メソッド',
          body: md(
            '```python',
            'class Hero:',
            '    ...',
            '    def heal(self, amount):',
            '        self.hp += amount',
            '```',
            '',
            'クラスの中に書いた関数を **メソッド** と呼びます。',
          ),
        },
      ],
    },
  ],
  'Web セキュリティの基本：XSS と SQL インジェクション': [
    {
      title: 'よくある攻撃',
      lessons: [
        {
          title: 'XSS',
          body: md(
            '利用者が入力した文字を、そのまま HTML として表示すると、スクリプトを埋め込まれてしまいます。',
            '',
            '```js',
            'element.textContent = comment // innerHTML ではなく textContent',
            '```',
          ),
        },
        {
          title: 'SQL インジェクション',
          body: md(
            '```js',
            "db.query('SELECT * FROM users WHERE name = ?', [name])",
            '```',
            '',
            'SQL に値を文字列でつなげず、プレースホルダーで渡します。',
          ),
        },
      ],
    },
  ],
}
