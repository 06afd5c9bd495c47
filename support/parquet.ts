import { resolve } from 'node:path'
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api'
import { DATASETS } from '../src/data/contracts'

/** The shipped datasets folder. */
export const DATASETS_DIR = resolve(import.meta.dir, '../datasets')

/** A separate DuckDB over the shipped Parquet files: the independent source of expected values. */
export class Parquet {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  static async open(): Promise<Parquet> {
    const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
    const conn = await instance.connect()
    for (const { name, file } of DATASETS) {
      await conn.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet('${resolve(DATASETS_DIR, file)}')`)
    }
    return new Parquet(instance, conn)
  }

  /** Rows as plain objects; BIGINT results are turned into numbers (cast sums in SQL to stay exact). */
  async rows<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params)
    return reader
      .getRowObjectsJS()
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))) as T[]
  }

  async one<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T> {
    const rows = await this.rows<T>(sql, params)
    if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${sql}`)
    return rows[0]!
  }

  close(): void {
    this.conn.closeSync()
    this.instance.closeSync()
  }
}
