import { Lock } from 'lucide-react'
import { data, Link } from 'react-router'
import { EmptyState } from '#app/components/empty-state.tsx'
import { StatusBadge } from '#app/components/exercises/exercise-status.tsx'
import { KIND_LABELS, LANGUAGE_LABELS } from '#app/components/exercises/labels.ts'
import {
  FilterForm,
  FilterSelect,
  filterParams,
  TagFilter,
} from '#app/components/filter-select.tsx'
import { InfiniteList } from '#app/components/infinite-list.tsx'
import { TagLinks } from '#app/components/tag-links.tsx'
import { callApi } from '#app/lib/api/client.ts'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { useSettings } from '#app/lib/root-data.ts'
import { actorOf } from '#features/actor.ts'
import { LEVEL_LABELS } from '#features/courses/course-card.ts'
import {
  exerciseQuery,
  listExercises,
  listExerciseTags,
} from '#features/exercises/exercise-catalogue.server.ts'
import { type ExerciseFilters, exerciseFilters } from '#features/exercises/exercise-query.ts'
import type { ExerciseCard } from '#features/exercises/question-views.ts'
import type { Route } from './+types/list'

/** A failure of the list is said inside the layout, with the header still there. */
export { ContentErrorBoundary as ErrorBoundary } from '#app/components/error-page.tsx'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: '演習',
    description:
      '公開中のスタディの演習問題の一覧です。選択問題、記述問題、JavaScript と Python のコード問題に挑戦できます。',
  })

const PAGE_SIZE = 20

const NO_FILTERS: ExerciseFilters = {
  tag: undefined,
  language: undefined,
  kind: undefined,
  difficulty: undefined,
  status: undefined,
}

/** Every published question, filtered by the URL's query; my status for a signed-in viewer. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const params = new URL(request.url).searchParams
  const user = await context.auth.currentUser(request)
  const headers = viewerCacheControl(user !== undefined)
  const tags = await listExerciseTags(context.db)
  const signedIn = user !== undefined
  const parsed = exerciseFilters.safeParse(
    Object.fromEntries(
      ['tag', 'language', 'kind', 'difficulty', 'status'].map((name) => [
        name,
        params.get(name) ?? undefined,
      ]),
    ),
  )
  if (!parsed.success) {
    const error = parsed.error.issues[0]?.message ?? null
    return data(
      { tags, filters: NO_FILTERS, firstPage: null, error, signedIn },
      { status: 400, headers },
    )
  }
  const filters = parsed.data
  const firstPage = await listExercises(
    context.db,
    actorOf(user),
    exerciseQuery.parse({ ...filters, limit: PAGE_SIZE }),
  )
  return data({ tags, filters, firstPage, error: null, signedIn }, { headers })
}

/** Tag, language, kind, difficulty, and (signed in) the learner's status. */
function ExerciseFilterForm(props: {
  tags: string[]
  filters: ExerciseFilters
  signedIn: boolean
}) {
  const { filters, tags } = props
  return (
    <FilterForm action="/exercises" label="演習を絞り込む" filters={filters}>
      <TagFilter tags={tags} value={filters.tag} />
      <FilterSelect
        label="言語"
        name="language"
        value={filters.language}
        options={Object.entries(LANGUAGE_LABELS)}
      />
      <FilterSelect
        label="形式"
        name="kind"
        value={filters.kind}
        options={Object.entries(KIND_LABELS)}
      />
      <FilterSelect
        label="難易度"
        name="difficulty"
        value={filters.difficulty}
        options={Object.entries(LEVEL_LABELS)}
      />
      {props.signedIn && (
        <FilterSelect
          label="状態"
          name="status"
          value={filters.status}
          options={[
            ['not_started', '未挑戦'],
            ['attempted', '挑戦中'],
            ['solved', '正解済み'],
          ]}
        />
      )}
    </FilterForm>
  )
}

/** One question in the list: where it is, its kind and status; a locked one shows its lock. */
function ExerciseCardView({ card, signedIn }: { card: ExerciseCard; signedIn: boolean }) {
  return (
    <article className="flex h-full flex-col gap-2 rounded-xl border border-slate-200 p-4 dark:border-slate-800">
      <div className="flex flex-wrap items-center gap-2 text-xs">
        <span className="font-semibold">
          {KIND_LABELS[card.kind]}
          {card.language && `（${LANGUAGE_LABELS[card.language]}）`}
        </span>
        <span className="text-slate-600 dark:text-slate-400">{LEVEL_LABELS[card.difficulty]}</span>
        {signedIn && <StatusBadge status={card.status} />}
        {card.access === 'premium' && (
          <span className="rounded-full bg-amber-100 px-2 py-0.5 font-semibold text-amber-900 dark:bg-amber-900 dark:text-amber-100">
            プレミアム
          </span>
        )}
      </div>
      <h3 className="font-bold">
        <Link to={card.study.path} className="hover:underline">
          {card.study.title} ・ 問題 {card.position + 1}
        </Link>
      </h3>
      {card.locked ? (
        <p className="flex items-center gap-2 text-sm text-amber-900 dark:text-amber-200">
          <Lock aria-hidden="true" className="size-4 shrink-0" />
          プレミアムプランで挑戦できます（
          <Link to="/plans" className="underline">
            プランを見る
          </Link>
          ）
        </p>
      ) : (
        <p className="text-sm text-slate-700 dark:text-slate-300">{card.excerpt}</p>
      )}
      <p className="mt-auto text-xs text-slate-500 dark:text-slate-400">
        {card.author.displayName}
      </p>
      {card.tags.length > 0 && (
        <div className="text-xs">
          <TagLinks tags={card.tags} />
        </div>
      )}
    </article>
  )
}

export default function Exercises({ loaderData }: Route.ComponentProps) {
  const { apiGatewayUrl } = useSettings()
  const { tags, filters, firstPage, error, signedIn } = loaderData
  return (
    <div>
      <h1 className="text-2xl font-bold">演習</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        公開中のスタディの問題です。選択・記述・コード（JavaScript /
        Python）の問題に、その場で挑戦できます。
      </p>
      <ExerciseFilterForm tags={tags} filters={filters} signedIn={signedIn} />
      {error ? (
        <p role="alert" className="mt-6 text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : firstPage && firstPage.items.length === 0 ? (
        <div className="mt-6">
          <EmptyState
            title="条件に合う演習はありません"
            actions={[{ to: '/exercises', label: 'すべての演習を見る' }]}
          >
            条件を変えてみてください。
          </EmptyState>
        </div>
      ) : (
        firstPage && (
          <>
            <h2 className="sr-only">演習の一覧</h2>
            <InfiniteList<ExerciseCard>
              key={filterParams(filters).toString()}
              label="演習"
              firstPage={firstPage}
              fetchPage={(cursor) =>
                callApi(apiGatewayUrl, 'exercises.list', {
                  query: { ...filters, limit: PAGE_SIZE, cursor },
                })
              }
              getKey={(card) => card.id}
              renderItem={(card) => <ExerciseCardView card={card} signedIn={signedIn} />}
              className="mt-6 grid gap-4 sm:grid-cols-2"
            />
          </>
        )
      )}
    </div>
  )
}
