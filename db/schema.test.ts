import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { sql } from 'kysely'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { type Database, openTestDatabase, testEngines } from './test-support.ts'

/**
 * db/schema.ts is written by hand beside the migrations; this keeps the two in step.
 * Every table and column of the migrated database, on each engine, must be in the
 * Kysely types with the same nullability and broad type, and every typed column must exist.
 */

type Broad = 'text' | 'number'
type Column = { nullable: boolean; type: Broad }
type Tables = Record<string, Record<string, Column>>

const here = path.dirname(fileURLToPath(import.meta.url))

/**
 * Tables the types leave out on purpose, per engine: SQLite's search index (migration 0010,
 * decision 015), kept by triggers and read with raw SQL; FTS5 adds its shadow tables.
 */
const UNTYPED: Record<'sqlite' | 'postgres', string[]> = {
  sqlite: [
    'search_entries',
    'search_fts',
    'search_fts_config',
    'search_fts_data',
    'search_fts_docsize',
    'search_fts_idx',
  ],
  postgres: [],
}

/** What a row of each table in `DB` reads as (Kysely's Selectable), from the compiler. */
function typedTables(): Tables {
  const probeFile = path.join(here, 'schema-probe.ts')
  const probe = [
    "import type { Selectable } from 'kysely'",
    "import type { DB } from './schema.ts'",
    'export type Rows = { [Table in keyof DB]: Selectable<DB[Table]> }',
  ].join('\n')
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.Preserve,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2024,
    types: [],
  }
  const host = ts.createCompilerHost(options)
  const { getSourceFile, fileExists, readFile } = host
  host.fileExists = (name) => name === probeFile || fileExists.call(host, name)
  host.readFile = (name) => (name === probeFile ? probe : readFile.call(host, name))
  host.getSourceFile = (name, language, ...rest) =>
    name === probeFile
      ? ts.createSourceFile(name, probe, language)
      : getSourceFile.call(host, name, language, ...rest)
  const program = ts.createProgram([probeFile], options, host)
  const problems = ts.getPreEmitDiagnostics(program)
  if (problems.length > 0) {
    throw new Error(ts.formatDiagnostics(problems, host))
  }
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(probeFile)
  const alias = source?.statements.find(ts.isTypeAliasDeclaration)
  if (!alias) throw new Error('the probe declares no type')
  const tables: Tables = {}
  for (const table of checker.getPropertiesOfType(checker.getTypeAtLocation(alias.name))) {
    const columns: Record<string, Column> = {}
    const row = checker.getTypeOfSymbolAtLocation(table, alias)
    for (const column of checker.getPropertiesOfType(row)) {
      columns[column.name] = broadTypeOf(
        checker.getTypeOfSymbolAtLocation(column, alias),
        `${table.name}.${column.name}`,
      )
    }
    tables[table.name] = columns
  }
  return tables
}

function broadTypeOf(type: ts.Type, name: string): Column {
  const parts = type.isUnion() ? type.types : [type]
  const nullable = parts.some((part) => part.flags & ts.TypeFlags.Null)
  const broad = new Set(
    parts
      .filter((part) => !(part.flags & ts.TypeFlags.Null))
      .map((part) => {
        if (part.flags & ts.TypeFlags.StringLike) return 'text'
        if (part.flags & ts.TypeFlags.NumberLike) return 'number'
        return `unexpected (${part.flags})`
      }),
  )
  const [only, ...others] = [...broad]
  if (!only || others.length > 0 || (only !== 'text' && only !== 'number')) {
    throw new Error(`${name}: a column type this test does not know: ${[...broad].join(' | ')}`)
  }
  return { nullable, type: only }
}

/** The broad type a column's declared SQL type reads as through our dialects. */
function broadSqlType(engine: 'sqlite' | 'postgres', declared: string): Broad | string {
  const type = declared.toLowerCase()
  if (engine === 'sqlite') {
    // SQLite's affinity rules (https://sqlite.org/datatype3.html#determination_of_column_affinity).
    if (type.includes('int')) return 'number'
    if (/char|clob|text/.test(type)) return 'text'
    if (/real|floa|doub/.test(type)) return 'number'
    return `unexpected (${declared})`
  }
  if (['text', 'varchar', 'bpchar'].includes(type)) return 'text'
  // int8 too: db/database.ts reads BIGINT as a JavaScript number.
  if (['int2', 'int4', 'int8', 'float4', 'float8', 'numeric'].includes(type)) return 'number'
  return `unexpected (${declared})`
}

async function sqlitePrimaryKey(database: Database, table: string): Promise<string[]> {
  const { rows } = await sql<{
    name: string
    pk: number
  }>`select name, pk from pragma_table_info(${table})`.execute(database.db)
  return rows.filter((row) => row.pk > 0).map((row) => row.name)
}

describe('db/schema.ts against the migrated database', () => {
  const typed = typedTables()

  it('reads every table of DB, each with columns', () => {
    expect(Object.keys(typed).length).toBeGreaterThan(30)
    expect(typed.users?.username).toEqual({ nullable: false, type: 'text' })
    expect(typed.users?.avatar_key).toEqual({ nullable: true, type: 'text' })
    expect(typed.users?.created_at).toEqual({ nullable: false, type: 'number' })
  })

  for (const engine of testEngines) {
    it(`matches every table and column on ${engine}`, async () => {
      const database = await openTestDatabase(engine)
      try {
        const found: Tables = {}
        for (const table of await database.db.introspection.getTables()) {
          if (table.isView) continue
          const keys = engine === 'sqlite' ? await sqlitePrimaryKey(database, table.name) : []
          found[table.name] = Object.fromEntries(
            table.columns.map((column) => [
              column.name,
              {
                // SQLite lets a primary key other than INTEGER hold NULL unless it says NOT NULL
                // (a quirk it keeps for compatibility); PostgreSQL, checked the same way, does not.
                nullable: column.isNullable && !keys.includes(column.name),
                type: broadSqlType(engine, column.dataType) as Broad,
              },
            ]),
          )
        }
        const untyped = UNTYPED[engine]
        // Listed exceptions must still exist, or the list has gone stale.
        expect(
          Object.keys(found)
            .filter((name) => untyped.includes(name))
            .sort(),
        ).toEqual([...untyped].sort())
        for (const name of untyped) delete found[name]
        expect(found).toEqual(typed)
      } finally {
        await database.remove()
      }
    })
  }
})
