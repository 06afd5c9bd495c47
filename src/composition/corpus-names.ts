/**
 * The names the corpus's index is built knowing, each one token (intelligence/providers/corpus-index-build.ts):
 * every entity's of the weekly signals beside the corpus. Here because the entities come from the signals
 * domain, above the intelligence layer that builds the index.
 */
import { SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS } from '../data/contracts'
import { loadDataset, readManifest, type LoadedDataset } from '../data/datasets'
import type { DuckDb } from '../data/duckdb'
import { prefilterNames } from '../intelligence/relevance'
import { indexSignals } from '../signals/index-signals'

/** The names the corpus's index knows, each a token of its own: every entity's of the weekly signals beside it (relevance.ts prefilterNames). */
export async function corpusNames(db: DuckDb, datasets: Record<string, LoadedDataset>): Promise<readonly string[]> {
  const [creators, topics, brands] = [SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS].map((c) => datasets[c.name]!)
  return prefilterNames((await indexSignals(db, creators!, topics!, brands!)).entities)
}

/** The same, of a datasets folder's current versions (`data import`, `data index`, `data publish`, the executable's build). */
export async function folderCorpusNames(db: DuckDb, dir: string): Promise<readonly string[]> {
  const manifest = readManifest(dir)
  const loaded = await Promise.all([SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS].map((c) => loadDataset(db, dir, manifest, c)))
  return corpusNames(db, Object.fromEntries(loaded.map((d) => [d.contract.name, d])))
}
