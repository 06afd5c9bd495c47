/** What the `data` commands share (cli/data.ts, cli/data-publish.ts): their usage error, options and DuckDB. */
import { DuckDb } from '../data'

/** A command written wrong: its message names the one thing missing (exit status 2). */
export class UsageError extends Error {}

export type Flags = {
  dataset?: string
  sample?: boolean
  notice?: string
  json?: boolean
  replace?: boolean
  'max-drop'?: string
  to?: string
  key?: string
  note?: string
  verify?: boolean
}

/** One DuckDB for one command, closed after it. */
export async function withDb<T>(fn: (db: DuckDb) => Promise<T>): Promise<T> {
  const db = await DuckDb.open(1)
  try {
    return await fn(db)
  } finally {
    db.close()
  }
}
