/**
 * `npm run bench` (after run.ts): the course page, the catalogue and search with 10,000
 * published courses and 100,000 lessons in the database, each beside the foundation
 * harness's bare baseline (baseline.ts) in the same run, as ratios. Prints the query plans
 * (EXPLAIN QUERY PLAN) of the list, detail and search queries and fails if one of them scans
 * a content table instead of using an index.
 *
 * Environment as run.ts (BENCH_DURATION_S, BENCH_WARMUP_S, BENCH_CONNECTIONS, BENCH_CPU_PROF:
 * the app server then leaves its profile there); BENCH_COURSES (default 10000) with ten lessons
 * each; BENCH_ROWS (a comma-separated list of row names or parts of them, default all).
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { type CompiledQuery, Kysely, SqliteDialect } from 'kysely'
import { openDatabase } from '#db/database.ts'
import { migrateToLatest } from '#db/migrate.ts'
import { openNodeSqlite } from '#db/node-sqlite.ts'
import type { DB } from '#db/schema.ts'
import { listPublishedCourses } from '#features/courses/catalogue.server.ts'
import { readCourseForViewer } from '#features/courses/course-view.server.ts'
import { searchPublishedContent } from '#features/search/search.server.ts'
import { searchQuery } from '#features/search/search-query.ts'
import { loadConfig } from '#server/config.ts'
import { appEnvironment } from './environment.ts'
import {
  fetchOk,
  format,
  type Measurement,
  measure,
  positiveNumber,
  printTable,
  problems,
  settings,
} from './measure.ts'
import { BenchError, runBench, type Server, startServer } from './servers.ts'

const COURSES = Math.round(positiveNumber('BENCH_COURSES', 10_000))
const selectedRows = process.env.BENCH_ROWS?.split(',').map((name) => name.trim())
const LESSONS_PER_SECTION = 5
const SECTIONS_PER_COURSE = 2
const AUTHORS = 100
const BATCH_ROWS = 2_000

const TOPICS = ['Python', 'JavaScript', 'HTML', 'CSS', 'TypeScript', 'SQL', 'Git', 'React']
const WORDS = ['変数', '関数', '配列', '条件分岐', 'ループ', 'クラス', '非同期処理', 'テスト']

async function main(): Promise<number> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'techlab-bench-content-'))
  const servers: Server[] = []
  try {
    const config = loadConfig(appEnvironment(dataDir, 0))
    if (config.database.kind !== 'sqlite')
      throw new BenchError('the content benchmark runs on SQLite')
    const file = config.database.file
    const started = performance.now()
    const sample = await generateContent(file)
    console.log(
      `generated ${COURSES} courses, ${COURSES * SECTIONS_PER_COURSE * LESSONS_PER_SECTION} ` +
        `lessons in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    )
    const planProblems = await printQueryPlans(file, sample)

    const app = await startServer(settings.cpuProfDir, 'app (PAGE_CACHE_MAX_ENTRIES=0)', {
      type: 'start',
      server: 'app',
      dataDir,
      pageCacheMaxEntries: 0,
    })
    servers.push(app)
    const baseline = await startServer(undefined, 'bare Fastify baseline', {
      type: 'start',
      server: 'baseline',
      input: { dataDir, pagePaths: ['/courses'] },
    })
    servers.push(baseline)

    const q = encodeURIComponent('非同期処理 Python')
    const allRows: { name: string; app: string; baseline: string }[] = [
      { name: 'GET /courses', app: '/courses', baseline: '/courses' },
      { name: `GET ${sample.coursePath}`, app: sample.coursePath, baseline: '/courses' },
      {
        name: 'GET /api/courses (deep cursor)',
        app: `/api/courses?cursor=${sample.deepCursor}`,
        baseline: '/api/courses',
      },
      { name: 'GET /search?q=非同期処理 Python', app: `/search?q=${q}`, baseline: '/courses' },
      {
        name: 'GET /courses?q=変数',
        app: `/courses?q=${encodeURIComponent('変数')}`,
        baseline: '/courses',
      },
      {
        name: 'GET /api/search?q=非同期処理',
        app: `/api/search?q=${encodeURIComponent('非同期処理')}`,
        baseline: '/api/courses',
      },
    ]
    const rows = allRows.filter(
      (row) => !selectedRows || selectedRows.some((name) => row.name.includes(name)),
    )
    if (rows.length === 0) throw new BenchError(`BENCH_ROWS matches no row: ${selectedRows}`)
    console.log(
      `\nautocannon: ${settings.connections} connections, ${settings.warmupS} s warm-up + ` +
        `${settings.durationS} s per row and per baseline; Node ${process.version}\n`,
    )
    const results: { name: string; measured: Measurement; base: Measurement }[] = []
    for (const row of rows) {
      await fetchOk(`${app.url}${row.app}`)
      const measured = await measure({ server: app, url: `${app.url}${row.app}` })
      const base = await measure({ server: baseline, url: `${baseline.url}${row.baseline}` })
      results.push({ name: row.name, measured, base })
      console.log(
        `  ${row.name}: ${format(measured.rps)} req/s vs baseline ${format(base.rps)} req/s`,
      )
    }
    printTable(
      [
        'row',
        'req/s',
        'p99 ms',
        'cpu ms/req',
        'baseline req/s',
        'baseline p99 ms',
        'ratio',
        'cpu ratio',
      ],
      results.map(({ name, measured, base }) => [
        name,
        format(measured.rps),
        measured.p99.toFixed(1),
        measured.cpuMs.toFixed(2),
        format(base.rps),
        base.p99.toFixed(1),
        (measured.rps / base.rps).toFixed(2),
        (base.cpuMs / measured.cpuMs).toFixed(2),
      ]),
    )
    console.log(
      `\nbaseline: pages against the bare catalogue page (renderToString of the app's own components ` +
        `from its build, no database), JSON against bare Fastify serialising the first catalogue page. The app ` +
        `runs without its page cache, so every request reaches the database.`,
    )
    const failures = [
      ...planProblems,
      ...results.flatMap(({ name, measured, base }) => [
        ...problems(name, measured),
        ...problems(`baseline of ${name}`, base),
      ]),
    ]
    for (const failure of failures) console.error(`FAILED: ${failure}`)
    return failures.length > 0 ? 1 : 0
  } finally {
    await Promise.all(servers.map((server) => server.close()))
    await rm(dataDir, { recursive: true, force: true })
  }
}

type Sample = { username: string; courseId: string; coursePath: string; deepCursor: string }

/** The catalogue, written with multi-row inserts in one transaction per table batch. */
async function generateContent(file: string): Promise<Sample> {
  const database = openDatabase({ kind: 'sqlite', file })
  const { db } = database
  try {
    await migrateToLatest(db)
    const now = Date.now()
    const users = Array.from({ length: AUTHORS }, (_, index) => ({
      id: `benchuser${index}`,
      username: `author${index}`,
      display_name: `著者 ${index}`,
      created_at: now,
      updated_at: now,
    }))
    await db.insertInto('users').values(users).execute()
    for (let first = 0; first < COURSES; first += BATCH_ROWS / 10) {
      const ids = Array.from(
        { length: Math.min(BATCH_ROWS / 10, COURSES - first) },
        (_, offset) => first + offset,
      )
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('courses')
          .values(
            ids.map((index) => ({
              id: `course${index}`,
              owner_id: `benchuser${index % AUTHORS}`,
              title: `${TOPICS[index % TOPICS.length]} で学ぶ${WORDS[index % WORDS.length]} 第${index}回`,
              summary: `${WORDS[(index + 3) % WORDS.length]}と${WORDS[(index + 5) % WORDS.length]}を、手を動かしながら学ぶコースです。`,
              level: 'beginner',
              access: index % 5 === 0 ? 'premium' : 'free',
              status: 'published',
              published_at: now - index * 60_000,
              created_at: now,
              updated_at: now,
            })),
          )
          .execute()
        const sections = ids.flatMap((index) =>
          Array.from({ length: SECTIONS_PER_COURSE }, (_, position) => ({
            id: `section${index}x${position}`,
            course_id: `course${index}`,
            title: `第 ${position + 1} 章`,
            position,
            created_at: now,
            updated_at: now,
          })),
        )
        await trx.insertInto('course_sections').values(sections).execute()
        for (let start = 0; start < sections.length; start += BATCH_ROWS / LESSONS_PER_SECTION) {
          const lessons = sections
            .slice(start, start + BATCH_ROWS / LESSONS_PER_SECTION)
            .flatMap((section) =>
              Array.from({ length: LESSONS_PER_SECTION }, (_, position) => ({
                id: `${section.id}l${position}`,
                course_id: section.course_id,
                section_id: section.id,
                title: `${WORDS[position % WORDS.length]}のレッスン ${position + 1}`,
                body: `## ${WORDS[position % WORDS.length]}\n\nこのレッスンでは${WORDS[(position + 1) % WORDS.length]}を使った例を見ていきます。\n\n\`\`\`js\nconst value = ${position}\nconsole.log(value)\n\`\`\``,
                access: 'free' as const,
                position,
                created_at: now,
                updated_at: now,
              })),
            )
          await trx.insertInto('lessons').values(lessons).execute()
        }
      })
    }
    const deep = Math.floor(COURSES / 2)
    return {
      username: 'author0',
      courseId: 'course0',
      coursePath: `/author${deep % AUTHORS}/courses/course${deep}`,
      deepCursor: Buffer.from(`${now - deep * 60_000}:course${deep}`, 'utf8').toString('base64url'),
    }
  } finally {
    await database.close()
  }
}

