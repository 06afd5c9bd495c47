/**
 * Deliveries as the data team sends them, cut from the shipped sample with DuckDB: Parquet, CSV or
 * gzipped CSV by the file's extension, in a private copy of the shipped datasets folder.
 */
import { cpSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { DatasetContract } from '../../../src/data/contracts'
import type { DuckDb } from '../../../src/data/duckdb'
import { tempDir } from '../../../support/temp-dirs'

export const ROOT = resolve(import.meta.dir, '../../..')
export const SHIPPED = join(ROOT, 'datasets')

/** A private copy of the shipped datasets (manifest included) and a folder for deliveries. */
export function workspace(): { dir: string; incoming: string } {
  const dir = tempDir('import-')
  cpSync(SHIPPED, dir, { recursive: true })
  return { dir, incoming: tempDir('incoming-') }
}

/** The shipped file of a dataset, as a relation. */
export const shipped = (contract: DatasetContract) => `read_parquet('${join(SHIPPED, contract.file)}')`

/** Writes `select` (over `src`, the shipped dataset) to `file`, in the format its extension names. */
export async function deliver(db: DuckDb, file: string, contract: DatasetContract, select: string): Promise<string> {
  const name = file.toLowerCase()
  const format = name.endsWith('.csv.gz')
    ? 'FORMAT csv, HEADER, COMPRESSION gzip'
    : name.endsWith('.csv')
      ? 'FORMAT csv, HEADER'
      : 'FORMAT parquet'
  await db.exec(`COPY (WITH src AS (SELECT * FROM ${shipped(contract)}) ${select}) TO '${file}' (${format})`)
  return file
}

export const sha256 = (file: string) => new Bun.CryptoHasher('sha256').update(readFileSync(file)).digest('hex')

/** Runs `china-market-intel data …` from source against `dir`. */
export function cli(dir: string, ...args: string[]) {
  const p = Bun.spawnSync([process.execPath, join(ROOT, 'src/index.ts'), 'data', ...args, '--dir', dir], { stdout: 'pipe', stderr: 'pipe' })
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() }
}
