import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance, type DuckDBConnection, type DuckDBPreparedStatement, type DuckDBValue } from '@duckdb/node-api'

/** Prepared statements kept per connection (least recently used dropped first). */
const STATEMENTS_PER_CONNECTION = 64

/** One connection held by `DuckDb.withConnection`. */
export interface DuckDbSession {
  all<R = Record<string, unknown>>(sql: string): Promise<R[]>
  exec(sql: string): Promise<void>
}

/**
 * One in-process DuckDB with a small pool of connections. A connection serves one query at a time:
 * sharing one across concurrent requests returned wrong rows in a race test on this stack.
 */
export class DuckDb {
  private readonly idle: DuckDBConnection[] = []
  private readonly waiters: ((connection: DuckDBConnection) => void)[] = []
  private closed = false
  /**
   * Queries with parameters, prepared once per connection: parsing and planning them again on every call
   * took about a twentieth of a first answer's time on the JavaScript thread (the corpus's few queries).
   */
  private readonly statements = new Map<DuckDBConnection, Map<string, DuckDBPreparedStatement>>()
  /** Reports how long each query waited for a connection (metrics). */
  onWait?: (seconds: number) => void

  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly connections: DuckDBConnection[],
    /** Where queries past the memory limit spill. */
    readonly spillDir: string,
  ) {
    this.idle.push(...connections)
  }

  /** Whether a query is running or waiting (background work starts only when none is). */
  get busy(): boolean {
    return this.idle.length < this.connections.length || this.waiters.length > 0
  }

  /**
   * `memoryLimitMb` bounds the engine's memory (tables, buffers, caches): unset, DuckDB takes up to 80% of
   * the machine's. A query that needs more spills up to four times as much to a folder of the system's
   * temporary directory (DuckDB's own default is `.tmp` where the process was started), then fails.
   */
  static async open(poolSize = 2, memoryLimitMb?: number): Promise<DuckDb> {
    // A folder of its own (unpredictable name, this user only), removed on close.
    const spill = mkdtempSync(join(tmpdir(), 'china-market-intel-duckdb-'))
    // Extensions cannot be downloaded on an offline host; Parquet and JSON are built in.
    const instance = await DuckDBInstance.create(':memory:', {
      autoinstall_known_extensions: 'false',
      autoload_known_extensions: 'false',
      threads: String(poolSize),
      temp_directory: spill,
      ...(memoryLimitMb ? { memory_limit: `${memoryLimitMb}MB`, max_temp_directory_size: `${memoryLimitMb * 4}MB` } : {}),
    })
    const connections = await Promise.all(Array.from({ length: poolSize }, () => instance.connect()))
    return new DuckDb(instance, connections, spill)
  }

  private acquire(): Promise<DuckDBConnection> {
    if (this.closed) return Promise.reject(new Error('DuckDB is closed'))
    const connection = this.idle.pop()
    if (connection) {
      this.onWait?.(0)
      return Promise.resolve(connection)
    }
    const since = performance.now()
    return new Promise((resolve) =>
      this.waiters.push((conn) => {
        this.onWait?.((performance.now() - since) / 1000)
        resolve(conn)
      }),
    )
  }

  private release(connection: DuckDBConnection): void {
    const next = this.waiters.shift()
    if (next) next(connection)
    else this.idle.push(connection)
  }

  /** Runs parameterised SQL ($1, $2, ...) and returns plain row objects. Cast BIGINTs in SQL. */
  async all<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const connection = await this.acquire()
    try {
      if (!params.length) return (await connection.runAndReadAll(sql)).getRowObjectsJS() as T[]
      const reader = await this.bound(connection, sql, params, (statement) => statement.runAndReadAll())
      return reader.getRowObjectsJS() as T[]
    } finally {
      this.release(connection)
    }
  }

  /**
   * Large results of a query whose one column is each row as a JSON object (`to_json(struct_pack(...))`):
   * parsed chunk by chunk (2,048 rows) by the engine's own JSON parser, about a third faster than
   * converting each value of a wide text row (measured on the evidence corpus's candidate rows), and the
   * event loop gets a turn between chunks, so tens of thousands of rows never block other requests at once.
   */
  async jsonRows<T>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const rows: T[] = []
    await this.eachJsonChunk<T>(sql, params, (chunk) => {
      for (const row of chunk) rows.push(row)
    })
    return rows
  }

  /**
   * The rows of a `jsonRows` query a chunk (2,048 rows) at a time, none kept: a result of millions of
   * rows (a corpus read whole to index it) streams through in the memory of one chunk.
   */
  async eachJsonChunk<T>(sql: string, params: DuckDBValue[], fn: (rows: T[]) => void | Promise<void>): Promise<void> {
    const connection = await this.acquire()
    try {
      await this.bound(connection, sql, params, async (statement) => {
        const result = await statement.stream()
        for await (const chunk of result.yieldRowsJs()) {
          if (chunk.length) await fn(JSON.parse(`[${chunk.map((r) => r[0] as string).join(',')}]`) as T[])
          await new Promise<void>((resolve) => setImmediate(resolve))
        }
      })
    } finally {
      this.release(connection)
    }
  }

  /**
   * Runs `sql` (one statement) with `params` bound, on its statement prepared on this connection. A
   * statement whose run failed is dropped (the next call prepares it again).
   */
  private async bound<R>(
    connection: DuckDBConnection,
    sql: string,
    params: DuckDBValue[],
    run: (statement: DuckDBPreparedStatement) => Promise<R>,
  ): Promise<R> {
    let kept = this.statements.get(connection)
    if (!kept) this.statements.set(connection, (kept = new Map()))
    let statement = kept.get(sql)
    kept.delete(sql)
    statement ??= await connection.prepare(sql)
    statement.bind(params)
    const result = await run(statement).catch((error: unknown) => {
      statement.destroySync()
      throw error
    })
    kept.set(sql, statement)
    if (kept.size > STATEMENTS_PER_CONNECTION) {
      const [oldest, old] = kept.entries().next().value as [string, DuckDBPreparedStatement]
      kept.delete(oldest)
      old.destroySync()
    }
    return result
  }

  /** Bytes the engine holds (its buffer pool, tables and caches; duckdb_memory()), for the metrics. */
  async memoryBytes(): Promise<number> {
    const [row] = await this.all<{ bytes: number }>('SELECT CAST(SUM(memory_usage_bytes) AS DOUBLE) AS bytes FROM duckdb_memory()')
    return row?.bytes ?? 0
  }

  async exec(sql: string): Promise<void> {
    const connection = await this.acquire()
    try {
      await connection.run(sql)
    } finally {
      this.release(connection)
    }
  }

  /**
   * Runs several statements on one pooled connection, held until `fn` settles: temporary tables (such
   * as read_csv's reject tables) live on the connection that made them. `fn` must not call this
   * DuckDb's own methods, which would wait for a connection it holds.
   */
  async withConnection<T>(fn: (session: DuckDbSession) => Promise<T>): Promise<T> {
    const connection = await this.acquire()
    try {
      return await fn({
        all: async <R>(sql: string) => (await connection.runAndReadAll(sql)).getRowObjectsJS() as R[],
        exec: async (sql: string) => void (await connection.run(sql)),
      })
    } finally {
      this.release(connection)
    }
  }

  close(): void {
    this.closed = true
    for (const c of this.idle.splice(0)) c.closeSync()
    this.instance.closeSync()
    rmSync(this.spillDir, { recursive: true, force: true })
  }
}
