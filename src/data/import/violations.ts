/** What validating a candidate file finds (validate.ts, validate-rules.ts, csv-delivery.ts). */

/** Rows listed per defect; the count says how many more there are. */
export const SHOWN_ROWS = 5

/** One defect of a candidate file. `rows` are 1-based data rows (the first row of the file is row 1). */
export interface Violation {
  rule: string
  column?: string
  message: string
  rows?: number[]
  /** How many rows have the defect (rows lists the first few). */
  count?: number
}

export interface ValidationReport {
  file: string
  dataset: string
  rows: number
  period?: { from: string; to: string }
  violations: Violation[]
  warnings: Violation[]
}
