import { createHash } from 'node:crypto'
import { copyFileSync, createReadStream, existsSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { basename, join } from 'node:path'
import type { DatasetContract } from '../contracts'
import { isSample, readManifest, type Manifest, type ManifestEntry } from './datasets'
import { deliveryFormat, validateDelivery } from './delivery'
import type { DuckDb } from '../duckdb'
import { comparePeriods, DEFAULT_MAX_DROP_PERCENT, describeDrop, dropPercent, periodRows, writeVersion, type ReplacedPeriod } from './merge'
import { LockedError, takeLock } from './pid-lock'
import { validateFile } from './validate'
import type { ValidationReport } from './violations'

/** Earlier versions kept per dataset for `data rollback`; older version files are deleted on import. */
export const HISTORY_KEEP = 3

export class RefreshError extends Error {
  constructor(
    message: string,
    readonly report?: ValidationReport,
  ) {
    super(message)
  }
}

/** Replaces manifest.json atomically: a reader (the running service) sees the old or the new file, never a mix. */
export function writeManifest(dir: string, manifest: Manifest): void {
  const tmp = join(dir, `.manifest.json.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`)
  renameSync(tmp, join(dir, 'manifest.json'))
}

/** One writer at a time per datasets folder (`data import`, `rollback`, `publish`); a lock left by a dead process is taken over. */
export async function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  let release: () => void
  try {
    release = takeLock(join(dir, '.manifest.lock'), `another data command is changing ${dir}; try again when it has finished`)
  } catch (error) {
    if (error instanceof LockedError) throw new RefreshError(error.message)
    throw error
  }
  try {
    return await fn()
  } finally {
    release()
  }
}

/** A file's sha256, read in chunks (a version file may be gigabytes): manifests, publications and copies compare it. */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

export interface ImportOptions {
  /** Label the version as generated sample data; a merge onto sample data stays sample unless false. */
  sample?: boolean
  /** Caveat shown in data_quality; a merge keeps the base's when absent. */
  notice?: string
  now?: Date
  /** The delivery becomes the whole dataset (no merge, no drop rule). */
  replace?: boolean
  /** Merge: most rows, in percent of a replaced period's current rows, the delivery may drop there. */
  maxDropPercent?: number
}

export interface ImportResult {
  entry: ManifestEntry
  previous?: ManifestEntry
  unchanged: boolean
  /** The delivery's own report (its rows, its row numbers). */
  report: ValidationReport
}

/**
 * Validates a delivery (Parquet, CSV or gzipped CSV) and makes a new version of the dataset from it:
 * by default merged into the current version (the delivery's periods are added or replace the same
 * periods, everything else is kept), with `replace` as the whole dataset. The delivery is validated
 * first, with its own row numbers; a merge is refused when it drops more than `maxDropPercent` of a
 * replaced period's rows, and the merged result is validated as a whole. The version file is written
 * by DuckDB under its content-addressed name, then manifest.json is swapped in one rename. The
 * previous version stays listed in `history` (and on disk) for `data rollback`.
 */
export function importDataset(
  db: DuckDb,
  dir: string,
  file: string,
  contract: DatasetContract,
  options: ImportOptions = {},
): Promise<ImportResult> {
  return withLock(dir, async () => {
    const manifest = readManifest(dir)
    const previous = manifest.datasets[contract.name]
    // Without a current version there is nothing to merge onto: the delivery is the dataset.
    const base = options.replace ? undefined : previous
    if (base) assertMergeable(dir, base, contract)
    const format = deliveryFormat(file)
    const tmp = join(dir, `.import-${process.pid}-${Date.now()}`)
    const [copy, staging, out] = [`${tmp}.delivery`, `${tmp}.staging.parquet`, `${tmp}.parquet.partial`]
    try {
      // Validate the copy we read, not the source, which someone could still be writing.
      copyFileSync(file, copy)
      // A delivery to merge may hold any periods (2026-03 and 2026-07): gaps are checked after the merge.
      const { report, parquet } = await validateDelivery(db, copy, contract, {
        format,
        staging,
        source: file,
        now: options.now,
        wholeDataset: !base,
      })
      if (report.violations.length > 0) throw new RefreshError(`${file} does not meet the ${contract.name} contract`, report)

      const change = comparePeriods(await periodRows(db, parquet, contract), await currentPeriods(db, dir, previous, contract, !!base))
      if (base) refuseLargeDrops(file, change.replaced, options.maxDropPercent ?? DEFAULT_MAX_DROP_PERCENT)
      await writeVersion(db, contract, parquet, out, base && join(dir, base.file))
      const { rows, period } = base ? await validateMerged(db, out, contract, file, base, options.now) : report

      const hash = await fileSha256(out)
      const version = `${contract.name}-${hash.slice(0, 12)}`
      if (previous?.version === version) return { entry: previous, previous, unchanged: true, report }
      const notice = options.notice ?? base?.notice
      const entry: ManifestEntry = {
        file: `${version}.parquet`,
        schema_version: contract.schemaVersion,
        rows,
        period: period!,
        sha256: hash,
        version,
        imported_at: (options.now ?? new Date()).toISOString(),
        // Merged onto sample figures, the result still holds them.
        sample: options.sample ?? (base ? isSample(manifest, base) : false),
        ...(notice ? { notice } : {}),
        built_from: {
          mode: base ? 'merge' : 'replace',
          file: basename(file),
          format,
          sha256: await fileSha256(copy),
          rows: report.rows,
          ...(base ? { base: base.version } : {}),
          added: change.added,
          replaced: change.replaced.map((r) => r.period),
          ...(base ? {} : { removed: change.missing }),
        },
      }
      renameSync(out, join(dir, entry.file))
      const history = {
        ...manifest.history,
        [contract.name]: [previous, ...(manifest.history?.[contract.name] ?? [])]
          .filter((e): e is ManifestEntry => !!e)
          .slice(0, HISTORY_KEEP),
      }
      const next = { ...manifest, datasets: { ...manifest.datasets, [contract.name]: entry }, history }
      writeManifest(dir, next)
      pruneVersions(dir, next, contract.name)
      return { entry, previous, unchanged: false, report }
    } finally {
      for (const f of [copy, staging, out]) rmSync(f, { force: true })
    }
  })
}

