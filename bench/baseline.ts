/**
 * The bare baselines the benchmark compares the real server with: a Fastify instance with no
 * hooks, plugins, database or React Router, serving
 *
 * - `GET /api/courses`: the real server's JSON, parsed once and serialised by Fastify per request;
 * - `GET /` and `GET /courses`: a `renderToString` per request of a component tree that mirrors
 *   the app's (document, header, layout, page, course cards, footer, with the same hooks) and
 *   renders the same markup from the same data, which the real server handed over once.
 *
 * The app's components are `.tsx` and use React Router's `Link`, so they cannot run here: the
 * tree is rebuilt with `createElement`. The benchmark checks that the markup up to the first
 * `<script>` is identical to the real page's. The scripts after the body are the real page's
 * (scroll restoration, router context, manifest) copied verbatim, plus the loader data,
 * serialised per request, in place of React Router's streamed turbo-stream payload.
 */
import Fastify, { type FastifyInstance } from 'fastify'
import {
  createContext,
  createElement as h,
  type ReactNode,
  useContext,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { renderToString } from 'react-dom/server'
import type { CourseCard as Course } from '#features/courses/course-card.ts'
import type { WritingCard } from '#features/home/newest-writing.server.ts'
import type { Page } from '#features/pagination.ts'
import type { PublicSettings } from '#server/config.ts'

/** What a page's markup needs beside its body: read once from the real page. */
export type PageShell = {
  title: string
  description: string
  modulePreloads: string[]
  stylesheets: string[]
  /** The inline scripts after the body, except the streamed loader data. */
  scripts: { module: boolean; text: string }[]
}

export type BaselineInput = {
  settings: PublicSettings
  /** The body of the real `GET /api/courses`, parsed. */
  courses: unknown
  /** `GET /api/courses?limit=6`: what the home page's loader reads. */
  featured: Course[]
  /** The newest lab stories and studies, as the home page's loader reads them. */
  stories: WritingCard[]
  studies: WritingCard[]
  /** `GET /api/courses?limit=12`: what the catalogue's loader reads. */
  firstPage: Page<Course>
  shells: { home: PageShell; catalogue: PageShell }
}

export async function startBaseline(
  input: BaselineInput,
  host = '127.0.0.1',
): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ logger: false })
  app.get('/api/courses', async () => input.courses)
  app.get('/', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(
      renderDocument({
        path: '/',
        settings: input.settings,
        shell: input.shells.home,
        loaderData: {
          root: { settings: input.settings },
          'routes/home': {
            featured: input.featured,
            stories: input.stories,
            studies: input.studies,
            continueLearning: null,
            feed: null,
          },
        },
        children: h(
          DefaultLayout,
          null,
          h(Home, { featured: input.featured, stories: input.stories, studies: input.studies }),
        ),
      }),
    ),
  )
  app.get('/courses', async (_request, reply) =>
    reply.type('text/html; charset=utf-8').send(
      renderDocument({
        path: '/courses',
        settings: input.settings,
        shell: input.shells.catalogue,
        loaderData: {
          root: { settings: input.settings },
          'routes/courses/catalogue': { firstPage: input.firstPage },
        },
        children: h(GeneralLayout, null, h(Catalogue, { firstPage: input.firstPage })),
      }),
    ),
  )
  await app.listen({ host, port: 0 })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { app, url: `http://${host}:${port}` }
}

/** Reads a real page's head and trailing scripts (not its body, which the baseline renders). */
export function readShell(html: string): PageShell {
  const head = html.slice(0, html.indexOf('</head>'))
  const tail = html.slice(html.indexOf('<script'))
  const title = /<title>([\s\S]*?)<\/title>/.exec(head)?.[1]
  const description = /<meta name="description" content="([^"]*)"\/>/.exec(head)?.[1]
  if (title === undefined || description === undefined || !tail.startsWith('<script')) {
    throw new Error('The real page has no <title>, description or trailing scripts')
  }
  const hrefs = (rel: string) =>
    [...head.matchAll(new RegExp(`<link rel="${rel}" href="([^"]*)"/>`, 'g'))].map((match) =>
      decodeEntities(match[1] ?? ''),
    )
  const scripts = [...tail.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    .map((match) => ({ module: (match[1] ?? '').includes('type="module"'), text: match[2] ?? '' }))
    .filter((script) => !script.text.includes('streamController.'))
  return {
    title: decodeEntities(title),
    description: decodeEntities(description),
    modulePreloads: hrefs('modulepreload'),
    stylesheets: hrefs('stylesheet'),
    scripts,
  }
}

