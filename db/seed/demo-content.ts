import type { CourseAccess, CourseLevel } from '#db/schema.ts'

export type DemoUser = { username: string; displayName: string; bio: string }
export type DemoCourse = {
  author: string
  title: string
  summary: string
  level: CourseLevel
  access: CourseAccess
  /** Normalised tag names, as the course editor saves them. */
  tags: string[]
}

export const demoUsers: DemoUser[] = [
  {
    username: 'techlab',
    displayName: 'テックラボ編集部',
    bio: 'はじめてプログラミングを学ぶ人のための講座をつくっています。わからないことは気軽にコメントしてください。',
  },
  {
    username: 'sakura_dev',
    displayName: '佐藤さくら',
    bio: '事務職から Web エンジニアに転職して 3 年目。つまずいたところをそのまま教材にしています。',
  },
  {
    username: 'kenta_py',
    displayName: '田中健太',
    bio: 'データ分析と Python が好きです。業務の自動化の話をよく書きます。',
  },
  {
    username: 'yui_frontend',
    displayName: '鈴木ゆい',
    bio: 'フロントエンドエンジニア。アクセシビリティと CSS の話題が得意です。',
  },
  {
    username: 'hiro_backend',
    displayName: '高橋ひろし',
    bio: 'サーバーサイドとデータベースを担当しています。SQL は友だち。',
  },
]

