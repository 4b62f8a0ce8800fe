import { data, Link } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { Heatmap } from '#app/components/histories/heatmap.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import { CONTENT_KINDS } from '#features/content-kinds.ts'
import {
  type HistoryEntry,
  listHistory,
  readHistorySummary,
} from '#features/history/histories.server.ts'
import { type Page, pageQuery } from '#features/pagination.ts'
import type { Route } from './+types/histories'

const PAGE_SIZE = 20

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '学習履歴',
    description: '学んだレッスン、公開した作品の記録と、連続学習日数です。',
  })

/** The signed-in learner's own history; a guest is shown what the page is for. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const actor = actorOf(await context.auth.currentUser(request))
  if (!actor) return data({ history: null }, { headers: viewerCacheControl(false) })
  const [summary, firstPage] = await Promise.all([
    readHistorySummary(context.db, actor),
    listHistory(context.db, actor, pageQuery.parse({ limit: PAGE_SIZE })),
  ])
  return data({ history: { summary, firstPage } }, { headers: viewerCacheControl(true) })
}

export default function Histories({ loaderData: { history } }: Route.ComponentProps) {
  if (!history) {
    return (
      <div className="max-w-4xl">
        <h1 className="text-2xl font-bold">学習履歴</h1>
        <div className="mt-6">
          <EmptyState
            title="学習履歴はまだありません"
            actions={[
              { to: '/auth/signin?redirectTo=%2Fhistories', label: 'ログイン' },
              { to: '/courses', label: 'コースを見る' },
            ]}
          >
            ログインしてレッスンを終えると、その日の記録と連続学習日数がここに表示されます。
          </EmptyState>
        </div>
      </div>
    )
  }
  const { summary, firstPage } = history
  const stats = [
    { label: '現在の連続学習日数', value: `${summary.streaks.current} 日`, id: 'current' },
    { label: '最長の連続学習日数', value: `${summary.streaks.longest} 日`, id: 'longest' },
    { label: '学習した日', value: `${summary.totals.activeDays} 日`, id: 'active-days' },
    { label: '完了したレッスン', value: `${summary.totals.lessonsDone} 件`, id: 'lessons' },
    { label: '公開したコンテンツ', value: `${summary.totals.published} 件`, id: 'published' },
    { label: '解いた問題', value: `${summary.totals.exercisesSolved} 問`, id: 'exercises' },
  ]
  return (
    <div className="max-w-4xl">
      <h1 className="text-2xl font-bold">学習履歴</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
        日付は {summary.timeZone} の時刻で数えています（
        <Link to="/settings#profile" className="underline underline-offset-2">
          設定で変更
        </Link>
        ）。
      </p>
      <dl className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-6">
        {stats.map((stat) => (
          <div
            key={stat.id}
            className="rounded-xl border border-slate-200 p-4 dark:border-slate-800"
          >
            <dt className="text-xs text-slate-600 dark:text-slate-400">{stat.label}</dt>
            <dd className="mt-1 text-xl font-bold" data-stat={stat.id}>
              {stat.value}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="heatmap-heading" className="mt-8">
        <h2 id="heatmap-heading" className="text-lg font-bold">
          過去1年の記録
        </h2>
        <div className="mt-3">
          <Heatmap weeks={summary.heatmap} />
        </div>
      </section>
      <div className="mt-8">
        <h2 id="timeline-heading" className="text-lg font-bold">
          タイムライン
        </h2>
        {firstPage.items.length === 0 ? (
          <div className="mt-4">
            <EmptyState
              title="学習履歴はまだありません"
              actions={[{ to: '/courses', label: 'コースを見る' }]}
            >
              レッスンを完了したり、コンテンツを公開したりすると、ここに記録されます。
            </EmptyState>
          </div>
        ) : (
          <Timeline firstPage={firstPage} timeZone={summary.timeZone} />
        )}
      </div>
    </div>
  )
}

function eventLabel(entry: HistoryEntry): string {
  if (entry.subjectKind === 'lesson') return 'レッスンを完了'
  if (entry.subjectKind === 'question') return '問題を解いた'
  return `${CONTENT_KINDS[entry.subjectKind].label}を公開`
}

function Timeline({ firstPage, timeZone }: { firstPage: Page<HistoryEntry>; timeZone: string }) {
  const { apiGatewayUrl } = useSettings()
  // The learner's zone on server and browser alike, so both render the same text.
  const format = new Intl.DateTimeFormat('ja-JP', {
    timeZone,
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  })
  return (
    <InfiniteList<HistoryEntry>
      label="タイムライン"
      firstPage={firstPage}
      fetchPage={(cursor) =>
        callApi(apiGatewayUrl, 'people.histories', {
          query: { limit: PAGE_SIZE, cursor },
        })
      }
      getKey={(entry) => entry.id}
      renderItem={(entry) => (
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-3">
          <time
            dateTime={new Date(entry.at).toISOString()}
            className="w-36 shrink-0 text-sm text-slate-500 dark:text-slate-400"
          >
            {format.format(entry.at)}
          </time>
          <span className="rounded-full bg-slate-100 px-2 py-0.5 text-xs font-semibold dark:bg-slate-800">
            {eventLabel(entry)}
          </span>
          {entry.subject ? (
            <Link to={entry.subject.path} className="min-w-0 font-semibold hover:underline">
              {entry.subject.courseTitle
                ? `${entry.subject.courseTitle} / ${entry.subject.title}`
                : entry.subject.title}
            </Link>
          ) : (
            <span className="text-slate-500 dark:text-slate-400">削除されたコンテンツ</span>
          )}
        </div>
      )}
      className="mt-2 divide-y divide-slate-200 dark:divide-slate-800"
    />
  )
}
