import { type Kysely, sql } from 'kysely'

// The learning content of every kind (see docs/decisions/013-learning-content-model.md):
// courses gain a cover, a revision and an ordered tree of sections and lessons; studies, labs
// (with screenshots) and lab stories share the same draft/publish columns; tags are shared
// across kinds with one link table per kind; learners' progress and history events.
// Portable as in 001: text ids, bigint epoch ms, CHECK constraints, integer counters.

const CONTENT_KINDS = ['course', 'study', 'lab', 'lab_story'] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('courses').addColumn('cover_key', 'text').execute()
  await db.schema
    .alterTable('courses')
    .addColumn('revision', 'integer', (column) => column.notNull().defaultTo(1))
    .execute()
  // The owner's own list (drafts included), most recently edited first.
  await db.schema
    .createIndex('courses_owner_updated_idx')
    .on('courses')
    .columns(['owner_id', 'updated_at desc'])
    .execute()
  await db.schema.dropIndex('courses_owner_idx').execute()

  await db.schema
    .createTable('course_sections')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('course_id', 'text', (column) =>
      column.notNull().references('courses.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('course_sections_course_idx')
    .on('course_sections')
    .columns(['course_id', 'position'])
    .execute()

  await db.schema
    .createTable('lessons')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('course_id', 'text', (column) =>
      column.notNull().references('courses.id').onDelete('cascade'),
    )
    .addColumn('section_id', 'text', (column) =>
      column.notNull().references('course_sections.id').onDelete('cascade'),
    )
    .addColumn('title', 'text', (column) => column.notNull())
    .addColumn('body', 'text', (column) => column.notNull().defaultTo(''))
    .addColumn('access', 'text', (column) =>
      column.notNull().check(sql`access in ('free', 'premium')`),
    )
    .addColumn('position', 'integer', (column) => column.notNull())
    .addColumn('revision', 'integer', (column) => column.notNull().defaultTo(1))
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .addColumn('updated_at', 'bigint', (column) => column.notNull())
    .execute()
  await db.schema
    .createIndex('lessons_section_idx')
    .on('lessons')
    .columns(['section_id', 'position'])
    .execute()
  await db.schema.createIndex('lessons_course_idx').on('lessons').column('course_id').execute()

  await db.schema
    .createTable('lesson_progress')
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('lesson_id', 'text', (column) =>
      column.notNull().references('lessons.id').onDelete('cascade'),
    )
    .addColumn('course_id', 'text', (column) =>
      column.notNull().references('courses.id').onDelete('cascade'),
    )
    .addColumn('done_at', 'bigint', (column) => column.notNull())
    .addPrimaryKeyConstraint('lesson_progress_pk', ['user_id', 'lesson_id'])
    .execute()
  await db.schema
    .createIndex('lesson_progress_course_idx')
    .on('lesson_progress')
    .columns(['user_id', 'course_id'])
    .execute()

  await createPublishable(db, 'studies', (table) =>
    table
      .addColumn('summary', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('body', 'text', (column) => column.notNull().defaultTo('')),
  )
  await createPublishable(db, 'labs', (table) =>
    table
      .addColumn('description', 'text', (column) => column.notNull().defaultTo(''))
      .addColumn('repository_url', 'text')
      .addColumn('demo_url', 'text'),
  )
  await db.schema
    .createTable('lab_screenshots')
    .addColumn('lab_id', 'text', (column) =>
      column.notNull().references('labs.id').onDelete('cascade'),
    )
    .addColumn('object_key', 'text', (column) => column.notNull())
    .addColumn('position', 'integer', (column) => column.notNull())
    .addPrimaryKeyConstraint('lab_screenshots_pk', ['lab_id', 'object_key'])
    .execute()
  await createPublishable(db, 'lab_stories', (table) =>
    table
      .addColumn('lab_id', 'text', (column) => column.references('labs.id').onDelete('set null'))
      .addColumn('body', 'text', (column) => column.notNull().defaultTo('')),
  )
  await db.schema
    .createIndex('lab_stories_lab_idx')
    .on('lab_stories')
    .columns(['lab_id', 'published_at desc'])
    .execute()

  await db.schema
    .createTable('tags')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('name', 'text', (column) => column.notNull().unique())
    .addColumn('created_at', 'bigint', (column) => column.notNull())
    .execute()
  for (const [table, subject] of [
    ['course_tags', 'courses'],
    ['study_tags', 'studies'],
    ['lab_tags', 'labs'],
    ['lab_story_tags', 'lab_stories'],
  ] as const) {
    await db.schema
      .createTable(table)
      .addColumn('subject_id', 'text', (column) =>
        column.notNull().references(`${subject}.id`).onDelete('cascade'),
      )
      .addColumn('tag_id', 'text', (column) =>
        column.notNull().references('tags.id').onDelete('cascade'),
      )
      .addColumn('position', 'integer', (column) => column.notNull())
      .addPrimaryKeyConstraint(`${table}_pk`, ['subject_id', 'tag_id'])
      .execute()
    // The tag page: everything of this kind carrying a tag.
    await db.schema.createIndex(`${table}_tag_idx`).on(table).column('tag_id').execute()
  }

  await db.schema
    .createTable('history_events')
    .addColumn('id', 'text', (column) => column.primaryKey())
    .addColumn('user_id', 'text', (column) =>
      column.notNull().references('users.id').onDelete('cascade'),
    )
    .addColumn('kind', 'text', (column) =>
      column.notNull().check(sql`kind in ('lesson_done', 'published')`),
    )
    .addColumn('subject_kind', 'text', (column) =>
      column.notNull().check(sql.raw(`subject_kind in (${quoted(['lesson', ...CONTENT_KINDS])})`)),
    )
    .addColumn('subject_id', 'text', (column) => column.notNull())
    .addColumn('at', 'bigint', (column) => column.notNull())
    .execute()
  // /histories: one user's timeline, newest first, paged by (at, id).
  await db.schema
    .createIndex('history_events_user_idx')
    .on('history_events')
    .columns(['user_id', 'at desc', 'id desc'])
    .execute()
}

type TableBuilder = ReturnType<Kysely<unknown>['schema']['createTable']>

/** A content kind with an owner, a title, a draft/publish state and a revision counter. */
async function createPublishable(
  db: Kysely<unknown>,
  table: string,
  columns: (table: TableBuilder) => TableBuilder,
): Promise<void> {
  await columns(
    db.schema
      .createTable(table)
      .addColumn('id', 'text', (column) => column.primaryKey())
      .addColumn('owner_id', 'text', (column) =>
        column.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('title', 'text', (column) => column.notNull())
      .addColumn('status', 'text', (column) =>
        column.notNull().check(sql`status in ('draft', 'published')`),
      )
      .addColumn('published_at', 'bigint')
      .addColumn('revision', 'integer', (column) => column.notNull().defaultTo(1))
      .addColumn('created_at', 'bigint', (column) => column.notNull())
      .addColumn('updated_at', 'bigint', (column) => column.notNull()),
  ).execute()
  await db.schema
    .createIndex(`${table}_list_idx`)
    .on(table)
    .columns(['status', 'published_at desc', 'id desc'])
    .execute()
  await db.schema
    .createIndex(`${table}_owner_idx`)
    .on(table)
    .columns(['owner_id', 'updated_at desc'])
    .execute()
}

function quoted(values: readonly string[]): string {
  return values.map((value) => `'${value}'`).join(', ')
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'history_events',
    'lab_story_tags',
    'lab_tags',
    'study_tags',
    'course_tags',
    'tags',
    'lab_stories',
    'lab_screenshots',
    'labs',
    'studies',
    'lesson_progress',
    'lessons',
    'course_sections',
  ]) {
    await db.schema.dropTable(table).execute()
  }
  await db.schema.createIndex('courses_owner_idx').on('courses').column('owner_id').execute()
  await db.schema.dropIndex('courses_owner_updated_idx').execute()
  await db.schema.alterTable('courses').dropColumn('revision').execute()
  await db.schema.alterTable('courses').dropColumn('cover_key').execute()
}
