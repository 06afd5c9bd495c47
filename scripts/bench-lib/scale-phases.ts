/**
 * Where the start-up and the first answers go on a datasets folder (issues 36 and 48, with bench-scale.ts):
 * the service's own steps run one after another in this process, each timed, with the memory after it —
 * the process's RSS, the JS heap and DuckDB's own account. The service runs market, signals and evidence
 * together (store.ts); here each is alone, so its figure is its own. The evidence step opens the corpus's
 * index, or builds it when this version has none. Then the corpus reads of a few first answers: a
 * category over a year (the largest trend answer), a brand and a destination over 90 days, and the KOL
 * population (the creator posts of the 90-day window).
 *
 *   bun scripts/bench-lib/scale-phases.ts <datasetsDir>     (DUCKDB_MEMORY_LIMIT_MB as the service's default)
 */
import { resolve } from 'node:path'
import { DATASETS } from '../../src/data/contracts'
import { loadDataset, readManifest, type LoadedDataset } from '../../src/data/import/datasets'
import { DuckDb } from '../../src/data/duckdb'
import { ENV } from '../../src/config/settings'
import { indexMarket } from '../../src/data/market-snapshot'
import { CorpusSearch } from '../../src/intelligence/corpus/corpus'
import { matcherFor } from '../../src/intelligence/analysis/relevance'
import { indexCorpus } from '../../src/intelligence/sources'
import { snapshotVocabulary } from '../../src/composition/signals-vocabulary'
import { indexSignals } from '../../src/signals/index-signals'

const dir = resolve(process.argv[2] ?? 'datasets')
const memoryLimitMb = Number(process.env.DUCKDB_MEMORY_LIMIT_MB ?? ENV.DUCKDB_MEMORY_LIMIT_MB.default)
const db = await DuckDb.open(undefined, memoryLimitMb)
const rows: string[] = []
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`

async function phase<T>(label: string, work: () => Promise<T>, note?: (value: T) => string): Promise<T> {
  const t0 = performance.now()
  const value = await work()
  const ms = performance.now() - t0
  Bun.gc(true)
  const duck = await db.memoryBytes()
  const line = `| ${label} | ${(ms / 1000).toFixed(2)} s | ${mb(process.memoryUsage.rss())} | ${mb(process.memoryUsage().heapUsed)} | ${mb(duck)} | ${note?.(value) ?? ''} |`
  rows.push(line)
  console.error(line)
  return value
}

const manifest = readManifest(dir)
const loaded = await phase('load: views and periods (6 datasets)', async () =>
  Object.fromEntries(
    await Promise.all(DATASETS.map(async (c) => [c.name, await loadDataset(db, dir, manifest, c)] as [string, LoadedDataset])),
  ),
)
const dataset = (name: string) => loaded[name]!
await phase('index: market (names, monthly totals)', () => indexMarket(db, dataset('flights'), dataset('spend')))
const signals = await phase('index: signals (entities)', () =>
  indexSignals(db, dataset('signal_creators'), dataset('signal_topics'), dataset('signal_brands')),
)
const corpus = await phase(
  "index: the corpus's search index (opened, or built first when this version has none)",
  () => indexCorpus(db, dataset('evidence'), () => snapshotVocabulary(db, loaded)),
  (index) =>
    `${index.file.posts.toLocaleString('en-US')} posts${index.built ? `, built in ${(index.built.ms / 1000).toFixed(1)} s` : ', opened'}`,
)
const search = new CorpusSearch(corpus.file)
const asOf = new Date(Math.floor(corpus.last.getTime() / 86_400_000) * 86_400_000 + 86_400_000)
const daysBack = (n: number) => new Date(asOf.getTime() - n * 86_400_000)
const prefilter = (keyword: string) => matcherFor(signals.entities.resolve(keyword), signals.entities).prefilter
for (const [keyword, days] of [
  ['beauty', 365],
  ['travel', 90],
  ['Tokyo', 90],
  ['露营', 30],
] as const) {
  await phase(
    `first answer's corpus read: ${keyword}, ${days} days`,
    () => search.candidates(prefilter(keyword), daysBack(days), asOf, daysBack(days / 2)),
    (r) => `${r.length} rows read, standing for ${Math.round(r.reduce((n, x) => n + (x.weight ?? 1), 0)).toLocaleString('en-US')}`,
  )
}
const kol = await phase(
  'KOL population: the creator posts of 90 days (every one, or drawn per creator past CREATOR_READ_MAX)',
  () => search.creatorPosts(daysBack(90), asOf, prefilter('beauty')),
  (r) => `${r.posts.length.toLocaleString('en-US')} posts, ${r.candidates.size.toLocaleString('en-US')} candidates`,
)
void kol

console.log(`#### Phases on ${dir} (one at a time, DUCKDB_MEMORY_LIMIT_MB=${memoryLimitMb}; Bun ${Bun.version})\n`)
console.log('| phase | time | RSS after | JS heap after | DuckDB after | |\n|---|---|---|---|---|---|')
console.log(rows.join('\n'))
db.close()