/** A merge reads the current version's file with the current contract. */
function assertMergeable(dir: string, base: ManifestEntry, contract: DatasetContract): void {
  const replace = 'import the whole dataset with --replace'
  if (!existsSync(join(dir, base.file)))
    throw new RefreshError(
      `${base.file} (current ${contract.name} version ${base.version}) is not on disk, so nothing can be merged into it; ${replace}`,
    )
  if (base.schema_version !== contract.schemaVersion) {
    throw new RefreshError(
      `the current ${contract.name} version ${base.version} has schema version ${base.schema_version}, the contract ${contract.schemaVersion}: a delivery cannot be merged into it; ${replace}`,
    )
  }
}

/**
 * Rows per period of the current version, which the delivery's periods are compared with. A merge
 * needs them; `--replace` is also the way out of an unreadable current version, so there they are
 * only a record and may be missing.
 */
async function currentPeriods(
  db: DuckDb,
  dir: string,
  previous: ManifestEntry | undefined,
  contract: DatasetContract,
  merge: boolean,
): Promise<Map<string, number>> {
  if (!previous) return new Map()
  try {
    return await periodRows(db, join(dir, previous.file), contract)
  } catch (error) {
    if (!merge) return new Map()
    throw new RefreshError(
      `the current ${contract.name} version ${previous.version} cannot be read (${(error as Error).message.split('\n')[0]}); import the whole dataset with --replace`,
    )
  }
}

/** Validates the merged result as a whole; its defects are refused as coming from the merge. */
async function validateMerged(
  db: DuckDb,
  merged: string,
  contract: DatasetContract,
  file: string,
  base: ManifestEntry,
  now?: Date,
): Promise<ValidationReport> {
  const report = await validateFile(db, merged, contract, now)
  if (report.violations.length === 0) return report
  throw new RefreshError(
    `merging ${basename(file)} onto ${base.version} would break the ${contract.name} contract (the delivery itself is valid); nothing changed`,
    mergedReport(report, file, base),
  )
}

/** Refuses a merge whose delivery has many fewer rows than a period it replaces: more often a truncated export than a correction. */
function refuseLargeDrops(file: string, replaced: ReplacedPeriod[], maxDropPercent: number): void {
  const over = replaced.filter((r) => dropPercent(r) > maxDropPercent)
  if (over.length === 0) return
  const needed = Math.ceil(Math.max(...over.map(dropPercent)))
  throw new RefreshError(
    [
      `${basename(file)} would drop more than ${maxDropPercent}% of the rows of ${over.length} period(s) it replaces; nothing changed:`,
      ...over.slice(0, 10).map((r) => `  ${describeDrop(r)}`),
      ...(over.length > 10 ? [`  ... and ${over.length - 10} more`] : []),
      `If the delivery is right, import it again with --max-drop ${needed} (it still replaces only its own periods), or with --replace to make it the whole dataset.`,
    ].join('\n'),
  )
}

/** Defects that only the merged result has: its row numbers mean nothing to the data team, so only the counts are kept. */
function mergedReport(report: ValidationReport, file: string, base: ManifestEntry): ValidationReport {
  return { ...report, file: `${basename(file)} merged onto ${base.version}`, violations: report.violations.map(({ rows: _, ...v }) => v) }
}

/** Makes the most recent earlier version current again; the version rolled back from is dropped from the manifest. */
export function rollbackDataset(dir: string, contract: DatasetContract): Promise<{ from: ManifestEntry; to: ManifestEntry }> {
  return withLock(dir, async () => {
    const manifest = readManifest(dir)
    const [to, ...rest] = manifest.history?.[contract.name] ?? []
    const from = manifest.datasets[contract.name]
    if (!to || !from) throw new RefreshError(`${contract.name} has no earlier version to roll back to`)
    if (!existsSync(join(dir, to.file))) throw new RefreshError(`${to.file} (version ${to.version}) is no longer on disk`)
    writeManifest(dir, {
      ...manifest,
      datasets: { ...manifest.datasets, [contract.name]: to },
      history: { ...manifest.history, [contract.name]: rest },
    })
    return { from, to }
  })
}

/** Deletes version files of a dataset that the manifest no longer names. Only files `data import` created. */
function pruneVersions(dir: string, manifest: Manifest, dataset: string): void {
  const named = new Set([manifest.datasets[dataset]?.file, ...(manifest.history?.[dataset] ?? []).map((e) => e.file)])
  const ours = new RegExp(`^${dataset}-[0-9a-f]{12}\\.parquet$`)
  for (const f of readdirSync(dir)) if (ours.test(f) && !named.has(f)) rmSync(join(dir, f), { force: true })
}
