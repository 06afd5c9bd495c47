import { createHash } from 'node:crypto'
import { closeSync, copyFileSync, existsSync, openSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { DatasetContract } from './contracts'
import { readManifest, type Manifest, type ManifestEntry } from './datasets'
import type { DuckDb } from './duckdb'
import { validateFile, type ValidationReport } from './validate'

/** Earlier versions kept per dataset for `data rollback`; older version files are deleted on import. */
export const HISTORY_KEEP = 3

export class RefreshError extends Error {
  constructor(message: string, readonly report?: ValidationReport) {
    super(message)
  }
}

/** Replaces manifest.json atomically: a reader (the running service) sees the old or the new file, never a mix. */
export function writeManifest(dir: string, manifest: Manifest): void {
  const tmp = join(dir, `.manifest.json.${process.pid}.tmp`)
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 2)}\n`)
  renameSync(tmp, join(dir, 'manifest.json'))
}

/** One writer at a time per datasets folder; a lock left by a dead process is taken over. */
function withLock<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(dir, '.manifest.lock')
  const take = () => {
    const fd = openSync(lock, 'wx')
    writeFileSync(fd, String(process.pid))
    closeSync(fd)
  }
  try {
    take()
  } catch {
    const owner = Number(readFileSync(lock, 'utf8'))
    let alive = false
    try {
      alive = owner > 0 && process.kill(owner, 0)
    } catch {}
    if (alive) throw new RefreshError(`another data command (pid ${owner}) is changing ${dir}; try again when it has finished`)
    rmSync(lock, { force: true })
    take()
  }
  return fn().finally(() => rmSync(lock, { force: true }))
}

const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex')

export interface ImportResult {
  entry: ManifestEntry
  previous?: ManifestEntry
  unchanged: boolean
  report: ValidationReport
}

/**
 * Validates a candidate file and makes it the dataset's current version: the file is copied into the
 * folder under its content-addressed version name, then manifest.json is swapped in one rename. The
 * previous version stays listed in `history` (and on disk) for `data rollback`.
 */
export function importDataset(
  db: DuckDb,
  dir: string,
  file: string,
  contract: DatasetContract,
  options: { sample?: boolean; notice?: string; now?: Date } = {},
): Promise<ImportResult> {
  return withLock(dir, async () => {
    const manifest = readManifest(dir)
    const partial = join(dir, `.import-${process.pid}-${Date.now()}.parquet.partial`)
    try {
      // Validate the copy we will serve, not the source, which someone could still be writing.
      copyFileSync(file, partial)
      const report = await validateFile(db, partial, contract, options.now)
      report.file = file
      if (report.violations.length > 0) throw new RefreshError(`${file} does not meet the ${contract.name} contract`, report)
      const hash = sha256(partial)
      const version = `${contract.name}-${hash.slice(0, 12)}`
      const previous = manifest.datasets[contract.name]
      if (previous?.version === version) return { entry: previous, previous, unchanged: true, report }
      const entry: ManifestEntry = {
        file: `${version}.parquet`,
        schema_version: contract.schemaVersion,
        rows: report.rows,
        period: report.period!,
        sha256: hash,
        version,
        imported_at: (options.now ?? new Date()).toISOString(),
        sample: options.sample ?? false,
        ...(options.notice ? { notice: options.notice } : {}),
      }
      renameSync(partial, join(dir, entry.file))
      const history = { ...manifest.history, [contract.name]: [previous, ...(manifest.history?.[contract.name] ?? [])].filter((e): e is ManifestEntry => !!e).slice(0, HISTORY_KEEP) }
      const next = { ...manifest, datasets: { ...manifest.datasets, [contract.name]: entry }, history }
      writeManifest(dir, next)
      pruneVersions(dir, next, contract.name)
      return { entry, previous, unchanged: false, report }
    } finally {
      rmSync(partial, { force: true })
    }
  })
}

/** Makes the most recent earlier version current again; the version rolled back from is dropped from the manifest. */
export function rollbackDataset(dir: string, contract: DatasetContract): Promise<{ from: ManifestEntry; to: ManifestEntry }> {
  return withLock(dir, async () => {
    const manifest = readManifest(dir)
    const [to, ...rest] = manifest.history?.[contract.name] ?? []
    const from = manifest.datasets[contract.name]
    if (!to || !from) throw new RefreshError(`${contract.name} has no earlier version to roll back to`)
    if (!existsSync(join(dir, to.file))) throw new RefreshError(`${to.file} (version ${to.version}) is no longer on disk`)
    writeManifest(dir, { ...manifest, datasets: { ...manifest.datasets, [contract.name]: to }, history: { ...manifest.history, [contract.name]: rest } })
    return { from, to }
  })
}

/** Deletes version files of a dataset that the manifest no longer names. Only files `data import` created. */
function pruneVersions(dir: string, manifest: Manifest, dataset: string): void {
  const named = new Set([manifest.datasets[dataset]?.file, ...(manifest.history?.[dataset] ?? []).map((e) => e.file)])
  const ours = new RegExp(`^${dataset}-[0-9a-f]{12}\\.parquet$`)
  for (const f of readdirSync(dir)) if (ours.test(f) && !named.has(f)) rmSync(join(dir, f), { force: true })
}