function decodeEntities(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#x27;', "'")
    .replaceAll('&amp;', '&')
}

// --- The document -------------------------------------------------------------------------

const SettingsContext = createContext<PublicSettings | null>(null)
const PathContext = createContext('/')

function useSettings(): PublicSettings {
  const settings = useContext(SettingsContext)
  if (!settings) throw new Error('useSettings() needs the settings context')
  return settings
}

function renderDocument(page: {
  path: string
  settings: PublicSettings
  shell: PageShell
  loaderData: unknown
  children: ReactNode
}): string {
  const tree = h(
    SettingsContext.Provider,
    { value: page.settings },
    h(
      PathContext.Provider,
      { value: page.path },
      h(
        Document,
        { shell: page.shell, loaderData: page.loaderData },
        h(LoadingBar),
        h(NetworkStatus),
        h(ChunkReloadGuard),
        page.children,
      ),
    ),
  )
  return `<!DOCTYPE html>${renderToString(tree)}`
}

function Document({
  shell,
  loaderData,
  children,
}: {
  shell: PageShell
  loaderData: unknown
  children?: ReactNode
}) {
  // In place of React Router's turbo-stream payload: the loader data serialised per request.
  const data = JSON.stringify(JSON.stringify({ loaderData })).replaceAll('<', '\\u003c')
  return h(
    'html',
    { lang: 'ja' },
    h(
      'head',
      null,
      h('meta', { charSet: 'utf-8' }),
      h('meta', { name: 'viewport', content: 'width=device-width, initial-scale=1' }),
      h('meta', { name: 'color-scheme', content: 'light dark' }),
      h('title', null, shell.title),
      h('meta', { name: 'description', content: shell.description }),
      shell.modulePreloads.map((href) => h('link', { key: href, rel: 'modulepreload', href })),
      shell.stylesheets.map((href) => h('link', { key: href, rel: 'stylesheet', href })),
    ),
    h(
      'body',
      { className: 'min-h-dvh' },
      children,
      shell.scripts.map((script, index) =>
        h('script', {
          key: index,
          ...(script.module ? { type: 'module', async: true } : {}),
          dangerouslySetInnerHTML: { __html: script.text },
        }),
      ),
      h('script', {
        // biome-ignore lint/security/noDangerouslySetInnerHtml: JSON, with < escaped, in a script
        dangerouslySetInnerHTML: { __html: `window.__benchLoaderData = ${data};` },
      }),
    ),
  )
}

// --- Links ----------------------------------------------------------------------------------

type LinkProps = {
  to: string
  className?: string
  prefetch?: 'intent'
  'aria-current'?: 'page'
  children?: ReactNode
}

/** Renders what React Router's `<Link>` renders on the server. */
function Link({ to, prefetch: _prefetch, children, ...rest }: LinkProps) {
  return h('a', { ...rest, href: to, 'data-discover': 'true' }, children)
}

/** Renders what React Router's `<NavLink>` with a className function renders on the server. */
function NavLink({
  to,
  className,
  prefetch,
  children,
}: {
  to: string
  className: (state: { isActive: boolean }) => string
  prefetch?: 'intent'
  children?: ReactNode
}) {
  const path = useContext(PathContext)
  const isActive = path === to || path.startsWith(`${to}/`)
  return h(
    Link,
    {
      to,
      prefetch,
      'aria-current': isActive ? 'page' : undefined,
      className: className({ isActive }),
    },
    children,
  )
}

// --- App shell (root.tsx) -------------------------------------------------------------------

const HIDDEN = { state: 'hidden', progress: 0 }
const noSubscription = () => () => {}

function LoadingBar() {
  const snapshot = useSyncExternalStore(
    noSubscription,
    () => HIDDEN,
    () => HIDDEN,
  )
  const bar = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (bar.current) bar.current.style.transform = ''
  }, [])
  if (snapshot.state === 'hidden') return null
  return h('div', { ref: bar })
}

