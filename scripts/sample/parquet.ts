/** Parquet output through DuckDB, typed and ordered by each dataset's contract. */
import { createHash } from 'node:crypto'
import { readFile, rename, rm } from 'node:fs/promises'
import { DuckDBInstance, type DuckDBAppender, type DuckDBConnection } from '@duckdb/node-api'
import type { ColumnContract, DatasetContract } from '../../src/data/contracts'
import type { ManifestEntry } from '../../src/data/datasets'
import { VERSION_FILE_OPTIONS, versionOrder } from '../../src/data/merge'

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

/** Loads rows into a table typed by the contract, then writes it sorted (sortBy, then key). */
export async function writeParquet(conn: DuckDBConnection, contract: DatasetContract, rows: readonly Row[], file: string): Promise<void> {
  assertColumns(contract, rows[0])
  const table = `sample_${contract.name}`
  await conn.run(`CREATE OR REPLACE TABLE ${table} (${contract.columns.map((c) => `${c.name} ${c.type}`).join(', ')})`)
  const appender = await conn.createAppender(table)
  for (const row of rows) {
    for (const column of contract.columns) appendCell(appender, column, row[column.name])
    appender.endRow()
  }
  appender.closeSync()
  // Write to a temporary name and rename, so readers never see a half-written file. Written as `data
  // import` writes versions: importing a shipped file gives back the same bytes, so the same version.
  const partial = `${file}.partial`
  try {
    await conn.run(
      `COPY (SELECT * FROM ${table} ORDER BY ${versionOrder(contract).join(', ')}) TO ${sqlString(partial)} ${VERSION_FILE_OPTIONS}`,
    )
    await rename(partial, file)
  } catch (error) {
    await rm(partial, { force: true })
    throw error
  }
  await conn.run(`DROP TABLE ${table}`)
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

export async function openDuckDB(): Promise<{ instance: DuckDBInstance; conn: DuckDBConnection }> {
  const instance = await DuckDBInstance.create(':memory:', {
    // No network on the build machines: never try to fetch extensions.
    autoinstall_known_extensions: 'false',
    autoload_known_extensions: 'false',
    // One thread keeps row-group layout, and so the file bytes, reproducible.
    threads: '1',
  })
  return { instance, conn: await instance.connect() }
}
