/**
 * Where a corpus version's search index is kept, and its one build. The index is named after what it is
 * built from: the corpus file's content and the weekly signals' vocabulary
 * (`evidence-<sha256 prefix>.index-v3-<vocabulary>.sqlite`), so that new signals give a new file, never
 * other bytes under a name a publication already signed. It lives beside the corpus file: `data import`
 * builds it there, `data publish` ships it, and a fleet's instances download it with the corpus. A folder
 * the service cannot write (a read-only mount) gets it in the user's cache folder instead. Processes that
 * start at once build it once: the others wait for the builder's lock, then open what it wrote.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { cacheDirs } from '../../core'
import { type DuckDb, EVIDENCE, loadDataset, type LoadedDataset, LockedError, readManifest, takeLock } from '../../data'
import { buildCorpusIndex, INDEX_FORMAT, type IndexBuilt } from './corpus-index-build'
import { CorpusIndexFile } from './corpus-index'
import type { CorpusVocabulary } from './corpus-vocabulary'

/** How often a process waiting for another's build looks again. */
const WAIT_MS = 250

/**
 * The index's file name: the corpus's dataset and the start of its sha256, like a published file's, the
 * index's format (a release that reads another format builds its own beside) and the vocabulary's
 * fingerprint (corpus-vocabulary.ts).
 */
export const indexFileName = (dataset: string, sha256: string, vocabulary: string) =>
  `${indexPrefix(dataset, sha256)}-${vocabulary.slice(0, 12)}.sqlite`
/** What every index of one corpus file and format is named with, whatever signals it knows. */
const indexPrefix = (dataset: string, sha256: string) => `${dataset}-${sha256.slice(0, 12)}.index-v${INDEX_FORMAT}`

/** Where the index of a corpus file may be, best first: beside it, then in each cache folder. */
export function indexPlaces(file: string, dataset: string, sha256: string, vocabulary: string): string[] {
  const name = indexFileName(dataset, sha256, vocabulary)
  return [join(dirname(file), name), ...cacheDirs().map((dir) => join(dir, 'corpus-index', name))]
}

/** The indexes of the same corpus file built for other signals, in the folders of `places`. */
function othersOf(places: string[], dataset: string, sha256: string): string[] {
  const prefix = `${indexPrefix(dataset, sha256)}-`
  return places.flatMap((place) => {
    const dir = dirname(place)
    if (!existsSync(dir)) return []
    return readdirSync(dir)
      .filter((name) => name.startsWith(prefix) && name.endsWith('.sqlite') && join(dir, name) !== place)
      .map((name) => join(dir, name))
  })
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

/**
 * The index of a loaded corpus version, built first where none is found (`built` says how long it took).
 * The service (`exact` unset) also takes an index of this corpus built for other weekly signals: names
 * are then found by their phrases (correct, slower) until `data index` builds the current one. The data
 * commands (`exact`) build the current one, and remove those of other signals beside it.
 */
export async function openCorpusIndex(
  db: DuckDb,
  corpus: LoadedDataset,
  names: VocabularyOf,
  exact = false,
): Promise<{ index: CorpusIndexFile; built?: IndexBuilt }> {
  const { file, entry, contract } = corpus
  const vocabulary = await names()
  const places = indexPlaces(file, contract.name, entry.sha256, vocabulary.fingerprint)
  for (const place of places) {
    const found = openIfThere(place, entry.sha256)
    if (found) return { index: found }
  }
  const others = othersOf(places, contract.name, entry.sha256)
  if (!exact)
    for (const other of others) {
      const found = openIfThere(other, entry.sha256)
      if (found) return { index: found }
    }
  const target = places.find((place) => writable(dirname(place)))
  if (!target) throw new Error(`no folder to write the index of ${file} in (tried ${places.map(dirname).join(', ')})`)
  const opened = await buildOnce(db, file, entry.sha256, target, async () => vocabulary)
  // A service still reading one of them keeps its open file; the next load opens the current one.
  if (exact) for (const other of others) rmSync(other, { force: true })
  return opened
}

/** Builds the index at `target` unless another process is building it: then waits for that build. */
export async function buildOnce(
  db: DuckDb,
  file: string,
  sha256: string,
  target: string,
  names: VocabularyOf,
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
      if (done) return { index: done }
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
 * found, or built now, also when only one built knowing other weekly signals is there (a signals import).
 */
export async function ensureCorpusIndex(
  db: DuckDb,
  dir: string,
  names: VocabularyOf,
): Promise<{ path: string; posts: number; built?: IndexBuilt }> {
  const corpus = await loadDataset(db, dir, readManifest(dir), EVIDENCE)
  const { index, built } = await openCorpusIndex(db, corpus, names, true)
  const facts = { path: index.path, posts: index.posts, ...(built ? { built } : {}) }
  index.close()
  return facts
}
