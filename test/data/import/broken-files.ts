/**
 * The broken-file corpus of `data validate`: one defect per file, cut from the shipped sample with
 * DuckDB or damaged byte by byte, each with the rule that must refuse it.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { FLIGHTS, SIGNAL_BRANDS, SIGNAL_CREATORS, SPEND, type DatasetContract } from '../../../src/data/contracts'
import type { DuckDb } from '../../../src/data/duckdb'

export const SHIPPED = resolve(import.meta.dir, '../../../datasets')

export interface Expected {
  rule: string
  column?: string
  rows?: number[]
  message?: RegExp
}

export interface Broken {
  label: string
  contract: DatasetContract
  /** Writes the file under `dir` and returns its path. */
  make: (db: DuckDb, dir: string) => Promise<string>
  /** Damaged copies: where the bytes were inverted, and which pages of the column that lands in. */
  damage?: { at: (db: DuckDb) => Promise<number>; pages: 'dictionary' | 'data' }
  /** Checked by `data validate <folder>`, the folder holding only this file. */
  inFolder?: boolean
  expected: Expected
}

/** Each dataset's cut of the sample: a few countries or one category, small and quick to write. */
const CUT: Record<string, string> = {
  spend: "country IN ('Japan', 'Thailand')",
  flights: "destination_country IN ('Japan', 'Thailand')",
  signal_brands: "category = 'beauty'",
  signal_creators: "category = 'beauty'",
}

/** Writes `select` over `src` (the contract's cut, numbered by `rn` in file order); the output keeps that order. */
export async function cut(db: DuckDb, file: string, contract: DatasetContract, select: string): Promise<string> {
  await db.exec(`COPY (
      WITH src AS (SELECT * EXCLUDE (file_row_number), row_number() OVER (ORDER BY file_row_number)::INTEGER AS rn
                     FROM read_parquet('${join(SHIPPED, contract.file)}', file_row_number = true) WHERE ${CUT[contract.name]})
      ${select}
    ) TO '${file}' (FORMAT parquet)`)
  return file
}

export const ALL = 'SELECT * EXCLUDE (rn) FROM src ORDER BY rn'
/** The cut with one value replaced in row `rn`. */
const atRow = (rn: number, column: string, value: string) =>
  `SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = ${rn} THEN ${value} ELSE ${column} END AS ${column}) FROM src ORDER BY rn`
const fileName = (contract: DatasetContract, label: string) => `${contract.name}-${label.replace(/[^a-z0-9]+/gi, '-')}.parquet`
const sql = (label: string, contract: DatasetContract, select: string, expected: Expected): Broken => ({
  label,
  contract,
  expected,
  make: (db, dir) => cut(db, join(dir, fileName(contract, label)), contract, select),
})
/** The cut with `value` in row `rn` of `column`: refused by the expected rule on that very row and column. */
const valueAt = (
  label: string,
  contract: DatasetContract,
  rn: number,
  column: string,
  value: string,
  expected: Omit<Expected, 'column' | 'rows'>,
): Broken => sql(label, contract, atRow(rn, column, value), { ...expected, column, rows: [rn] })

/** Bytes inverted per damaged copy: the tester's 4 KiB. */
export const DAMAGE = 4096

/** Where each column's pages lie: from its first page (the dictionary's, if any) to `end`; data pages from `data`. */
export async function columnChunks(db: DuckDb, file: string) {
  return db.all<{ column: string; start: number; data: number; end: number }>(
    `SELECT path_in_schema AS column, coalesce(dictionary_page_offset, data_page_offset)::INTEGER AS start, data_page_offset::INTEGER AS data,
            (coalesce(dictionary_page_offset, data_page_offset) + total_compressed_size)::INTEGER AS "end"
       FROM parquet_metadata('${file}') ORDER BY start`,
  )
}

/** A copy of `src` with DAMAGE bytes from `at` inverted; the footer, and every statistic in it, is untouched. */
export function damagedCopy(src: string, dst: string, at: number): string {
  const bytes = readFileSync(src)
  for (let i = at; i < at + DAMAGE; i++) bytes[i] = bytes[i]! ^ 0xff
  writeFileSync(dst, bytes)
  return dst
}

const damaged = (label: string, contract: DatasetContract, damage: NonNullable<Broken['damage']>, expected: Expected): Broken => ({
  label,
  contract,
  expected,
  damage,
  make: async (db, dir) => damagedCopy(join(SHIPPED, contract.file), join(dir, fileName(contract, label)), await damage.at(db)),
})