/**
 * Runs the features' real queries against the generated database, records the SQL Kysely
 * sends, and prints EXPLAIN QUERY PLAN for each. A plan that scans a content table (rather
 * than searching it by an index) is a failure.
 */
async function printQueryPlans(file: string, sample: Sample): Promise<string[]> {
  const recorded: CompiledQuery[] = []
  const db = new Kysely<DB>({
    dialect: new SqliteDialect({
      database: async () => openNodeSqlite(file, { busyTimeoutMs: 5_000 }),
    }),
    log: (event) => {
      if (event.level === 'query') recorded.push(event.query)
    },
  })
  const plans: { name: string; queries: CompiledQuery[] }[] = []
  const record = async (name: string, run: () => Promise<unknown>) => {
    recorded.length = 0
    await run()
    plans.push({ name, queries: [...recorded] })
  }
  await record('catalogue list (first page)', () => listPublishedCourses(db, { limit: 12 }))
  await record('catalogue list (deep cursor)', () =>
    listPublishedCourses(db, {
      limit: 12,
      cursor: { at: Date.now() - 5_000 * 60_000, id: 'course5000' },
    }),
  )
  await record('course detail', () =>
    readCourseForViewer(db, { username: sample.username, courseId: sample.courseId }, undefined),
  )
  for (const q of ['非同期処理 Python', '変数']) {
    await record(`search "${q}"`, () =>
      searchPublishedContent(db, searchQuery.parse({ q }), undefined),
    )
  }
  await db.destroy()

  const sqlite = new DatabaseSync(file, { readOnly: true })
  const failures: string[] = []
  try {
    for (const { name, queries } of plans) {
      console.log(`\n### ${name}`)
      for (const query of queries) {
        console.log(`\n${query.sql.replace(/\s+/g, ' ').trim()}`)
        const steps = sqlite
          .prepare(`explain query plan ${query.sql}`)
          .all(...(query.parameters as (string | number | null)[])) as { detail: string }[]
        for (const { detail } of steps) {
          console.log(`  ${detail}`)
          // A full scan of a big table; FTS5's virtual-table step and the temp b-trees are not.
          const scan = /^SCAN (courses|lessons|course_sections|users)\b(?!.*USING)/.exec(detail)
          if (scan) failures.push(`${name}: the plan scans ${scan[1]}: ${detail}`)
          // A deep page must seek to its cursor, not walk the index from the newest course.
          if (name.includes('deep cursor') && /^SEARCH courses\b/.test(detail)) {
            if (!detail.includes('published_at<')) {
              failures.push(`${name}: the plan does not seek to the cursor: ${detail}`)
            }
          }
        }
      }
    }
  } finally {
    sqlite.close()
  }
  return failures
}

runBench(main)
