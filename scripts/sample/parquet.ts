/** Parquet output through DuckDB, typed and ordered by each dataset's contract. */
import { createHash } from 'node:crypto'
import { readFile, rename, rm } from 'node:fs/promises'
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api'
import type { ColumnContract, DatasetContract } from '../../src/data/contracts'
import type { ManifestEntry } from '../../src/data/import/datasets'
import { VERSION_FILE_OPTIONS, versionOrder } from '../../src/data/import/merge'

export type Cell = string | number
export type Row = Readonly<Record<string, Cell>>

const sqlString = (text: string): string => `'${text.replaceAll("'", "''")}'`

function assertColumns(contract: DatasetContract, row: Row | undefined): void {
  const expected = contract.columns.map((c) => c.name).join(',')
  const actual = row ? Object.keys(row).join(',') : ''
  if (actual !== expected) throw new Error(`${contract.name}: row columns [${actual}] do not match contract [${expected}]`)
}

function appendCell(appender: DuckDBAppender, column: ColumnContract, value: Cell | undefined): void {
  const bad = (): Error => new Error(`${column.name}: ${String(value)} is not a valid ${column.type}`)
  switch (column.type) {
    case 'VARCHAR':
      if (typeof value !== 'string') throw bad()
      return appender.appendVarchar(value)
    case 'INTEGER':
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31 - 1) throw bad()
      return appender.appendInteger(value)
    case 'DOUBLE':
      if (typeof value !== 'number' || !Number.isFinite(value)) throw bad()
      return appender.appendDouble(value)
  }
}

/**
 * What a scaled dataset (generate-sample-data.ts --scale) does with the generated rows before they are
 * written: the SELECT over `table` (the rows as generated) whose rows the file holds instead, after any
 * helper tables it reads are made on `conn`.
 */
export type Expand = (conn: DuckDBConnection, table: string) => Promise<string>

/**
 * Loads rows into a table typed by the contract (one at a time: a generator's rows are never all held
 * in memory), then writes it sorted (sortBy, then key), or what `expand` makes of it. Returns the rows written.
 */
export async function writeParquet(
  conn: DuckDBConnection,
  contract: DatasetContract,
  rows: Iterable<Row>,
  file: string,
  expand?: Expand,
): Promise<number> {
  const table = `sample_${contract.name}`
  await conn.run(`CREATE OR REPLACE TABLE ${table} (${contract.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`)
  const appender = await conn.createAppender(table)
  let appended = 0
  for (const row of rows) {
    if (appended++ === 0) assertColumns(contract, row)
    for (const column of contract.columns) appendCell(appender, column, row[column.name])
    appender.endRow()
  }
  if (appended === 0) assertColumns(contract, undefined)
  appender.closeSync()
  const source = expand ? `(${await expand(conn, table)})` : table
  const written = expand ? await countRows(conn, source) : appended
  // Write to a temporary name and rename, so readers never see a half-written file. Written as `data
  // import` writes versions: importing a shipped file gives back the same bytes, so the same version.
  const partial = `${file}.partial`
  try {
    await conn.run(
      `COPY (SELECT * FROM ${source} ORDER BY ${versionOrder(contract).join(', ')}) TO ${sqlString(partial)} ${VERSION_FILE_OPTIONS}`,
    )
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  await conn.run(`DROP TABLE ${table}`)
  return written
}

async function countRows(conn: DuckDBConnection, source: string): Promise<number> {
  const reader = await conn.runAndReadAll(`SELECT count(*)::INTEGER AS n FROM ${source}`)
  return Number(reader.getRowObjectsJS()[0]!.n)
}

export async function manifestEntry(
  contract: DatasetContract,
  path: string,
  rows: number,
  period: { from: string; to: string },
): Promise<ManifestEntry> {
  const sha256 = createHash('sha256')
    .update(await readFile(path))
    .digest('hex')
  return {
    file: contract.file,
    schema_version: contract.schemaVersion,
    rows,
    period,
    sha256,
    version: `${contract.name}-${sha256.slice(0, 12)}`,
  }
}

/**
 * The generator's DuckDB. In memory for the shipped sample; a scaled one (millions of rows) is loaded
 * into a database file `file` instead, which the engine pages out to disk beyond `memoryLimit`, and
 * sorts with spilling to `tempDir`.
 */
export async function openDuckDB(onDisk?: {
  file: string
  tempDir: string
  memoryLimit: string
}): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(onDisk?.file ?? ':memory:', {
    // No network on the build machines: never try to fetch extensions.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    // One thread keeps row-group layout, and so the file bytes, reproducible.
    threads: '1',
    ...(onDisk ? { temp_directory: onDisk.tempDir, memory_limit: onDisk.memoryLimit } : {}),
  })
  return { instance, conn: await instance.connect() }
}
