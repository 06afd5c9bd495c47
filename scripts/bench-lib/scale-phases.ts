/**
 * Where the start-up and the first answers go on a datasets folder (issue 36, with bench-scale.ts): the
 * service's own steps run one after another in this process, each timed, with the memory after it — the
 * process's RSS, the JS heap and DuckDB's own account. The service runs market, signals and evidence
 * together, then the name index and the row facts together (store.ts, runtime.ts prepareCorpus); here each
 * is alone, so its figure is its own. Then the corpus reads of a few first answers: a category over a year
 * (the largest trend answer), a brand and a destination over 90 days, and the KOL population (every
 * creator post of the 90-day window).
 *
 *   bun scripts/bench-lib/scale-phases.ts <datasetsDir>     (DUCKDB_MEMORY_LIMIT_MB and CORPUS_MAX_ROWS as the service's defaults)
 */
import { resolve } from 'node:path'
import { DATASETS } from '../../src/data/contracts'
import { loadDataset, readManifest, type LoadedDataset } from '../../src/data/datasets'
import { DuckDb } from '../../src/data/duckdb'
import { ENV } from '../../src/config/settings'
import { indexMarket } from '../../src/data/market-snapshot'
import { buildNamePostings } from '../../src/intelligence/providers/name-postings'
import { readRowFacts } from '../../src/intelligence/providers/corpus-draw'
import { CorpusSearch } from '../../src/intelligence/providers/corpus'
import { matcherFor, prefilterNames } from '../../src/intelligence/relevance'
import { indexCorpus } from '../../src/intelligence/sources'
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
const d = (name: string) => loaded[name]!
await phase('index: market (names, monthly totals)', () => indexMarket(db, d('flights'), d('spend')))
const signals = await phase('index: signals (entities)', () =>
  indexSignals(db, d('signal_creators'), d('signal_topics'), d('signal_brands')),
)
const corpus = await phase(
  'index: evidence search table (every post, or the sample of CORPUS_MAX_ROWS)',
  () => indexCorpus(db, d('evidence'), Number(process.env.CORPUS_MAX_ROWS ?? ENV.CORPUS_MAX_ROWS.default)),
  (index) => `${index.kept.kept} of ${index.kept.rows} posts, one in ${index.kept.oneIn}`,
)
const names = prefilterNames(signals.entities)
let postings: Map<string, Int32Array> | undefined = await phase(
  `name index: Aho-Corasick pass (${names.length} names)`,
  () => buildNamePostings(db, corpus.table, names),
  (p) => `${[...p.values()].reduce((n, l) => n + l.length, 0).toLocaleString('en-US')} postings`,
)
let facts: Awaited<ReturnType<typeof readRowFacts>> | undefined = await phase('row facts: typed arrays', () =>
  readRowFacts(db, corpus.table),
)
postings = undefined
facts = undefined
void postings
void facts
const search = new CorpusSearch(db, corpus.table, () => ({ version: signals.entities.version, names }))
await phase('name index + row facts together (as the service: prepare)', () => search.prepare())

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
  'KOL population: every creator post of 90 days (JS objects)',
  () => search.creatorPosts(daysBack(90), asOf, prefilter('beauty')),
  (r) => `${r.posts.length.toLocaleString('en-US')} posts, ${r.candidates.size.toLocaleString('en-US')} candidates`,
)
void kol

console.log(`#### Phases on ${dir} (one at a time, DUCKDB_MEMORY_LIMIT_MB=${memoryLimitMb}; Bun ${Bun.version})\n`)
console.log('| phase | time | RSS after | JS heap after | DuckDB after | |\n|---|---|---|---|---|---|')
console.log(rows.join('\n'))
db.close()
