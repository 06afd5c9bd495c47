import type { KeyObject } from 'node:crypto'
import { existsSync, statSync } from 'node:fs'
import { basename, join } from 'node:path'
import { DATASETS } from '../contracts'
import { isSample, readManifest } from '../import/datasets'
import type { DuckDb } from '../duckdb'
import { keyId, PUBLICATION_FILE, readUnverified, signedBy, signPublication, type Publication, type PublishedDataset } from './publication'
import type { PublishTarget } from './publication-places'
import { fileState, type FileState } from './publish-check'
import { fileSha256, withLock } from '../import/refresh'
import { validateFile } from '../import/validate'
import type { ValidationReport } from '../import/violations'

export class PublishError extends Error {
  constructor(
    message: string,
    readonly report?: ValidationReport,
  ) {
    super(message)
  }
}

export interface PublishResult {
  publication: Publication
  /** False when the target already publishes these very files: no new document (`uploaded` lists the files repaired). */
  changed: boolean
  /** Files uploaded, and what the target held before: none, or a file of other bytes. */
  uploaded: { file: string; bytes: number; was: Exclude<FileState, 'intact'> }[]
  pruned: string[]
}

/**
 * Publishes a datasets folder (the one `data import` and `data rollback` keep) to a target: each current
 * version is read back and checked against its manifest entry and its contract, the files the target
 * lacks or holds other bytes of (publish-check.ts) are uploaded, then the signed publication replaces the previous one in one write, so an
 * instance never reads a publication whose files are not there yet. Files only the replaced publication
 * names are kept (instances may still be downloading them); older ones are removed.
 */
export interface PublishOptions {
  key: KeyObject
  now?: Date
  note?: string
  /**
   * The search index of a dataset's current version, built if it is missing (the CLI passes the evidence
   * corpus's): published beside its file, so that no instance builds it again. Null: the dataset has none.
   */
  indexOf?: (dataset: string) => Promise<string | null>
}

export async function publishDatasets(db: DuckDb, dir: string, target: PublishTarget, options: PublishOptions): Promise<PublishResult> {
  // The datasets folder stays as read (no import or rollback meanwhile) until its files are uploaded.
  return withLock(dir, () => publishLocked(db, dir, target, options))
}

async function publishLocked(db: DuckDb, dir: string, target: PublishTarget, options: PublishOptions): Promise<PublishResult> {
  const now = options.now ?? new Date()
  const { datasets, paths } = await publishedDatasets(db, dir, now, options.indexOf)
  const release = await target.lock()
  try {
    const previousText = await target.readText(PUBLICATION_FILE)
    let previous: Publication | undefined
    try {
      previous = previousText === null ? undefined : readUnverified(previousText)
    } catch (error) {
      throw new PublishError(
        `${target.name} holds a ${PUBLICATION_FILE} that is not a publication (${(error as Error).message}); remove it first`,
      )
    }
    // Every file is checked on the target, also when the publication is unchanged: a damaged one is repaired.
    const uploaded: PublishResult['uploaded'] = []
    for (const { file, local } of filesOf(datasets, paths)) {
      const state = await fileState(target, file, local)
      if (state === 'intact') continue
      await target.upload(file.file, local)
      uploaded.push({ file: file.file, bytes: file.bytes, was: state })
    }
    const keyed = keyId(options.key)
    // A document that names these files but no longer verifies (damaged on the target) is written again.
    const intact = previousText !== null && signedBy(previousText, options.key)
    if (
      previous &&
      intact &&
      previous.key_id === keyed &&
      sameDatasets(previous, datasets) &&
      (options.note ?? previous.note) === previous.note
    )
      return { publication: previous, changed: false, uploaded, pruned: [] }

    const publication: Publication = {
      format: 1,
      // Grows by one, and never below the clock's seconds: a target that lost its document (a new bucket,
      // a restored folder) still publishes above what the fleet installed, not at 1.
      sequence: Math.max((previous?.sequence ?? 0) + 1, Math.floor(now.getTime() / 1000)),
      published_at: now.toISOString(),
      key_id: keyed,
      ...(options.note ? { note: options.note } : {}),
      datasets,
    }
    await target.writeText(PUBLICATION_FILE, signPublication(publication, options.key))

    const kept = new Set(
      [...Object.values(datasets), ...Object.values(previous?.datasets ?? {})].flatMap((d) => [d.file, ...(d.index ? [d.index.file] : [])]),
    )
    const pruned = (await target.listFiles()).filter((f) => !kept.has(f))
    for (const file of pruned) await target.remove(file)
    return { publication, changed: true, uploaded, pruned }
  } finally {
    release()
  }
}

/** Every dataset of this release, read back from disk: its bytes must be those its manifest entry names, its rows its contract's. */
async function publishedDatasets(
  db: DuckDb,
  dir: string,
  now: Date,
  indexOf: PublishOptions['indexOf'],
): Promise<{ datasets: Record<string, PublishedDataset>; paths: Record<string, string> }> {
  const manifest = readManifest(dir)
  const out: Record<string, PublishedDataset> = {}
  const paths: Record<string, string> = {}
  for (const contract of DATASETS) {
    const entry = manifest.datasets[contract.name]
    if (!entry) throw new PublishError(`${dir} has no ${contract.name} dataset: every dataset of this release is published together`)
    const file = join(dir, entry.file)
    if (!existsSync(file)) throw new PublishError(`${file} (${contract.name} version ${entry.version}) is missing`)
    if (entry.schema_version !== contract.schemaVersion)
      throw new PublishError(
        `${contract.name} version ${entry.version} has schema version ${entry.schema_version}, this release's contract ${contract.schemaVersion}`,
      )
    const sha256 = await fileSha256(file)
    if (sha256 !== entry.sha256)
      throw new PublishError(
        `${file} is not the file manifest.json names (sha256 ${sha256.slice(0, 12)}…, expected ${entry.sha256.slice(0, 12)}…)`,
      )
    const report = await validateFile(db, file, contract, now)
    if (report.violations.length > 0) throw new PublishError(`${file} does not meet the ${contract.name} contract`, report)
    paths[contract.name] = file
    const index = await indexOf?.(contract.name)
    if (index) paths[`${contract.name}.index`] = index
    out[contract.name] = {
      file: `files/${contract.name}-${sha256.slice(0, 12)}.parquet`,
      bytes: statSync(file).size,
      sha256,
      rows: report.rows,
      period: report.period ?? entry.period,
      version: entry.version,
      schema_version: entry.schema_version,
      sample: isSample(manifest, entry),
      ...(entry.notice ? { notice: entry.notice } : {}),
      ...(index ? { index: { file: `files/${basename(index)}`, bytes: statSync(index).size, sha256: await fileSha256(index) } } : {}),
    }
  }
  return { datasets: out, paths }
}

/** Every file a publication of `datasets` names (each dataset's, and its index), with the local file it is uploaded from. */
export const filesOf = (datasets: Record<string, PublishedDataset>, paths: Record<string, string>) =>
  Object.entries(datasets).flatMap(([name, entry]) => [
    { file: entry, local: paths[name]! },
    ...(entry.index ? [{ file: entry.index, local: paths[`${name}.index`]! }] : []),
  ])

const sameDatasets = (previous: Publication, datasets: Record<string, PublishedDataset>) =>
  Object.keys(datasets).length === Object.keys(previous.datasets).length &&
  Object.entries(datasets).every(([name, d]) => JSON.stringify(previous.datasets[name]) === JSON.stringify(d))
