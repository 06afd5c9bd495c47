/**
 * `data publish --verify`: what a publication target serves, checked without writing anything. Its
 * document (readable, signed by the publisher's key when one is given), every file it names as the
 * fleet downloads them (publish-check.ts), whether it publishes the folder's current versions, and the
 * files no publication names. A scheduled check alerts on `ok: false` before an instance refuses a file.
 */
import type { KeyObject } from 'node:crypto'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'
import { readManifest, type ManifestEntry } from '../import/datasets'
import { PUBLICATION_FILE, readUnverified, signedBy, type Publication } from './publication'
import type { PublishTarget } from './publication-places'
import { fileState, type FileState } from './publish-check'
import { fileSha256 } from '../import/refresh'

export interface TargetReport {
  target: string
  /** The document: absent, unreadable (why), or what it says; `signed_by_key` when a key was given. */
  publication:
    | { state: 'missing' }
    | { state: 'unreadable'; reason: string }
    | { state: 'read'; sequence: number; published_at: string; key_id: string; signed_by_key?: boolean }
  files: { dataset: string; file: string; state: FileState }[]
  /** Per dataset of the folder: the version it publishes, and the folder's current one. */
  datasets: { dataset: string; published: string | null; folder: string | null; current: boolean }[]
  /** Files under `files/` the document does not name (kept from the publication before, or left by another tool). */
  unnamed: string[]
  /** Every named file intact, the document signed by the key (when given) and naming the folder's current versions. */
  ok: boolean
}

/** `key`: the publisher's public key (or its private key), to check the document's signature with. */
export async function verifyTarget(dir: string, target: PublishTarget, key?: KeyObject): Promise<TargetReport> {
  const text = await target.readText(PUBLICATION_FILE)
  const held: Record<string, ManifestEntry> = existsSync(join(dir, 'manifest.json')) ? readManifest(dir).datasets : {}
  let publication: Publication | undefined
  let head: TargetReport['publication'] = { state: 'missing' }
  if (text !== null) {
    try {
      publication = readUnverified(text)
      head = { state: 'read', sequence: publication.sequence, published_at: publication.published_at, key_id: publication.key_id }
      if (key) head.signed_by_key = signedBy(text, key)
    } catch (error) {
      head = { state: 'unreadable', reason: (error as Error).message }
    }
  }
  const files: TargetReport['files'] = []
  for (const [dataset, entry] of Object.entries(publication?.datasets ?? {})) {
    // The folder's own copy, where it has these bytes: a bucket's ETag is then compared without a download.
    const own = held[dataset]
    const local = own?.sha256 === entry.sha256 ? join(dir, own.file) : undefined
    files.push({ dataset, file: entry.file, state: await fileState(target, entry, local) })
    if (entry.index) {
      // The folder's index, when it is the very file published (a rebuilt one would compare as altered).
      const copy = join(dir, basename(entry.index.file))
      const same = existsSync(copy) && (await fileSha256(copy)) === entry.index.sha256
      files.push({ dataset, file: entry.index.file, state: await fileState(target, entry.index, same ? copy : undefined) })
    }
  }
  const names = [...new Set([...Object.keys(held), ...Object.keys(publication?.datasets ?? {})])].sort()
  const datasets = names.map((dataset) => {
    const published = publication?.datasets[dataset]
    const own = held[dataset]
    return {
      dataset,
      published: published?.version ?? null,
      folder: own?.version ?? null,
      current: !!published && !!own && published.sha256 === own.sha256,
    }
  })
  const named = new Set(files.map((f) => f.file))
  const unnamed = (await target.listFiles()).filter((file) => !named.has(file)).sort()
  const ok =
    head.state === 'read' && head.signed_by_key !== false && files.every((f) => f.state === 'intact') && datasets.every((d) => d.current)
  return { target: target.name, publication: head, files, datasets, unnamed, ok }
}

/** The report as the CLI prints it. */
export function formatTargetReport(report: TargetReport): string[] {
  const { publication: head } = report
  const document =
    head.state === 'missing'
      ? `${PUBLICATION_FILE}: none`
      : head.state === 'unreadable'
        ? `${PUBLICATION_FILE}: not a publication (${head.reason})`
        : `${PUBLICATION_FILE}: publication ${head.sequence} of ${head.published_at}, key ${head.key_id}${
            head.signed_by_key === undefined ? '' : head.signed_by_key ? ', signature verified' : ', NOT signed by the given key'
          }`
  return [
    `${report.target}: ${report.ok ? 'serves the folder’s current versions, every file intact' : 'NOT as published'}`,
    `  ${document}`,
    ...report.files.map((f) => `  ${f.state.padEnd(10)} ${f.file}`),
    ...report.datasets
      .filter((d) => !d.current)
      .map((d) => `  behind     ${d.dataset}: published ${d.published ?? 'none'}, the folder's current ${d.folder ?? 'none'}`),
    ...(report.unnamed.length ? [`  ${report.unnamed.length} file(s) the publication does not name: ${report.unnamed.join(', ')}`] : []),
  ]
}
