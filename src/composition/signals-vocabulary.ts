/**
 * What the corpus's index is built knowing (intelligence/corpus/corpus-vocabulary.ts): every entity's
 * names and prefilter of the weekly signals beside the corpus. Here because the entities come from the
 * signals domain, above the intelligence layer that builds the index.
 */
import { type DuckDb, loadDataset, type LoadedDataset, readManifest, SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS } from '../data'
import { type CorpusVocabulary, vocabularyOf } from '../intelligence'
import { indexSignals } from '../signals'

/** The vocabulary of the weekly signals of a snapshot (the datasets loaded beside the corpus). */
export async function snapshotVocabulary(db: DuckDb, datasets: Record<string, LoadedDataset>): Promise<CorpusVocabulary> {
  const [creators, topics, brands] = [SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS].map((c) => datasets[c.name]!)
  return vocabularyOf((await indexSignals(db, creators!, topics!, brands!)).entities)
}

/** The same, of a datasets folder's current versions (`data import`, `data index`, `data publish`, the executable's build). */
export async function folderVocabulary(db: DuckDb, dir: string): Promise<CorpusVocabulary> {
  const manifest = readManifest(dir)
  const loaded = await Promise.all([SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS].map((c) => loadDataset(db, dir, manifest, c)))
  return snapshotVocabulary(db, Object.fromEntries(loaded.map((d) => [d.contract.name, d])))
}