/** The middle of the file, as the tester damaged it. */
export const middleOfFile = async (contract: DatasetContract) => Math.floor(statSync(join(SHIPPED, contract.file)).size / 2) - DAMAGE / 2
/** The middle of one column's data pages. */
export const middleOfDataPages = async (db: DuckDb, contract: DatasetContract, column: string) => {
  const c = (await columnChunks(db, join(SHIPPED, contract.file))).find((x) => x.column === column)!
  return Math.floor((c.data + c.end) / 2) - DAMAGE / 2
}

const inFolder = (label: string, name: string, contract: DatasetContract, select: string, expected: Expected): Broken => ({
  label,
  contract,
  expected,
  inFolder: true,
  make: (db, dir) => {
    mkdirSync(join(dir, fileName(contract, label)))
    return cut(db, join(dir, fileName(contract, label), name), contract, select)
  },
})

export const CORPUS: Broken[] = [
  // Spend: structure, values, keys and months.
  sql('missing column', SPEND, 'SELECT * EXCLUDE (rn, dining_spend_cny) FROM src ORDER BY rn', {
    rule: 'missing_column',
    column: 'dining_spend_cny',
  }),
  sql('wrong type', SPEND, 'SELECT * EXCLUDE (rn) REPLACE (total_cards::VARCHAR AS total_cards) FROM src ORDER BY rn', {
    rule: 'type',
    column: 'total_cards',
    message: /VARCHAR, expected INTEGER/,
  }),
  sql('duplicate key', SPEND, 'SELECT * EXCLUDE (rn) FROM (SELECT * FROM src UNION ALL SELECT * FROM src WHERE rn = 5) ORDER BY rn', {
    rule: 'duplicate_key',
    column: 'month, country, source_city',
    rows: [5, 6],
  }),
  valueAt('negative count', SPEND, 10, 'total_cards', '-3', { rule: 'negative' }),
  sql(
    'negative amount',
    SPEND,
    'SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn IN (4, 9) THEN -1.5 ELSE luxury_spend_cny END AS luxury_spend_cny) FROM src ORDER BY rn',
    { rule: 'negative', column: 'luxury_spend_cny', rows: [4, 9] },
  ),
  valueAt('malformed month', SPEND, 7, 'month', "'2026-13'", { rule: 'format' }),
  sql(
    'month in the future',
    SPEND,
    "SELECT * EXCLUDE (rn) FROM src UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2027-01' AS month) FROM src WHERE rn = 1)",
    { rule: 'future_period', column: 'month', message: /future/ },
  ),
  sql('a month missing in the middle', SPEND, "SELECT * EXCLUDE (rn) FROM src WHERE month <> '2024-05' ORDER BY rn", {
    rule: 'gap',
    column: 'month',
    message: /2024-05/,
  }),
  valueAt('a null value', SPEND, 3, 'country', 'NULL', { rule: 'null' }),
  valueAt('a malformed country code', SPEND, 12, 'country_code', "'japan'", { rule: 'format' }),
  valueAt('NaN amount', SPEND, 2, 'dining_spend_cny', "'NaN'::DOUBLE", { rule: 'not_finite' }),
  sql('no rows', SPEND, 'SELECT * EXCLUDE (rn) FROM src WHERE false', { rule: 'empty' }),
  // Weekly signals: weeks and categories.
  sql(
    'week_start not a Monday',
    SIGNAL_BRANDS,
    "SELECT * EXCLUDE (rn) REPLACE (CASE WHEN rn = 8 THEN strftime(week_start::DATE + 1, '%Y-%m-%d') ELSE week_start END AS week_start, CASE WHEN rn = 8 THEN strftime(week_end::DATE + 1, '%Y-%m-%d') ELSE week_end END AS week_end) FROM src ORDER BY rn",
    { rule: 'week_start', column: 'week_start', rows: [8] },
  ),
  valueAt('week_end not six days later', SIGNAL_BRANDS, 4, 'week_end', "strftime(week_end::DATE - 1, '%Y-%m-%d')", { rule: 'week_end' }),
  sql(
    'a week that has not ended',
    SIGNAL_BRANDS,
    "SELECT * EXCLUDE (rn) FROM src UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2026-11-16' AS week_start, '2026-11-22' AS week_end) FROM src WHERE rn = 1) UNION ALL (SELECT * EXCLUDE (rn) REPLACE ('2026-11-23' AS week_start, '2026-11-29' AS week_end) FROM src WHERE rn = 1)",
    { rule: 'future_period', column: 'week_end' },
  ),
  valueAt('an undocumented category', SIGNAL_BRANDS, 6, 'category', "'cosmetics'", { rule: 'value' }),
  sql('a week missing', SIGNAL_BRANDS, "SELECT * EXCLUDE (rn) FROM src WHERE week_start <> '2026-03-02' ORDER BY rn", {
    rule: 'gap',
    column: 'week_start',
  }),
  // Not Parquet at all.
  {
    label: 'CSV named .parquet',
    contract: SPEND,
    expected: { rule: 'format', message: /not a readable Parquet file/ },
    make: async (_, dir) => write(join(dir, 'spend-text.parquet'), 'month,country\n2026-10,Japan\n'),
  },
  {
    label: 'non-Parquet bytes between Parquet magic',
    contract: SPEND,
    expected: { rule: 'format', message: /not a readable Parquet file/ },
    make: async (_, dir) => write(join(dir, 'spend-bytes.parquet'), magicNoise()),
  },
  // Damaged pages, footer intact: the footer's statistics still say "no NULL, nothing negative".
  // The tester's damage lands in a dictionary page, which still decodes: into negative counts.
  damaged(
    '4 KiB damaged in the middle of the file',
    FLIGHTS,
    { at: () => middleOfFile(FLIGHTS), pages: 'dictionary' },
    { rule: 'negative', column: 'estimated_passengers' },
  ),
  damaged(
    '4 KiB damaged in the middle of the seats data pages',
    FLIGHTS,
    { at: (db) => middleOfDataPages(db, FLIGHTS, 'seats'), pages: 'data' },
    { rule: 'corrupt', column: 'seats', message: /cannot be decoded/ },
  ),
  // Text: invisible and control characters, length, one code per name and one name per code.
  valueAt('zero-width space in a destination name', FLIGHTS, 7, 'destination', 'destination || chr(8203)', { rule: 'invisible_character' }),
  sql('a destination with two codes', FLIGHTS, atRow(9, 'destination_code', "'HND'"), {
    rule: 'pairing',
    column: 'destination',
    rows: [9],
    message: /goes with 2 destination_code values: [A-Z]{3} \(\d+ rows\), HND \(1 row\)/,
  }),
  sql('a code with two names', FLIGHTS, atRow(11, 'destination', "destination || ' City'"), {
    rule: 'pairing',
    column: 'destination_code',
    rows: [11],
    message: /goes with 2 destination values: .+ \(\d+ rows\), .+ City \(1 row\)/,
  }),
  valueAt('a 2,000,000-character destination name', FLIGHTS, 5, 'destination', "repeat('Tokyo', 400000)", {
    rule: 'too_long',
    message: /longer than 200 characters/,
  }),
  valueAt('NUL in a creator name', SIGNAL_CREATORS, 3, 'creator_name', 'creator_name || chr(0)', { rule: 'control_character' }),
  valueAt('newline in a creator name', SIGNAL_CREATORS, 4, 'creator_name', "creator_name || chr(10) || 'official'", {
    rule: 'control_character',
  }),
  valueAt('right-to-left override in a creator name', SIGNAL_CREATORS, 5, 'creator_name', 'chr(8238) || creator_name', {
    rule: 'invisible_character',
  }),
  // Folders: every Parquet file is checked, whatever the case of its extension, and every file gets a report.
  inFolder('an upper-case .PARQUET in a folder', 'SPEND-2026-11.PARQUET', SPEND, atRow(10, 'total_cards', '-3'), {
    rule: 'negative',
    column: 'total_cards',
    rows: [10],
  }),
  inFolder('a file whose dataset cannot be told, in a folder', 'sales-2026-11.parquet', SPEND, ALL, {
    rule: 'dataset',
    message: /cannot tell which dataset this file is for/,
  }),
]

function write(file: string, data: string | Uint8Array): string {
  writeFileSync(file, data)
  return file
}

/** 4 KiB of deterministic noise that starts and ends with the Parquet magic `PAR1`. */
function magicNoise(): Uint8Array {
  const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 2654435761) >>> 24)
  bytes.set(new TextEncoder().encode('PAR1'), 0)
  bytes.set(new TextEncoder().encode('PAR1'), bytes.length - 4)
  return bytes
}
