import { type Kysely, PostgresAdapter, sql } from 'kysely'

// Full-text search over published content (see docs/decisions/015-search.md).
// PostgreSQL: pg_trgm GIN indexes on the searched columns themselves, so the index can never
// drift from the content. SQLite: an FTS5 trigram index over `search_entries`, a table of the
// published texts that triggers on the content tables keep in step, whichever code writes them.

/** Each searchable kind: its table and the columns searched besides the title. */
const SEARCHED = [
  { kind: 'course', table: 'courses', columns: ['summary'] },
  { kind: 'study', table: 'studies', columns: ['summary', 'body'] },
  { kind: 'lab', table: 'labs', columns: ['description'] },
  { kind: 'lab_story', table: 'lab_stories', columns: ['body'] },
] as const

/** The searched text of a row (`new` in a trigger, an alias in a query), one column per line. */
function bodyOf(row: string, columns: readonly string[]): string {
  return columns.map((column) => `${row}.${column}`).join(' || char(10) || ')
}

const POSTGRES_TRIGRAM_COLUMNS: Record<string, readonly string[]> = {
  courses: ['title', 'summary'],
  lessons: ['title', 'body'],
  studies: ['title', 'summary', 'body'],
  labs: ['title', 'description'],
  lab_stories: ['title', 'body'],
}

const ENTRY_COLUMNS = 'kind, subject_id, course_id, title, body, owner_id, published_at'

export async function up(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`create extension if not exists pg_trgm`.execute(db)
    for (const [table, columns] of Object.entries(POSTGRES_TRIGRAM_COLUMNS)) {
      const indexed = columns.map((column) => `${column} gin_trgm_ops`).join(', ')
      await sql
        .raw(`create index ${table}_search_idx on ${table} using gin (${indexed})`)
        .execute(db)
    }
    return
  }

  await sql`
    create table search_entries (
      id integer primary key,
      kind text not null check (kind in ('course', 'lesson', 'study', 'lab', 'lab_story')),
      subject_id text not null,
      course_id text,
      title text not null,
      body text not null,
      owner_id text not null,
      published_at bigint,
      unique (kind, subject_id)
    )`.execute(db)
  await sql`create index search_entries_course_idx on search_entries (course_id)`.execute(db)
  await sql`
    create virtual table search_fts using fts5(
      title, body, content = 'search_entries', content_rowid = 'id', tokenize = 'trigram'
    )`.execute(db)
  // Entries are only ever inserted and deleted (never updated), so two triggers keep FTS in step.
  await sql`
    create trigger search_entries_insert after insert on search_entries begin
      insert into search_fts (rowid, title, body) values (new.id, new.title, new.body);
    end`.execute(db)
  await sql`
    create trigger search_entries_delete after delete on search_entries begin
      insert into search_fts (search_fts, rowid, title, body)
        values ('delete', old.id, old.title, old.body);
    end`.execute(db)

  for (const { kind, table, columns } of SEARCHED) {
    const insertPublished = `
      insert into search_entries (${ENTRY_COLUMNS})
        select '${kind}', new.id, null, new.title, ${bodyOf('new', columns)}, new.owner_id, new.published_at
        where new.status = 'published';`
    const deleteOld = `delete from search_entries where kind = '${kind}' and subject_id = old.id;`
    await sql
      .raw(`create trigger ${table}_search_insert after insert on ${table} begin
        ${insertPublished}
      end`)
      .execute(db)
    await sql
      .raw(`create trigger ${table}_search_update
        after update of title, ${columns.join(', ')}, status, published_at, owner_id on ${table} begin
        ${deleteOld}
        ${insertPublished}
      end`)
      .execute(db)
    await sql
      .raw(`create trigger ${table}_search_delete after delete on ${table} begin
        ${deleteOld}
      end`)
      .execute(db)
    await sql
      .raw(`insert into search_entries (${ENTRY_COLUMNS})
        select '${kind}', row.id, null, row.title, ${bodyOf('row', columns)}, row.owner_id, row.published_at
        from ${table} as row where row.status = 'published'`)
      .execute(db)
  }

  // A course's lessons are searchable while the course is published.
  const insertCourseLesson = (lesson: string, course: string) => `
    insert into search_entries (${ENTRY_COLUMNS})
      select 'lesson', ${lesson}.id, ${lesson}.course_id, ${lesson}.title, ${lesson}.body,
        ${course}.owner_id, ${course}.published_at`
  await sql
    .raw(`create trigger courses_search_lessons_update
      after update of status, published_at, owner_id on courses begin
      delete from search_entries where kind = 'lesson' and course_id = old.id;
      ${insertCourseLesson('l', 'new')} from lessons as l
        where l.course_id = new.id and new.status = 'published';
    end`)
    .execute(db)
  await sql`
    create trigger courses_search_lessons_delete after delete on courses begin
      delete from search_entries where kind = 'lesson' and course_id = old.id;
    end`.execute(db)
  await sql
    .raw(`create trigger lessons_search_insert after insert on lessons begin
      ${insertCourseLesson('new', 'c')} from courses as c
        where c.id = new.course_id and c.status = 'published';
    end`)
    .execute(db)
  await sql
    .raw(`create trigger lessons_search_update after update of title, body, course_id on lessons begin
      delete from search_entries where kind = 'lesson' and subject_id = old.id;
      ${insertCourseLesson('new', 'c')} from courses as c
        where c.id = new.course_id and c.status = 'published';
    end`)
    .execute(db)
  await sql`
    create trigger lessons_search_delete after delete on lessons begin
      delete from search_entries where kind = 'lesson' and subject_id = old.id;
    end`.execute(db)
  await sql
    .raw(`${insertCourseLesson('l', 'c')} from lessons as l
      join courses as c on c.id = l.course_id where c.status = 'published'`)
    .execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    for (const table of Object.keys(POSTGRES_TRIGRAM_COLUMNS)) {
      await sql.raw(`drop index ${table}_search_idx`).execute(db)
    }
    return
  }
  // Dropping the tables drops their triggers; the content tables' triggers go by name.
  for (const { table } of SEARCHED) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger ${table}_search_${event}`).execute(db)
    }
  }
  for (const trigger of [
    'courses_search_lessons_update',
    'courses_search_lessons_delete',
    'lessons_search_insert',
    'lessons_search_update',
    'lessons_search_delete',
  ]) {
    await sql.raw(`drop trigger ${trigger}`).execute(db)
  }
  await sql`drop table search_fts`.execute(db)
  await sql`drop table search_entries`.execute(db)
}
