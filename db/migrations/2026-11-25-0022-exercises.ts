import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Exercises (docs/decisions/031): a study's ordered questions, each with its own
// revision; the kind-specific part (options with their correct flags, accepted answers, tests)
// is one JSON column parsed by `questionBody` on read. Learners' attempts keep the answer as
// sent and the server's verdict; `question_progress` is one row per (learner, question) with
// its status, so lists read status without scanning attempts. History gains `exercise_solved`
// and rendered Markdown the questions' prompts and explanations: both are CHECK constraints,
// which SQLite can only change by rebuilding the table.

const HISTORY_KINDS = ['lesson_done', 'published', 'exercise_solved']
const HISTORY_SUBJECTS = ['lesson', 'course', 'study', 'lab', 'lab_story', 'question']
const RENDERED_KINDS = [
  'lesson',
  'study',
  'lab',
  'lab_story',
  'comment',
  'question_prompt',
  'question_explanation',
]
const OLD_HISTORY_KINDS = ['lesson_done', 'published']
const OLD_HISTORY_SUBJECTS = ['lesson', 'course', 'study', 'lab', 'lab_story']
const OLD_RENDERED_KINDS = ['lesson', 'study', 'lab', 'lab_story', 'comment']

function inList(column: string, values: readonly string[]) {
  return sql.raw(`${column} in (${values.map((value) => `'${value}'`).join(', ')})`)
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('questions')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('study_id', 'text', (column) =>
      column.notNull().references('studies.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('single', 'multiple', 'text', 'code')`),
    )
    // Code questions only: a column of its own so /exercises filters without reading JSON.
    .addColumn('language', 'text', (column) =>
      column.check(sql`language is null or language in ('javascript', 'python')`),
    )
    .addColumn('prompt', 'text', (column) => column.notNull())
    .addColumn('explanation', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('difficulty', 'text', (column) =>
      column.notNull().check(sql`difficulty in ('beginner', 'intermediate', 'advanced')`),
    )
    .addColumn('access', 'text', (column) =>
      column.notNull().check(sql`access in ('free', 'premium')`),
    )
    .addColumn('body', 'text', (column) => column.notNull())
    .addColumn('revision', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('questions_study_idx')
    .on('questions')
    .columns(['study_id', 'position'])
    .execute()

  await db.schema
    .createTable('question_tags')
    .addColumn('subject_id', 'text', (column) =>
      column.notNull().references('questions.id').onDelete('cascade'),
    )
    .addColumn('tag_id', 'text', (column) =>
      column.notNull().references('tags.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('question_tags_pk', ['subject_id', 'tag_id'])
    .execute()
  await db.schema
    .createIndex('question_tags_tag_idx')
    .on('question_tags')
    .column('tag_id')
    .execute()

  await db.schema
    .createTable('question_attempts')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('question_id', 'text', (column) =>
      column.notNull().references('questions.id').onDelete('cascade'),
    )
    .addColumn('question_revision', 'integer', (column) => column.notNull())
    // The answer as sent (JSON of `answerInput`), and what the server found.
    .addColumn('answer', 'text', (column) => column.notNull())
    .addColumn('verdict', 'text', (column) =>
      column.notNull().check(sql`verdict in ('correct', 'incorrect')`),
    )
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute()
  // "My attempts" of one question, newest first.
  await db.schema
    .createIndex('question_attempts_user_idx')
    .on('question_attempts')
    .columns(['user_id', 'question_id', 'created_at desc'])
    .execute()
  await db.schema
    .createIndex('question_attempts_question_idx')
    .on('question_attempts')
    .column('question_id')
    .execute()

  await db.schema
    .createTable('question_progress')
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('question_id', 'text', (column) =>
      column.notNull().references('questions.id').onDelete('cascade'),
    )
    .addColumn('study_id', 'text', (column) =>
      column.notNull().references('studies.id').onDelete('cascade'),
    )
    .addColumn('attempts', 'integer', (column) => column.notNull())
    .addColumn('solved_at', 'bigint')
    .addColumn('last_attempt_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('question_progress_pk', ['user_id', 'question_id'])
    .execute()
  // A learner's exercise sets, most recently practised first (home's continue cards), and
  // "n / m solved" of one study.
  await db.schema
    .createIndex('question_progress_user_idx')
    .on('question_progress')
    .columns(['user_id', 'study_id', 'last_attempt_at'])
    .execute()
  await db.schema
    .createIndex('question_progress_question_idx')
    .on('question_progress')
    .column('question_id')
    .execute()

  await widenChecks(db, HISTORY_KINDS, HISTORY_SUBJECTS, RENDERED_KINDS)
}

/** Sets the allowed values of the history and rendered-Markdown kind columns. */
async function widenChecks(
  db: Kysely<unknown>,
  historyKinds: readonly string[],
  historySubjects: readonly string[],
  renderedKinds: readonly string[],
): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    // PostgreSQL named the column checks of 0009 and 0016 `{table}_{column}_check`.
    for (const [table, column, values] of [
      ['history_events', 'kind', historyKinds],
      ['history_events', 'subject_kind', historySubjects],
      ['rendered_markdown', 'subject_kind', renderedKinds],
    ] as const) {
      const name = `${table}_${column}_check`
      await sql.raw(`alter table ${table} drop constraint if exists ${name}`).execute(db)
      await sql`alter table ${sql.raw(table)} add constraint ${sql.raw(name)} check (${inList(column, values)})`.execute(
        db,
      )
    }
    return
  }
  // SQLite: a new table with the new checks, the rows copied, then renamed into place.
  await db.schema
    .createTable('history_events_next')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (column) => column.notNull().check(inList('kind', historyKinds)))
    .addColumn('subject_kind', 'text', (column) =>
      column.notNull().check(inList('subject_kind', historySubjects)),
    )
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .execute()
  await sql`insert into history_events_next (id, user_id, kind, subject_kind, subject_id, at)
    select id, user_id, kind, subject_kind, subject_id, at from history_events`.execute(db)
  await db.schema.dropTable('history_events').execute()
  await db.schema.alterTable('history_events_next').renameTo('history_events').execute()
  await db.schema
    .createIndex('history_events_user_idx')
    .on('history_events')
    .columns(['user_id', 'at desc', 'id desc'])
    .execute()

  await db.schema
    .createTable('rendered_markdown_next')
    .addColumn('subject_kind', 'text', (column) =>
      column.notNull().check(inList('subject_kind', renderedKinds)),
    )
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('source_hash', 'text', (column) => column.notNull())
    .addColumn('renderer_version', 'integer', (column) => column.notNull())
    .addColumn('html', 'text', (column) => column.notNull())
    .addColumn('rendered_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('rendered_markdown_pk', ['subject_kind', 'subject_id'])
    .execute()
  await sql`insert into rendered_markdown_next
    select subject_kind, subject_id, source_hash, renderer_version, html, rendered_at
    from rendered_markdown
    where ${inList('subject_kind', renderedKinds)}`.execute(db)
  await db.schema.dropTable('rendered_markdown').execute()
  await db.schema.alterTable('rendered_markdown_next').renameTo('rendered_markdown').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`delete from history_events where kind = 'exercise_solved' or subject_kind = 'question'`.execute(
    db,
  )
  await sql`delete from rendered_markdown where subject_kind in ('question_prompt', 'question_explanation')`.execute(
    db,
  )
  await widenChecks(db, OLD_HISTORY_KINDS, OLD_HISTORY_SUBJECTS, OLD_RENDERED_KINDS)
  for (const table of ['question_progress', 'question_attempts', 'question_tags', 'questions']) {
    await db.schema.dropTable(table).execute()
  }
}
