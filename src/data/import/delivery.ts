import { existsSync, statSync } from 'node:fs'
import { basename } from 'node:path'
import type { DatasetContract } from '../contracts'
import { csvToParquet } from './csv-delivery'
import type { DeliveryFormat } from './datasets'
import type { DuckDb } from '../duckdb'
import { validateFile, type ValidateOptions } from './validate'
import type { ValidationReport } from './violations'

/** Files a folder argument stands for: `.parquet`, `.csv` and `.csv.gz`, in any case. */
export const DELIVERY_FILE = /\.(parquet|csv|csv\.gz)$/i

/** The format, from the file name; anything else is read as Parquet (and refused if it is not). */
export function deliveryFormat(file: string): DeliveryFormat {
  const name = basename(file).toLowerCase()
  return name.endsWith('.csv.gz') ? 'csv.gz' : name.endsWith('.csv') ? 'csv' : 'parquet'
}

/**
 * Checks a delivery of any format against its contract. A CSV is first converted by DuckDB into
 * `staging` (Parquet, typed by the contract, rows in file order), which is then validated exactly like
 * a Parquet delivery. Returns the report (naming `source`) and the Parquet file the report is about.
 */
export async function validateDelivery(
  db: DuckDb,
  file: string,
  contract: DatasetContract,
  options: ValidateOptions & { format: DeliveryFormat; staging: string; source?: string; now?: Date },
): Promise<{ report: ValidationReport; parquet: string }> {
  const source = options.source ?? file
  if (options.format === 'parquet') {
    const report = await validateFile(db, file, contract, options.now, options)
    return { report: { ...report, file: source }, parquet: file }
  }
  if (!existsSync(file) || !statSync(file).isFile())
    return {
      report: { file: source, dataset: contract.name, rows: 0, violations: [{ rule: 'file', message: 'file not found' }], warnings: [] },
      parquet: file,
    }
  const csv = await csvToParquet(db, file, options.format === 'csv.gz' ? 'gzip' : 'none', contract, options.staging)
  if (csv.violations.length > 0) {
    return {
      report: { file: source, dataset: contract.name, rows: csv.rows, violations: csv.violations, warnings: csv.warnings },
      parquet: options.staging,
    }
  }
  const report = await validateFile(db, options.staging, contract, options.now, options)
  return { report: { ...report, file: source, warnings: [...csv.warnings, ...report.warnings] }, parquet: options.staging }
}
