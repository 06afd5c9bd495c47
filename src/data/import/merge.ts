import type { DatasetContract } from '../contracts'
import { sqlString } from '../sql'
import type { DuckDb } from '../duckdb'

/** How every version file is written (the sample generator too): the same rows give the same bytes. */
export const VERSION_FILE_OPTIONS = '(FORMAT parquet, ROW_GROUP_SIZE 100000, COMPRESSION zstd)'

/** Row order of a version file: the contract's sortBy, then the rest of the key, which makes it total. */
export const versionOrder = (c: DatasetContract) => [...c.sortBy, ...c.key.filter((k) => !c.sortBy.includes(k))]

/** Share of a replaced period's rows a merge may drop without `--max-drop` or `--replace`, in percent. */
export const DEFAULT_MAX_DROP_PERCENT = 20

/** Rows per period (month, or week_start) of a Parquet file. */
export async function periodRows(db: DuckDb, file: string, contract: DatasetContract): Promise<Map<string, number>> {
  const periodColumn = contract.period.column
  const rows = await db.all<{ p: string; n: number }>(
    `SELECT ${periodColumn} AS p, count(*)::INTEGER AS n FROM read_parquet(${sqlString(file)}) GROUP BY ALL ORDER BY p`,
  )
  return new Map(rows.map((r) => [r.p, r.n]))
}

/**
 * Writes a version file: the contract's columns cast to its types, sorted by `versionOrder`. With
 * `base`, the base keeps every period the delivery does not hold, and the delivery's periods replace
 * the base's. Deterministic: the order is total and the writer's options fixed, so the same inputs
 * give the same bytes, and so the same content-addressed version (the shipped files rewrite to
 * themselves).
 */
export async function writeVersion(db: DuckDb, contract: DatasetContract, delivery: string, out: string, base?: string): Promise<void> {
  const columns = contract.columns.map((c) => `CAST(${c.name} AS ${c.type}) AS ${c.name}`).join(', ')
  const periodColumn = contract.period.column
  const kept = base
    ? `SELECT ${columns} FROM read_parquet(${sqlString(base)}) WHERE ${periodColumn} NOT IN (SELECT ${periodColumn} FROM read_parquet(${sqlString(delivery)})) UNION ALL `
    : ''
  await db.exec(
    `COPY (SELECT * FROM (${kept}SELECT ${columns} FROM read_parquet(${sqlString(delivery)})) ORDER BY ${versionOrder(contract).join(', ')}) TO ${sqlString(out)} ${VERSION_FILE_OPTIONS}`,
  )
}

export interface ReplacedPeriod {
  period: string
  rows: number
  previous: number
}

/** The delivery's periods against the current version's: new ones, replaced ones (with both row counts), and those the delivery lacks. */
export function comparePeriods(delivered: Map<string, number>, current: Map<string, number>) {
  const periods = [...delivered.keys()].sort()
  return {
    added: periods.filter((p) => !current.has(p)),
    replaced: periods
      .filter((p) => current.has(p))
      .map((p): ReplacedPeriod => ({ period: p, rows: delivered.get(p)!, previous: current.get(p)! })),
    missing: [...current.keys()].filter((p) => !delivered.has(p)).sort(),
  }
}

/** Percent of a replaced period's rows the delivery drops (negative when it adds rows). */
export const dropPercent = (r: ReplacedPeriod) => ((r.previous - r.rows) * 100) / r.previous

const count = (n: number) => n.toLocaleString('en-US')

/** `2026-10: 412 rows would replace 1,234 (-66.6%)` */
export const describeDrop = (r: ReplacedPeriod) =>
  `${r.period}: ${count(r.rows)} rows would replace ${count(r.previous)} (-${Number(dropPercent(r).toFixed(1))}%)`
