import { Check } from 'lucide-react'
import { data, Link } from 'react-router'
import { CourseCard } from '#app/components/course-card.tsx'
import { LearningWeek } from '#app/components/home/learning-week.tsx'
import { FEED_PAGE_SIZE, FeedList } from '#app/components/people/feed-list.tsx'
import { viewerCacheControl } from '#app/lib/content-response.server.ts'
import { formatDate } from '#app/lib/format.ts'
import { pageMeta } from '#app/lib/meta.ts'
import { actorOf } from '#features/actor.ts'
import { listPublishedCourses } from '#features/courses/catalogue.server.ts'
import {
  type ContinueLearningCard,
  listContinueLearning,
} from '#features/courses/continue-learning.server.ts'
import { listFeed } from '#features/follows/feed.server.ts'
import { readLearningWeek } from '#features/history/histories.server.ts'
import {
  type ContinueExercisesCard,
  listContinueExercises,
} from '#features/home/continue-exercises.server.ts'
import { listNewestWriting, type WritingCard } from '#features/home/newest-writing.server.ts'
import { pageQuery } from '#features/pagination.ts'
import type { Route } from './+types/home'

export const headers: Route.HeadersFunction = ({ loaderHeaders }) => loaderHeaders

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    description:
      'プログラミング未経験の方やエンジニアへの転職を目指す方のためのオンライン学習サイト。HTML・CSS・JavaScript・Python を、無料プランから始められます。',
  })

/** Guests see the pitch; a signed-in learner sees where they left off first. */
export async function loader({ context, request }: Route.LoaderArgs) {
  const user = await context.auth.currentUser(request)
  const actor = actorOf(user)
  const [featured, stories, studies, continueLearning, continueExercises, feed, week] =
    await Promise.all([
      listPublishedCourses(context.db, { limit: 6 }),
      listNewestWriting(context.db, 'lab_story'),
      listNewestWriting(context.db, 'study'),
      user ? listContinueLearning(context.db, user.sub) : null,
      actor ? listContinueExercises(context.db, actor.userId) : [],
      actor ? listFeed(context.db, actor, pageQuery.parse({ limit: FEED_PAGE_SIZE })) : null,
      // The learner's own week: this is why a signed-in home is rendered per request.
      actor ? readLearningWeek(context.db, actor) : null,
    ])
  return data(
    {
      featured: featured.items,
      stories,
      studies,
      continueLearning,
      continueExercises,
      feed,
      week,
    },
    { headers: viewerCacheControl(user !== undefined) },
  )
}

const STEPS = [
  { title: '読む', body: '短いレッスンで、用語をひとつずつ確かめながら進めます。' },
  { title: '手を動かす', body: '演習問題とコードの実行で、覚えたことをその場で試せます。' },
  { title: '作って書く', body: 'ラボで作品を作り、ストーリーとして学びを発信しましょう。' },
]

export default function Home({ loaderData }: Route.ComponentProps) {
  const { continueLearning, continueExercises, stories, studies, feed, week } = loaderData
  return (
    <div className="flex flex-col gap-16">
      {continueLearning ? (
        <>
          {week && <LearningWeek week={week} />}
          <ContinueLearning cards={continueLearning} exercises={continueExercises} />
          {feed && <FeedList firstPage={feed} />}
        </>
      ) : (
        <>
          <section className="rounded-3xl bg-gradient-to-br from-brand-50 to-white px-6 py-14 sm:px-12 dark:from-slate-900 dark:to-slate-950">
            <p className="text-sm font-semibold text-brand-600 dark:text-brand-100">
              未経験からエンジニアへ
            </p>
            <h1 className="mt-3 text-3xl font-bold leading-tight sm:text-4xl">
              はじめてのプログラミングを、
              <br className="hidden sm:inline" />
              いちばんやさしく。
            </h1>
            <p className="mt-4 max-w-2xl text-slate-700 dark:text-slate-300">
              {
                'HTML・CSS から JavaScript、Python まで。短いレッスンと演習で、自分のペースで学べます。まずは無料プランで、お試しレッスンから始めてみましょう。'
              }
            </p>
            <div className="mt-8 flex flex-wrap gap-3">
              <Link
                to="/auth/signup"
                className="rounded-md bg-brand-600 px-5 py-3 font-semibold text-white hover:bg-brand-700"
              >
                無料で始める
              </Link>
              <Link
                to="/example"
                className="rounded-md border border-slate-300 px-5 py-3 font-semibold hover:bg-white dark:border-slate-600 dark:hover:bg-slate-800"
              >
                お試しレッスンを見る
              </Link>
            </div>
          </section>

          <section aria-labelledby="steps-heading">
            <h2 id="steps-heading" className="text-2xl font-bold">
              学び方
            </h2>
            <ol className="mt-6 grid gap-4 sm:grid-cols-3">
              {STEPS.map((step, index) => (
                <li
                  key={step.title}
                  className="rounded-xl border border-slate-200 p-5 dark:border-slate-800"
                >
                  <p className="text-sm font-semibold text-brand-600 dark:text-brand-100">
                    STEP {index + 1}
                  </p>
                  <p className="mt-1 text-lg font-semibold">{step.title}</p>
                  <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{step.body}</p>
                </li>
              ))}
            </ol>
          </section>
        </>
      )}

      <section aria-labelledby="featured-heading">
        <div className="flex items-baseline justify-between gap-4">
          <h2 id="featured-heading" className="text-2xl font-bold">
            新着コース
          </h2>
          <Link
            to="/courses"
            className="text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100"
          >
            すべてのコースを見る
          </Link>
        </div>
        {loaderData.featured.length === 0 ? (
          <p className="mt-6 text-slate-600 dark:text-slate-400">
            公開中のコースはまだありません。
          </p>
        ) : (
          <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {loaderData.featured.map((course) => (
              <li key={course.id}>
                <CourseCard course={course} />
              </li>
            ))}
          </ul>
        )}
      </section>

      <div className="grid gap-10 lg:grid-cols-2">
        <NewestWriting
          id="stories"
          heading="新着ラボストーリー"
          more={{ to: '/labs_stories', label: 'ストーリーをもっと見る' }}
          items={stories}
          empty="公開中のラボストーリーはまだありません。"
        />
        <NewestWriting
          id="studies"
          heading="新着スタディ"
          more={{ to: '/studies', label: 'スタディをもっと見る' }}
          items={studies}
          empty="公開中のスタディはまだありません。"
        />
      </div>

      {!continueLearning && (
        <section
          aria-labelledby="plans-heading"
          className="rounded-2xl border border-slate-200 p-8 dark:border-slate-800"
        >
          <h2 id="plans-heading" className="text-2xl font-bold">
            料金プラン
          </h2>
          <div className="mt-6 grid gap-4 sm:grid-cols-2">
            <div className="rounded-xl bg-slate-50 p-5 dark:bg-slate-900">
              <p className="font-semibold">無料プラン</p>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                無料コースと演習、ラボやストーリーの投稿ができます。
              </p>
            </div>
            <div className="rounded-xl bg-amber-50 p-5 dark:border dark:border-amber-900 dark:bg-amber-950/40">
              <p className="font-semibold">プレミアムプラン</p>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                すべてのコースとプレミアム演習で、転職に必要な力を身につけます。
              </p>
            </div>
          </div>
          <Link
            to="/plans"
            className="mt-6 inline-block text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100"
          >
            プランを比べる
          </Link>
        </section>
      )}
    </div>
  )
}