function NetworkStatus() {
  const online = useSyncExternalStore(
    noSubscription,
    () => true,
    () => true,
  )
  const [wasOffline, setWasOffline] = useState(false)
  useEffect(() => {
    if (!online) setWasOffline(true)
  }, [online])
  return h(
    'div',
    {
      role: 'status',
      'aria-live': 'polite',
      className: 'fixed inset-x-0 bottom-4 z-50 flex justify-center px-4',
    },
    !online &&
      h(
        'p',
        {
          'data-network': 'offline',
          className:
            'rounded-full bg-slate-900 px-4 py-2 text-sm text-white shadow-lg dark:bg-slate-100 dark:text-slate-900',
        },
        'オフラインです。インターネット接続を確認してください。',
      ),
    online &&
      wasOffline &&
      h(
        'p',
        {
          'data-network': 'online',
          className: 'rounded-full bg-emerald-700 px-4 py-2 text-sm text-white shadow-lg',
        },
        'オンラインに戻りました。',
      ),
  )
}

function ChunkReloadGuard() {
  useEffect(() => {}, [])
  return null
}

// --- Header, footer, layouts ----------------------------------------------------------------

const MAIN_SECTIONS = [
  { to: '/courses', label: 'コース' },
  { to: '/exercises', label: '演習' },
  { to: '/studies', label: 'スタディ' },
  { to: '/labs', label: 'ラボ' },
  { to: '/labs_stories', label: 'ストーリー' },
  { to: '/plans', label: '料金プラン' },
]

const MY_SECTIONS = [
  { to: '/drafts', label: '下書き' },
  { to: '/histories', label: '学習履歴' },
  { to: '/dms', label: 'メッセージ' },
]

const FOOTER_LINKS = [
  { to: '/example', label: 'お試しレッスン' },
  { to: '/plans', label: '料金プラン' },
  { to: '/contact', label: 'お問い合わせ' },
  { to: '/terms', label: '利用規約' },
  { to: '/privacy', label: 'プライバシーポリシー' },
]

const navLinkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800 ${
    isActive ? 'text-brand-600 dark:text-brand-100' : 'text-slate-700 dark:text-slate-300'
  }`

const sideLinkClass = ({ isActive }: { isActive: boolean }) =>
  `block rounded-md px-3 py-1.5 text-sm ${
    isActive
      ? 'bg-brand-50 font-semibold text-brand-700 dark:bg-slate-800 dark:text-brand-100'
      : 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800'
  }`

function SiteHeader({ siteTitle }: { siteTitle?: string }) {
  return h(
    'header',
    {
      className:
        'sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90',
    },
    h(
      'a',
      {
        href: '#main',
        className:
          'sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2 dark:focus:bg-slate-900',
      },
      '本文へスキップ',
    ),
    h(
      'div',
      { className: 'mx-auto flex h-16 max-w-6xl items-center gap-4 px-4' },
      h(
        Link,
        { to: '/', className: 'flex shrink-0 items-center gap-2 font-bold' },
        h(
          'span',
          {
            className: 'grid size-8 place-items-center rounded-lg bg-brand-600 text-sm text-white',
            'aria-hidden': 'true',
          },
          'TL',
        ),
        h(
          'span',
          { className: 'hidden max-w-64 truncate sm:inline xl:max-w-none' },
          siteTitle ?? 'テックラボ',
        ),
      ),
      h(
        'nav',
        { 'aria-label': 'メインメニュー', className: 'hidden flex-1 lg:block' },
        h(
          'ul',
          { className: 'flex items-center gap-1' },
          MAIN_SECTIONS.map((section) =>
            h(
              'li',
              { key: section.to },
              h(
                NavLink,
                { to: section.to, className: navLinkClass, prefetch: 'intent' },
                section.label,
              ),
            ),
          ),
        ),
      ),
      h(SearchForm, {
        action: '/search',
        label: 'サイト内を検索',
        className: 'ml-auto hidden w-56 md:block xl:w-72',
      }),
      h(
        'div',
        { className: 'ml-auto flex items-center gap-2 md:ml-0' },
        h(
          Link,
          {
            to: '/auth/signin',
            className:
              'hidden rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 sm:inline-block dark:hover:bg-slate-800',
          },
          'ログイン',
        ),
        h(
          Link,
          {
            to: '/auth/signup',
            className:
              'rounded-md bg-brand-600 px-3 py-2 text-sm font-semibold text-white hover:bg-brand-700',
          },
          '無料で始める',
        ),
        h(
          'details',
          { className: 'relative lg:hidden' },
          h(
            'summary',
            {
              className:
                'cursor-pointer list-none rounded-md px-3 py-2 text-sm font-medium hover:bg-slate-100 dark:hover:bg-slate-800',
              'aria-label': 'メニューを開く',
            },
            'メニュー',
          ),
          h(
            'nav',
            {
              'aria-label': 'メニュー',
              className:
                'absolute right-0 mt-2 w-56 rounded-lg border border-slate-200 bg-white p-2 shadow-lg dark:border-slate-700 dark:bg-slate-900',
            },
            h(
              'ul',
              null,
              [...MAIN_SECTIONS, ...MY_SECTIONS].map((section) =>
                h(
                  'li',
                  { key: section.to },
                  h(
                    NavLink,
                    {
                      to: section.to,
                      className: (state) => `block ${navLinkClass(state)}`,
                    },
                    section.label,
                  ),
                ),
              ),
              h(
                'li',
                null,
                h(
                  NavLink,
                  { to: '/auth/signin', className: (state) => `block ${navLinkClass(state)}` },
                  'ログイン',
                ),
              ),
            ),
          ),
        ),
      ),
    ),
  )
}

function SiteFooter({ siteTitle }: { siteTitle?: string }) {
  return h(
    'footer',
    {
      className:
        'mt-auto border-t border-slate-200 bg-slate-50 dark:border-slate-800 dark:bg-slate-900',
    },
    h(
      'div',
      {
        className:
          'mx-auto flex max-w-6xl flex-col gap-4 px-4 py-8 text-sm text-slate-600 sm:flex-row sm:items-center sm:justify-between dark:text-slate-400',
      },
      h(
        'nav',
        { 'aria-label': 'フッターメニュー' },
        h(
          'ul',
          { className: 'flex flex-wrap gap-x-4 gap-y-2' },
          FOOTER_LINKS.map((link) =>
            h(
              'li',
              { key: link.to },
              h(Link, { to: link.to, className: 'hover:underline' }, link.label),
            ),
          ),
        ),
      ),
      h('p', null, '© ', siteTitle ?? 'テックラボ'),
    ),
  )
}

function DefaultLayout({ children }: { children?: ReactNode }) {
  const { siteTitle } = useSettings()
  return h(
    'div',
    { className: 'flex min-h-dvh flex-col' },
    h(SiteHeader, { siteTitle }),
    h('main', { id: 'main', className: 'mx-auto w-full max-w-6xl flex-1 px-4 py-8' }, children),
    h(SiteFooter, { siteTitle }),
  )
}

function GeneralLayout({ children }: { children?: ReactNode }) {
  const { siteTitle } = useSettings()
  return h(
    'div',
    { className: 'flex min-h-dvh flex-col' },
    h(SiteHeader, { siteTitle }),
    h(
      'div',
      { className: 'mx-auto flex w-full max-w-6xl flex-1 gap-8 px-4 py-8' },
      h(
        'nav',
        { 'aria-label': 'サイドメニュー', className: 'hidden w-48 shrink-0 md:block' },
        h(
          'p',
          { className: 'px-3 text-xs font-semibold text-slate-500 dark:text-slate-400' },
          '学ぶ',
        ),
        h(
          'ul',
          { className: 'mt-1 mb-6' },
          MAIN_SECTIONS.map((section) =>
            h(
              'li',
              { key: section.to },
              h(
                NavLink,
                { to: section.to, className: sideLinkClass, prefetch: 'intent' },
                section.label,
              ),
            ),
          ),
        ),
        h(
          'p',
          { className: 'px-3 text-xs font-semibold text-slate-500 dark:text-slate-400' },
          'マイページ',
        ),
        h(
          'ul',
          { className: 'mt-1' },
          MY_SECTIONS.map((section) =>
            h(
              'li',
              { key: section.to },
              h(NavLink, { to: section.to, className: sideLinkClass }, section.label),
            ),
          ),
        ),
      ),
      h('main', { id: 'main', className: 'min-w-0 flex-1' }, children),
    ),
    h(SiteFooter, { siteTitle }),
  )
}

// --- Course cards ---------------------------------------------------------------------------

const LEVEL_LABELS: Record<string, string> = {
  beginner: '入門',
  intermediate: '中級',
  advanced: '上級',
}

const dateFormat = new Intl.DateTimeFormat('ja-JP', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  timeZone: 'Asia/Tokyo',
})

function AccessBadge({ access }: { access: Course['access'] }) {
  return access === 'premium'
    ? h(
        'span',
        {
          className:
            'rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100',
        },
        'プレミアム',
      )
    : h(
        'span',
        {
          className:
            'rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900 dark:bg-emerald-900 dark:text-emerald-100',
        },
        '無料',
      )
}

function CourseCard({ course }: { course: Course }) {
  return h(
    'article',
    {
      className:
        'flex h-full flex-col rounded-xl border border-slate-200 p-5 transition hover:border-brand-500 hover:shadow-sm dark:border-slate-800',
    },
    h(
      'div',
      { className: 'flex items-center gap-2 text-xs' },
      h(AccessBadge, { access: course.access }),
      h(
        'span',
        {
          className:
            'rounded-full bg-slate-100 px-2 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
        },
        LEVEL_LABELS[course.level],
      ),
    ),
    h(
      'h3',
      { className: 'mt-3 text-lg font-semibold leading-snug' },
      h(
        Link,
        {
          to: `/${course.author.username}/courses/${course.id}`,
          className: 'hover:underline',
          prefetch: 'intent',
        },
        course.title,
      ),
    ),
    h(
      'p',
      { className: 'mt-2 line-clamp-3 flex-1 text-sm text-slate-600 dark:text-slate-400' },
      course.summary,
    ),
    h(
      'p',
      { className: 'mt-4 text-xs text-slate-500 dark:text-slate-400' },
      h(
        Link,
        { to: `/${course.author.username}`, className: 'hover:underline' },
        course.author.displayName,
      ),
      h('span', { 'aria-hidden': 'true' }, ' ・ '),
      h(
        'time',
        { dateTime: new Date(course.publishedAt).toISOString() },
        dateFormat.format(course.publishedAt),
      ),
    ),
  )
}

// --- Search box (components/search-results.tsx) ---------------------------------------------

function SearchForm(props: {
  action: string
  label: string
  className: string
  defaultValue?: string
}) {
  const id = `search-${props.action}`
  return h(
    'form',
    {
      role: 'search',
      className: props.className,
      'data-discover': 'true',
      action: props.action,
      method: 'get',
    },
    h(
      'div',
      { className: 'flex gap-1' },
      h('label', { className: 'sr-only', htmlFor: id }, props.label),
      h('input', {
        id,
        type: 'search',
        name: 'q',
        defaultValue: props.defaultValue,
        maxLength: 100,
        className:
          'min-w-0 flex-1 rounded-md border border-slate-300 bg-white px-3 py-2 text-sm dark:border-slate-600 dark:bg-slate-900',
      }),
      h(
        'button',
        {
          type: 'submit',
          className:
            'shrink-0 rounded-md border border-slate-300 px-3 py-2 text-sm hover:bg-slate-100 dark:border-slate-600 dark:hover:bg-slate-800',
        },
        '検索',
      ),
    ),
  )
}

// --- Home (routes/home.tsx) -----------------------------------------------------------------

const STEPS = [
  { title: '読む', body: '短いレッスンで、用語をひとつずつ確かめながら進めます。' },
  { title: '手を動かす', body: '演習問題とコードの実行で、覚えたことをその場で試せます。' },
  { title: '作って書く', body: 'ラボで作品を作り、ストーリーとして学びを発信しましょう。' },
]

function Home({
  featured,
  stories,
  studies,
}: {
  featured: Course[]
  stories: WritingCard[]
  studies: WritingCard[]
}) {
  return h(
    'div',
    { className: 'flex flex-col gap-16' },
    h(
      'section',
      {
        className:
          'rounded-3xl bg-gradient-to-br from-brand-50 to-white px-6 py-14 sm:px-12 dark:from-slate-900 dark:to-slate-950',
      },
      h(
        'p',
        { className: 'text-sm font-semibold text-brand-600 dark:text-brand-100' },
        '未経験からエンジニアへ',
      ),
      h(
        'h1',
        { className: 'mt-3 text-3xl font-bold leading-tight sm:text-4xl' },
        'はじめてのプログラミングを、',
        h('br', { className: 'hidden sm:inline' }),
        'いちばんやさしく。',
      ),
      h(
        'p',
        { className: 'mt-4 max-w-2xl text-slate-700 dark:text-slate-300' },
        'HTML・CSS から JavaScript、Python まで。短いレッスンと演習で、自分のペースで学べます。まずは無料プランで、お試しレッスンから始めてみましょう。',
      ),
      h(
        'div',
        { className: 'mt-8 flex flex-wrap gap-3' },
        h(
          Link,
          {
            to: '/auth/signup',
            className:
              'rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700',
          },
          '無料で始める',
        ),
        h(
          Link,
          {
            to: '/example',
            className:
              'rounded-md border border-slate-300 px-5 py-3 font-semibold hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800',
          },
          'お試しレッスンを見る',
        ),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'steps-heading' },
      h('h2', { id: 'steps-heading', className: 'text-2xl font-bold' }, '学び方'),
      h(
        'ol',
        { className: 'mt-6 grid gap-4 sm:grid-cols-3' },
        STEPS.map((step, index) =>
          h(
            'li',
            {
              key: step.title,
              className: 'rounded-xl border border-slate-200 p-5 dark:border-slate-800',
            },
            h(
              'p',
              { className: 'text-sm font-semibold text-brand-600 dark:text-brand-100' },
              'STEP ',
              index + 1,
            ),
            h('p', { className: 'mt-1 text-lg font-semibold' }, step.title),
            h('p', { className: 'mt-2 text-sm text-slate-600 dark:text-slate-400' }, step.body),
          ),
        ),
      ),
    ),
    h(
      'section',
      { 'aria-labelledby': 'featured-heading' },
      h(
        'div',
        { className: 'flex items-baseline justify-between gap-4' },
        h('h2', { id: 'featured-heading', className: 'text-2xl font-bold' }, '新着コース'),
        h(
          Link,
          {
            to: '/courses',
            className: 'text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100',
          },
          'すべてのコースを見る',
        ),
      ),
      featured.length === 0
        ? h(
            'p',
            { className: 'mt-6 text-slate-600 dark:text-slate-400' },
            '公開中のコースはまだありません。',
          )
        : h(
            'ul',
            { className: 'mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3' },
            featured.map((course) => h('li', { key: course.id }, h(CourseCard, { course }))),
          ),
    ),
    h(
      'div',
      { className: 'grid gap-10 lg:grid-cols-2' },
      h(NewestWriting, {
        id: 'stories',
        heading: '新着ラボストーリー',
        more: { to: '/labs_stories', label: 'ストーリーをもっと見る' },
        items: stories,
        empty: '公開中のラボストーリーはまだありません。',
      }),
      h(NewestWriting, {
        id: 'studies',
        heading: '新着スタディ',
        more: { to: '/studies', label: 'スタディをもっと見る' },
        items: studies,
        empty: '公開中のスタディはまだありません。',
      }),
    ),
    h(
      'section',
      {
        'aria-labelledby': 'plans-heading',
        className: 'rounded-2xl border border-slate-200 p-8 dark:border-slate-800',
      },
      h('h2', { id: 'plans-heading', className: 'text-2xl font-bold' }, '料金プラン'),
      h(
        'div',
        { className: 'mt-6 grid gap-4 sm:grid-cols-2' },
        h(
          'div',
          { className: 'rounded-xl bg-slate-50 p-5 dark:bg-slate-900' },
          h('p', { className: 'font-semibold' }, '無料プラン'),
          h(
            'p',
            { className: 'mt-2 text-sm text-slate-600 dark:text-slate-400' },
            '無料コースと演習、ラボやストーリーの投稿ができます。',
          ),
        ),
        h(
          'div',
          {
            className:
              'rounded-xl bg-amber-50 p-5 dark:border dark:border-amber-900 dark:bg-amber-950/40',
          },
          h('p', { className: 'font-semibold' }, 'プレミアムプラン'),
          h(
            'p',
            { className: 'mt-2 text-sm text-slate-600 dark:text-slate-400' },
            'すべてのコースとプレミアム演習で、転職に必要な力を身につけます。',
          ),
        ),
      ),
      h(
        Link,
        {
          to: '/plans',
          className:
            'mt-6 inline-block text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100',
        },
        'プランを比べる',
      ),
    ),
  )
}

function NewestWriting(props: {
  id: string
  heading: string
  more: { to: string; label: string }
  items: WritingCard[]
  empty: string
}) {
  return h(
    'section',
    { 'aria-labelledby': `${props.id}-heading` },
    h(
      'div',
      { className: 'flex items-baseline justify-between gap-4' },
      h('h2', { id: `${props.id}-heading`, className: 'text-2xl font-bold' }, props.heading),
      h(
        Link,
        {
          to: props.more.to,
          className: 'text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100',
        },
        props.more.label,
      ),
    ),
    props.items.length === 0
      ? h('p', { className: 'mt-6 text-slate-600 dark:text-slate-400' }, props.empty)
      : h(
          'ul',
          { className: 'mt-6 divide-y divide-slate-200 dark:divide-slate-800' },
          props.items.map((item) =>
            h(
              'li',
              { key: item.id, className: 'py-3' },
              h(Link, { to: item.path, className: 'font-semibold hover:underline' }, item.title),
              h(
                'p',
                { className: 'mt-1 text-xs text-slate-500 dark:text-slate-400' },
                item.author.displayName,
                h('span', { 'aria-hidden': 'true' }, ' ・ '),
                h(
                  'time',
                  { dateTime: new Date(item.publishedAt).toISOString() },
                  dateFormat.format(item.publishedAt),
                ),
              ),
            ),
          ),
        ),
  )
}

// --- Catalogue (routes/courses/catalogue.tsx, components/infinite-list.tsx) -----------------

type ListSnapshot = { items: Course[]; state: 'ready' | 'complete'; loopStopped: boolean }

/** The server-side part of the app's InfiniteLoader: a store holding the first page. */
class FirstPageStore {
  private readonly snapshot: ListSnapshot
  constructor(first: Page<Course>) {
    this.snapshot = {
      items: first.items,
      state: first.nextCursor === null ? 'complete' : 'ready',
      loopStopped: false,
    }
  }
  getSnapshot = (): ListSnapshot => this.snapshot
  subscribe = (_listener: () => void) => () => {}
}

const INFINITE_SCROLL_TEXTS = {
  noResults: 'No results :(',
  noMore: 'No more data :)',
}

function CourseList({ firstPage, className }: { firstPage: Page<Course>; className: string }) {
  const [store] = useState(() => new FirstPageStore(firstPage))
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, store.getSnapshot)
  const end = useRef<HTMLDivElement>(null)
  useEffect(() => {
    end.current?.getBoundingClientRect()
  }, [])
  const { items, state } = snapshot
  return h(
    'section',
    { 'aria-label': 'コース', 'aria-busy': false },
    h(
      'ul',
      { className },
      items.map((course) => h('li', { key: course.id }, h(CourseCard, { course }))),
    ),
    h(
      'div',
      {
        ref: end,
        'data-state': state,
        className: 'py-8 text-center text-sm text-slate-500 dark:text-slate-400',
      },
      state === 'complete' &&
        h(
          'p',
          { role: 'status' },
          items.length === 0 ? INFINITE_SCROLL_TEXTS.noResults : INFINITE_SCROLL_TEXTS.noMore,
        ),
    ),
  )
}

function Catalogue({ firstPage }: { firstPage: Page<Course> }) {
  useSettings()
  return h(
    'div',
    null,
    h('h1', { className: 'text-2xl font-bold' }, 'コース一覧'),
    h(
      'p',
      { className: 'mt-2 text-slate-600 dark:text-slate-400' },
      '気になるコースから始めましょう。「無料」のコースは無料プランですべて学べます。',
    ),
    h(SearchForm, {
      action: '/courses',
      label: 'コースを検索',
      className: 'mt-4 max-w-xl',
      defaultValue: '',
    }),
    h(CourseList, { firstPage, className: 'mt-6 grid gap-4 sm:grid-cols-2' }),
  )
}