export const demoCourses: DemoCourse[] = [
  {
    author: 'techlab',
    title: 'はじめての HTML：Web ページの骨組みをつくろう',
    summary:
      '見出し・段落・リンク・画像など、Web ページを形づくるタグを一つずつ手を動かして覚えます。',
    level: 'beginner',
    access: 'free',
    tags: ['html', '初心者'],
  },
  {
    author: 'techlab',
    title: 'CSS 入門：色と余白でページを整える',
    summary:
      'セレクタ、色、フォント、余白、ボックスモデルの基本を、自己紹介ページを仕上げながら学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['css', '初心者'],
  },
  {
    author: 'yui_frontend',
    title: 'Flexbox と Grid でつくるレスポンシブレイアウト',
    summary:
      'スマートフォンでもパソコンでも見やすいレイアウトを、Flexbox と CSS Grid で組み立てます。',
    level: 'intermediate',
    access: 'free',
    tags: ['css', 'flexbox', 'grid', 'レスポンシブ'],
  },
  {
    author: 'techlab',
    title: 'JavaScript 入門：変数・条件分岐・繰り返し',
    summary:
      'プログラミングの三つの基本「順番・分岐・繰り返し」を、ブラウザのコンソールで試しながら身につけます。',
    level: 'beginner',
    access: 'free',
    tags: ['javascript', '初心者'],
  },
  {
    author: 'sakura_dev',
    title: 'JavaScript の関数と配列をやさしく',
    summary:
      '関数の作り方、引数と戻り値、配列の map・filter を、買い物リストアプリを作りながら学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['javascript', '関数', '配列'],
  },
  {
    author: 'yui_frontend',
    title: 'DOM 操作でボタンに命を吹き込む',
    summary:
      'クリックで表示が変わるボタン、入力チェック付きのフォームなど、動くページの作り方を学びます。',
    level: 'beginner',
    access: 'premium',
    tags: ['javascript', 'dom'],
  },
  {
    author: 'sakura_dev',
    title: '非同期処理と fetch：天気予報アプリを作ろう',
    summary:
      'Promise と async/await の考え方を、公開 API からデータを取ってくるアプリで体験します。',
    level: 'intermediate',
    access: 'premium',
    tags: ['javascript', '非同期処理', 'api'],
  },
  {
    author: 'kenta_py',
    title: 'Python 入門：はじめの一歩',
    summary:
      'print から始めて、変数、文字列、リスト、if 文、for 文まで。Python の基本を一通り学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['python', '初心者'],
  },
  {
    author: 'kenta_py',
    title: 'Python で業務を自動化しよう',
    summary:
      'CSV や Excel ファイルの集計、フォルダ整理など、毎日の作業を Python で短くする方法を学びます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['python', '自動化'],
  },
  {
    author: 'kenta_py',
    title: 'pandas ではじめるデータ分析',
    summary:
      '表形式のデータを読み込み、並べ替え、集計、グラフ化するまでを、実際の公開データで練習します。',
    level: 'intermediate',
    access: 'premium',
    tags: ['python', 'pandas', 'データ分析'],
  },
  {
    author: 'hiro_backend',
    title: 'SQL 入門：データベースに質問してみよう',
    summary: 'SELECT、WHERE、ORDER BY、JOIN を、本屋さんの在庫データを使って少しずつ覚えます。',
    level: 'beginner',
    access: 'free',
    tags: ['sql', 'データベース', '初心者'],
  },
  {
    author: 'hiro_backend',
    title: 'Node.js で作る はじめての Web API',
    summary:
      'リクエストとレスポンス、ルーティング、JSON の返し方など、サーバーサイドの基本を学びます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['node.js', 'javascript', 'api'],
  },
  {
    author: 'techlab',
    title: 'Git と GitHub の基本',
    summary:
      'コミット、ブランチ、プルリクエストまで。チーム開発に欠かせない道具を、ひとりでも練習できる形で学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['git', 'github'],
  },
  {
    author: 'techlab',
    title: 'ターミナルに慣れよう：コマンドライン入門',
    summary: 'cd、ls、mkdir などのよく使うコマンドと、エラーメッセージの読み方を学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['ターミナル', '初心者'],
  },
  {
    author: 'yui_frontend',
    title: 'React 入門：コンポーネントで考える',
    summary: 'JSX、props、state の基本を、ToDo アプリを一から作りながら理解します。',
    level: 'intermediate',
    access: 'premium',
    tags: ['react', 'javascript'],
  },
  {
    author: 'yui_frontend',
    title: 'はじめての Web アクセシビリティ',
    summary:
      '誰にとっても使いやすいページにするための、見出し・ラベル・コントラストの基本を学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['アクセシビリティ', 'html'],
  },
  {
    author: 'sakura_dev',
    title: '未経験からのエンジニア転職ロードマップ',
    summary:
      '学習計画の立て方、ポートフォリオの作り方、面接での話し方まで、転職経験者の視点でまとめました。',
    level: 'beginner',
    access: 'free',
    tags: ['キャリア', '転職'],
  },
  {
    author: 'sakura_dev',
    title: 'ポートフォリオサイトを公開しよう',
    summary:
      'HTML・CSS・JavaScript で自己紹介サイトを作り、インターネットに公開するまでを一緒に進めます。',
    level: 'beginner',
    access: 'premium',
    tags: ['html', 'css', 'javascript', 'ポートフォリオ'],
  },
  {
    author: 'hiro_backend',
    title: 'データベース設計の考え方',
    summary: 'テーブルの分け方、主キーと外部キー、正規化の基本を、会員制サイトを例に学びます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['データベース', 'sql', '設計'],
  },
  {
    author: 'hiro_backend',
    title: 'TypeScript で安全なコードを書く',
    summary:
      '型注釈、インターフェース、ジェネリクスの基本と、JavaScript から移行するときのコツを学びます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['typescript', 'javascript'],
  },
  {
    author: 'kenta_py',
    title: 'Python で Web スクレイピング入門',
    summary: 'Web ページから情報を集める方法と、守るべきマナーやルールを学びます。',
    level: 'intermediate',
    access: 'free',
    tags: ['python', 'スクレイピング'],
  },
  {
    author: 'techlab',
    title: 'アルゴリズムの基本：探索と並べ替え',
    summary:
      '線形探索、二分探索、バブルソートなどを図と短いコードで理解し、計算量の感覚をつかみます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['アルゴリズム'],
  },
  {
    author: 'techlab',
    title: 'プログラミング的思考をきたえる 30 問',
    summary: '身近な問題を小さな手順に分けて考える練習問題です。言語を選ばずに取り組めます。',
    level: 'beginner',
    access: 'free',
    tags: ['プログラミング的思考', '初心者'],
  },
  {
    author: 'hiro_backend',
    title: 'Docker でそろえる開発環境',
    summary:
      'コンテナの考え方と、Dockerfile・compose の基本を、Web アプリの開発環境づくりで学びます。',
    level: 'advanced',
    access: 'premium',
    tags: ['docker', '開発環境'],
  },
  {
    author: 'yui_frontend',
    title: 'CSS アニメーションで動きをつける',
    summary: 'transition と keyframes を使って、控えめで気持ちのよい動きをつける方法を学びます。',
    level: 'intermediate',
    access: 'free',
    tags: ['css', 'アニメーション'],
  },
  {
    author: 'sakura_dev',
    title: 'エラーメッセージと仲良くなる デバッグ入門',
    summary: 'エラーの読み方、console.log と開発者ツールの使い方、原因の絞り込み方を学びます。',
    level: 'beginner',
    access: 'free',
    tags: ['デバッグ', 'javascript', '初心者'],
  },
  {
    author: 'kenta_py',
    title: 'Python のクラスとオブジェクト指向',
    summary: 'クラス、インスタンス、メソッド、継承を、RPG のキャラクターづくりで楽しく学びます。',
    level: 'intermediate',
    access: 'premium',
    tags: ['python', 'オブジェクト指向'],
  },
  {
    author: 'hiro_backend',
    title: 'Web セキュリティの基本：XSS と SQL インジェクション',
    summary: 'よくある攻撃の仕組みと、入力のチェックやエスケープで防ぐ方法を学びます。',
    level: 'advanced',
    access: 'premium',
    tags: ['セキュリティ', 'web'],
  },
]