function ContinueLearning({
  cards,
  exercises,
}: {
  cards: ContinueLearningCard[]
  exercises: ContinueExercisesCard[]
}) {
  return (
    <section aria-labelledby="continue-heading">
      <h2 id="continue-heading" className="text-2xl font-bold">
        学習を続ける
      </h2>
      {cards.length === 0 && exercises.length === 0 ? (
        <div className="mt-6 rounded-xl border border-dashed border-slate-300 px-6 py-10 text-center dark:border-slate-700">
          <p className="font-semibold">まだ学習中のコースはありません</p>
          <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
            気になるコースを開いて、最初のレッスンから始めてみましょう。
          </p>
          <Link
            to="/courses"
            className="mt-4 inline-block rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700"
          >
            コースを探す
          </Link>
        </div>
      ) : (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          {cards.map((card) => (
            <li
              key={card.course.id}
              className="flex flex-col rounded-xl border border-slate-200 p-5 dark:border-slate-800"
            >
              <Link to={card.course.path} className="font-semibold hover:underline">
                {card.course.title}
              </Link>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                {`${card.done} / ${card.total} レッスン完了`}
              </p>
              <progress
                className="mt-2 h-2 w-full accent-brand-600"
                max={Math.max(card.total, 1)}
                value={card.done}
                aria-label={`${card.course.title}の進み具合`}
              />
              {card.nextLesson ? (
                <Link
                  to={card.nextLesson.path}
                  className="mt-4 rounded-md bg-brand-600 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-brand-700"
                >
                  {`続きから: ${card.nextLesson.title}`}
                </Link>
              ) : (
                <p className="mt-4 flex items-center gap-1.5 text-sm font-semibold text-emerald-700 dark:text-emerald-400">
                  <Check aria-hidden="true" className="size-4" />
                  すべてのレッスンを完了しました
                </p>
              )}
            </li>
          ))}
          {exercises.map((card) => (
            <li
              key={card.study.id}
              data-continue-exercises={card.study.id}
              className="flex flex-col rounded-xl border border-slate-200 p-5 dark:border-slate-800"
            >
              <p className="text-xs font-semibold text-slate-500 dark:text-slate-400">演習</p>
              <Link to={card.study.path} className="font-semibold hover:underline">
                {card.study.title}
              </Link>
              <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">
                {`${card.solved} / ${card.total} 問正解`}
              </p>
              <progress
                className="mt-2 h-2 w-full accent-brand-600"
                max={Math.max(card.total, 1)}
                value={card.solved}
                aria-label={`${card.study.title}の演習の進み具合`}
              />
              <Link
                to={card.nextPath}
                className="mt-4 rounded-md bg-brand-600 px-4 py-2 text-center text-sm font-semibold text-white hover:bg-brand-700"
              >
                続きの問題に挑戦
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}

function NewestWriting(props: {
  id: string
  heading: string
  more: { to: string; label: string }
  items: WritingCard[]
  empty: string
}) {
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <div className="flex items-baseline justify-between gap-4">
        <h2 id={`${props.id}-heading`} className="text-2xl font-bold">
          {props.heading}
        </h2>
        <Link
          to={props.more.to}
          className="text-sm font-semibold text-brand-600 hover:underline dark:text-brand-100"
        >
          {props.more.label}
        </Link>
      </div>
      {props.items.length === 0 ? (
        <p className="mt-6 text-slate-600 dark:text-slate-400">{props.empty}</p>
      ) : (
        <ul className="mt-6 divide-y divide-slate-200 dark:divide-slate-800">
          {props.items.map((item) => (
            <li key={item.id} className="py-3">
              <Link to={item.path} className="font-semibold hover:underline">
                {item.title}
              </Link>
              <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {item.author.displayName}
                <span aria-hidden="true"> ・ </span>
                <time dateTime={new Date(item.publishedAt).toISOString()}>
                  {formatDate(item.publishedAt)}
                </time>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
