/**
 * Where a corpus version's search index is kept, and its one build. The index is named after the
 * corpus file's content (`evidence-<sha256 prefix>.index-v3.sqlite`), beside the file: `data import` builds
 * it there, `data publish` ships it, and a fleet's instances download it with the corpus. A folder the
 * service cannot write (a read-only mount) gets it in the user's cache folder instead. Processes that
 * start at once build it once: the others wait for the builder's lock, then open what it wrote.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { cacheDirs } from '../../core/cache-dirs'
import { EVIDENCE } from '../../data/contracts'
import { loadDataset, readManifest, type LoadedDataset } from '../../data/datasets'
import type { DuckDb } from '../../data/duckdb'
import { LockedError, takeLock } from '../../data/pid-lock'
import { buildCorpusIndex, INDEX_FORMAT, type IndexBuilt } from './corpus-index-build'
import { CorpusIndexFile } from './corpus-index'
import type { CorpusVocabulary } from './corpus-vocabulary'

/** How often a process waiting for another's build looks again. */
const WAIT_MS = 250

/**
 * The index's file name: the corpus's dataset and the start of its sha256, like a published file's, and
 * the index's format (a release that reads another format builds its own beside).
 */
export const indexFileName = (dataset: string, sha256: string) => `${dataset}-${sha256.slice(0, 12)}.index-v${INDEX_FORMAT}.sqlite`

/** Where the index of a corpus file may be, best first: beside it, then in each cache folder. */
export function indexPlaces(file: string, dataset: string, sha256: string): string[] {
  const name = indexFileName(dataset, sha256)
  return [join(dirname(file), name), ...cacheDirs().map((dir) => join(dir, 'corpus-index', name))]
}

const writable = (dir: string) => {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    accessSync(dir, constants.W_OK)
    return true
  } catch {
    return false
  }
}

const openIfThere = (path: string, sha256: string): CorpusIndexFile | null => {
  if (!existsSync(path)) return null
  try {
    return CorpusIndexFile.open(path, sha256)
  } catch {
    return null // another format or a broken file: built again
  }
}

/** What an index is built knowing (corpus-vocabulary.ts: of the weekly signals beside the corpus), read only when one is built. */
export type VocabularyOf = () => Promise<CorpusVocabulary>

/** Whether an index found may serve; one that may not is built again in its place. */
export type Usable = (index: CorpusIndexFile) => boolean

/**
 * The index of a loaded corpus version, built first where none is found (`built` says how long it
 * took). The service takes any index of this corpus (one built for other weekly signals finds names by
 * their phrases: correct, slower); the data commands pass `usable` to build again one built for other
 * signals (ensureCorpusIndex).
 */
export async function openCorpusIndex(
  db: DuckDb,
  corpus: LoadedDataset,
  names: VocabularyOf,
  usable: Usable = () => true,
): Promise<{ index: CorpusIndexFile; built?: IndexBuilt }> {
  const { file, entry, contract } = corpus
  const places = indexPlaces(file, contract.name, entry.sha256)
  for (const place of places) {
    const found = openIfThere(place, entry.sha256)
    if (found && usable(found)) return { index: found }
    if (found && writable(dirname(place))) {
      found.close()
      return buildOnce(db, file, entry.sha256, place, names, usable)
    }
    found?.close()
  }
  const target = places.find((place) => writable(dirname(place)))
  if (!target) throw new Error(`no folder to write the index of ${file} in (tried ${places.map(dirname).join(', ')})`)
  return buildOnce(db, file, entry.sha256, target, names, usable)
}

/** Builds the index at `target` unless another process is building it: then waits for that build. */
export async function buildOnce(
  db: DuckDb,
  file: string,
  sha256: string,
  target: string,
  names: VocabularyOf,
  usable: Usable = () => true,
): Promise<{ index: CorpusIndexFile; built?: IndexBuilt }> {
  for (;;) {
    let release: () => void
    try {
      release = takeLock(`${target}.lock`, `building ${target}`)
    } catch (error) {
      if (!(error instanceof LockedError)) throw error
      await Bun.sleep(WAIT_MS)
      continue
    }
    try {
      // Built by the process that held the lock before.
      const done = openIfThere(target, sha256)
      if (done && usable(done)) return { index: done }
      done?.close()
      // What a build that died (killed, out of disk) left behind, its scratch database too: only the lock's holder builds.
      for (const name of readdirSync(dirname(target)))
        if (name.startsWith(`${basename(target)}.`) && /\.tmp(\.staging)?$/.test(name)) rmSync(join(dirname(target), name), { force: true })
      const built = await buildCorpusIndex(db, file, sha256, target, await names())
      return { index: CorpusIndexFile.open(target, sha256), built }
    } finally {
      release()
    }
  }
}

/**
 * The index of a datasets folder's current corpus version (`data import`, `data index`, `data publish`):
 * found, or built now; built again when it was built knowing other weekly signals (a signals import).
 */
export async function ensureCorpusIndex(
  db: DuckDb,
  dir: string,
  names: VocabularyOf,
): Promise<{ path: string; posts: number; built?: IndexBuilt }> {
  const corpus = await loadDataset(db, dir, readManifest(dir), EVIDENCE)
  const vocabulary = await names()
  const current = (index: CorpusIndexFile) => index.vocabulary === vocabulary.fingerprint
  const { index, built } = await openCorpusIndex(db, corpus, async () => vocabulary, current)
  const facts = { path: index.path, posts: index.posts, ...(built ? { built } : {}) }
  index.close()
  return facts
}
