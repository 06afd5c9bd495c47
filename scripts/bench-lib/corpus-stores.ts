/**
 * Which on-disk store serves the evidence corpus exactly at any size (issue 48): the three candidates
 * built from one evidence.parquet and asked the same questions, each in a process of its own (its peak
 * RSS is its own).
 *
 * - `sqlite`: the service's own index (corpus-index-build.ts): the posts in a SQLite table, and an FTS5
 *   index (contentless, positions kept) of their terms (corpus-terms.ts: Latin words, Chinese bigrams),
 *   phrases matched by FTS5 itself;
 * - `duckdb`: the posts in a DuckDB database file, and a postings table (term, row) sorted by term;
 *   a phrase is the rows holding all its terms (no positions);
 * - `parquet`: the same two tables as Parquet files read through DuckDB.
 *
 * In all three the posts are in the order of their platform group, then time, so a window of a group is
 * a range of rows (a small table of each group's first row per day says which). The questions, over the
 * last 60 days split in two (a 30-day trend): a rare brand of the long tail, a topic of the head, a whole
 * category (its ~60 names), a free-text word; each gives its rows in the window, then reads 2,000 of
 * them (every one of fewer) with every column.
 *
 *   bun scripts/bench-lib/corpus-stores.ts <datasetsDir> [sqlite,duckdb,parquet]
 */
import { Database } from 'bun:sqlite'
import { DuckDBInstance } from '@duckdb/node-api'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { DuckDb } from '../../src/data/duckdb'
import { loadDataset, readManifest } from '../../src/data/import/datasets'
import { SIGNAL_BRANDS, SIGNAL_CREATORS, SIGNAL_TOPICS } from '../../src/data/contracts'
import { matcherFor } from '../../src/intelligence/analysis/relevance'
import { indexSignals } from '../../src/signals/index-signals'
import { phrasesOfName, phrasesOfTerm, termsOf, type Lookup } from '../../src/intelligence/corpus/corpus-terms'
import { buildCorpusIndex } from '../../src/intelligence/corpus/corpus-index-build'
import { folderVocabulary } from '../../src/composition/signals-vocabulary'
import { CorpusIndexFile, matchOf } from '../../src/intelligence/corpus/corpus-index'

const COLUMNS =
  'id, published_at, platform, retrieval, about_platform, source_kind, category, language, author, author_followers, author_city, title, text, likes, comments, shares, views'
/** Where DuckDB spills what does not fit in its memory (sorting millions of posts). */
const spill = mkdtempSync(join(tmpdir(), 'corpus-store-spill-'))
process.on('exit', () => rmSync(spill, { recursive: true, force: true }))
const GROUP = `platform || '|' || retrieval || '|' || about_platform`
const DAY_MS = 86_400_000
/** DuckDB's memory while it builds the postings (BENCH_BUILD_MEMORY; the service runs DuckDB at 512 MB). */
const BUILD_MEMORY = process.env.BENCH_BUILD_MEMORY ?? '512MB'
const READ = 2_000

interface Store {
  build(dir: string): Promise<void>
  open(dir: string): Promise<void>
  /** Rows matching any of the lookups in [from, to) (ms), every group. */
  rows(lookups: Lookup[], from: number, to: number): Promise<number[]>
  fetch(rows: number[]): Promise<number>
}

/** Streams the corpus in store order, each post with its terms joined by spaces (a chunk of rows at a time: millions never sit in memory). */
async function eachPost(parquet: string, fn: (row: Record<string, unknown>, terms: string, rowIndex: number) => void | Promise<void>) {
  const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: '512MB', temp_directory: spill })
  const connection = await instance.connect()
  try {
    const columns = COLUMNS.split(', ')
    const file = `read_parquet('${parquet}')`
    const keys = (await connection.runAndReadAll(`SELECT DISTINCT ${GROUP} AS g, month FROM ${file} ORDER BY g, month`)).getRowObjectsJS()
    // A group's month at a time: one sort of millions of wide rows does not fit in DuckDB's 512 MB.
    let rowIndex = 0
    for (const key of keys) {
      const prepared = await connection.prepare(
        `SELECT ${COLUMNS} FROM ${file} WHERE ${GROUP} = $1 AND month = $2 ORDER BY published_at, id`,
      )
      prepared.bind([String(key.g), String(key.month)])
      const result = await prepared.stream()
      for await (const chunk of result.yieldRowsJs()) {
        for (const values of chunk) {
          const row = Object.fromEntries(columns.map((c, i) => [c, values[i]]))
          await fn(row, termsOf(`${row.title} ${row.text}`).join(' '), rowIndex++)
        }
      }
    }
  } finally {
    connection.closeSync()
    instance.closeSync()
  }
}

/** Each group's first row of each day, in store order: [group, day (ms), first row]. */
type Days = [string, number, number][]

function rangesOf(days: Days, from: number, to: number): [number, number][] {
  const out: [number, number][] = []
  const groups = [...new Set(days.map((d) => d[0]))]
  for (const group of groups) {
    const own = days.filter((d) => d[0] === group)
    const end = (t: number) => own.find((d) => d[1] >= t)?.[2] ?? nextStart(days, group)
    const [a, b] = [end(from), end(to)]
    if (b > a) out.push([a, b - 1])
  }
  return out
}
const nextStart = (days: Days, g: string) => {
  const i = days.findLastIndex((d) => d[0] === g)
  return days[i + 1]?.[2] ?? Number.MAX_SAFE_INTEGER
}

/** The days of the posts table as the stores order it (group, then time). */
const daysOf = async (db: DuckDb): Promise<Days> =>
  (
    await db.all<{ g: string; d: number; r: number }>(
      `SELECT g, d, min(r)::INTEGER AS r FROM (SELECT ${GROUP} AS g, epoch_ms(date_trunc('day', published_at::TIMESTAMP))::DOUBLE AS d, (row_number() OVER (ORDER BY ${GROUP}, published_at, id) - 1) AS r FROM read_parquet('${parquet}')) GROUP BY g, d ORDER BY r`,
    )
  ).map((x): [string, number, number] => [x.g, x.d, x.r])

/** The service's own index (corpus-index-build.ts, corpus-index.ts). */
class SqliteStore implements Store {
  private index!: CorpusIndexFile
  async build(dir: string) {
    const db = await DuckDb.open(2, 512)
    try {
      await buildCorpusIndex(db, parquet, 'bench', join(dir, 'corpus.sqlite'), await folderVocabulary(db, folder))
    } finally {
      db.close()
    }
  }
  async open(dir: string) {
    this.index = CorpusIndexFile.open(join(dir, 'corpus.sqlite'))
  }
  async rows(lookups: Lookup[], from: number, to: number) {
    // The phrases of the names, as the other stores are asked (the service asks a known name by its token: corpus.ts).
    const query = { table: 'terms' as const, match: matchOf(lookups) }
    return this.index.ranges(new Date(from), new Date(to)).flatMap((range) => [...this.index.matching(query, range)])
  }
  async fetch(rows: number[]) {
    return this.index.read(rows).length
  }
}

/** DuckDB over the posts and their postings: in a database file, or in Parquet files. */
class DuckStore implements Store {
  private db!: DuckDb
  constructor(private readonly format: 'duckdb' | 'parquet') {}
  async build(dir: string) {
    const instance = await DuckDBInstance.create(':memory:', { threads: '2', memory_limit: BUILD_MEMORY, temp_directory: spill })
    const connection = await instance.connect()
    const target = this.format === 'duckdb' ? 's.' : 'main.'
    if (this.format === 'duckdb') await connection.run(`ATTACH '${join(dir, 'corpus.duckdb')}' AS s`)
    await connection.run(`CREATE TABLE ${target}terms_raw (r INTEGER, t VARCHAR)`)
    // The terms as JS makes them (one tokenizer for every store), through DuckDB's appender.
    const appender = await connection.createAppender('terms_raw', 'main', this.format === 'duckdb' ? 's' : undefined)
    await eachPost(parquet, (_row, terms, r) => {
      appender.appendInteger(r)
      appender.appendVarchar(terms)
      appender.endRow()
    })
    appender.closeSync()
    const postings = `SELECT DISTINCT unnest(string_split(t, ' ')) AS term, r FROM ${target}terms_raw ORDER BY term, r`
    const posts = `SELECT ${COLUMNS} FROM read_parquet('${parquet}') ORDER BY ${GROUP}, published_at, id`
    if (this.format === 'duckdb') {
      await connection.run(`CREATE TABLE s.postings AS ${postings}; CREATE TABLE s.posts AS ${posts}; DROP TABLE s.terms_raw; CHECKPOINT s`)
    } else {
      await connection.run(`COPY (${postings}) TO '${join(dir, 'postings.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`)
      await connection.run(`COPY (${posts}) TO '${join(dir, 'posts.parquet')}' (FORMAT parquet, ROW_GROUP_SIZE 100000)`)
    }
    connection.closeSync()
    instance.closeSync()
  }
  async open(dir: string) {
    this.db = await DuckDb.open(2, 512)
    if (this.format === 'duckdb') {
      await this.db.exec(`ATTACH '${join(dir, 'corpus.duckdb')}' AS s (READ_ONLY); USE s`)
    } else {
      await this.db.exec(`CREATE VIEW postings AS SELECT * FROM read_parquet('${join(dir, 'postings.parquet')}');
        CREATE VIEW posts AS SELECT * FROM read_parquet('${join(dir, 'posts.parquet')}', file_row_number = true)`)
    }
  }
  private days: Days = []
  /** One read of every term's rows in the ranges (a plan of 60 names' INTERSECTs and UNIONs took 20 times as long), then the phrases in JS. */
  async rows(lookups: Lookup[], from: number, to: number) {
    if (!this.days.length) this.days = await daysOf(this.db)
    const ranges = rangesOf(this.days, from, to)
    const within = `(${ranges.map(([a, b]) => `r BETWEEN ${a} AND ${b}`).join(' OR ')})`
    const terms = [...new Set(lookups.flatMap((l) => l.anyOf.flat(2)))]
    const found = await this.db.all<{ term: string; r: number }>(
      `SELECT term, r FROM postings WHERE term IN (${terms.map((t) => `'${t.replaceAll("'", "''")}'`).join(', ')}) AND ${within}`,
    )
    const byTerm = new Map<string, Set<number>>()
    for (const { term, r } of found) {
      let set = byTerm.get(term)
      if (!set) byTerm.set(term, (set = new Set()))
      set.add(r)
    }
    const all = new Set<number>()
    for (const alt of lookups.flatMap((l) => l.anyOf)) {
      const [first, ...rest] = alt.flat().map((t) => byTerm.get(t) ?? new Set<number>())
      for (const r of first!) if (rest.every((set) => set.has(r))) all.add(r)
    }
    return [...all].sort((a, b) => a - b)
  }
  async fetch(rows: number[]) {
    const key = this.format === 'duckdb' ? 'rowid' : 'file_row_number'
    return (
      await this.db.jsonRows<unknown>(
        `SELECT to_json(struct_pack(id := id, title := title, text := text, author := author, published_at := published_at))::VARCHAR FROM posts WHERE ${key} IN (SELECT unnest(string_split($1, ',')::BIGINT[]))`,
        [rows.join(',')],
      )
    ).length
  }
}

const stores: Record<string, () => Store> = {
  sqlite: () => new SqliteStore(),
  duckdb: () => new DuckStore('duckdb'),
  parquet: () => new DuckStore('parquet'),
}

const [mode, dirArg, which = 'sqlite,duckdb,parquet'] = process.argv.slice(2)
const folder = resolve(dirArg ?? 'datasets')
const parquet = join(folder, readManifest(folder).datasets.evidence!.file)
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`
const duSize = (dir: string) => readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0)
const peak = () => Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024
/** Starts the peak RSS afresh (Linux: 5 to clear_refs resets VmHWM). */
const resetPeak = () => writeFileSync('/proc/self/clear_refs', '5')

async function questions(): Promise<{ label: string; lookups: Lookup[] }[]> {
  const db = await DuckDb.open(1)
  const manifest = readManifest(folder)
  const [c, t, b] = await Promise.all([SIGNAL_CREATORS, SIGNAL_TOPICS, SIGNAL_BRANDS].map((x) => loadDataset(db, folder, manifest, x)))
  const { entities } = await indexSignals(db, c!, t!, b!)
  db.close()
  const of = (id: string) => {
    const entity = entities.entities.find((e) => e.id === id)!
    const m = matcherFor({ kind: 'entity', entity, via: entity.name }, entities)
    return (m.prefilter as { anyOf: string[] }).anyOf.map(phrasesOfName).filter((l): l is Lookup => l !== null)
  }
  return [
    { label: 'rare brand (Aurora Skin, long tail)', lookups: of('brand:aurora-skin') },
    { label: 'head topic (smart litter boxes)', lookups: of('topic:smart-litter-boxes') },
    { label: 'category (beauty, all its names)', lookups: of('category:beauty') },
    { label: 'free text (露营)', lookups: [phrasesOfTerm('露营')!] },
  ]
}

if (mode === 'run') {
  // One store in this process: build, open, ask.
  const store = stores[which]!()
  const dir = mkdtempSync(join(tmpdir(), `corpus-store-${which}-`))
  try {
    let t0 = performance.now()
    await store.build(dir)
    const build = (performance.now() - t0) / 1000
    const buildPeak = peak()
    const size = duSize(dir)
    Bun.gc(true)
    resetPeak()
    t0 = performance.now()
    await store.open(dir)
    const open = performance.now() - t0
    const rss = process.memoryUsage.rss()
    // The last 60 days of the corpus.
    const duck = await DuckDb.open(1)
    const [{ last }] = (await duck.all<{ last: number }>(
      `SELECT epoch_ms(max(published_at)::TIMESTAMP)::DOUBLE AS last FROM read_parquet('${parquet}')`,
    )) as [{ last: number }]
    duck.close()
    const end = Math.floor(last / DAY_MS) * DAY_MS + DAY_MS
    const out: string[] = []
    for (const question of await questions()) {
      const times: number[] = []
      const reads: number[] = []
      let found = 0
      for (let i = 0; i < 5; i++) {
        let startedAt = performance.now()
        const rows = await store.rows(question.lookups, end - 60 * DAY_MS, end)
        times.push(performance.now() - startedAt)
        found = rows.length
        const step = Math.max(1, Math.ceil(rows.length / READ))
        startedAt = performance.now()
        await store.fetch(rows.filter((_, k) => k % step === 0))
        reads.push(performance.now() - startedAt)
      }
      const med = (xs: number[]) => xs.sort((a, b) => a - b)[2]!.toFixed(0)
      out.push(`| ${which} | ${question.label} | ${found} | ${med(times)} ms | ${med(reads)} ms |`)
    }
    console.log(JSON.stringify({ which, build, buildPeak, size, open, rss, peak: peak(), out }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
} else {
  // Each store's lines as soon as it is done: a store that fails (out of memory) is a result too.
  console.log('| store | build | build peak RSS | on disk | open | RSS after open | peak RSS |\n|---|---|---|---|---|---|---|')
  const asked: string[] = []
  for (const name of (mode === 'compare' ? which : 'sqlite,duckdb,parquet').split(',')) {
    const proc = Bun.spawn([process.execPath, import.meta.path, 'run', folder, name], { stdout: 'pipe', stderr: 'pipe' })
    const [text, err] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text()]
    if ((await proc.exited) !== 0) {
      console.log(
        `| ${name} | failed: ${
          err
            .split('\n')
            .find((l) => /error/i.test(l))
            ?.trim() ?? 'exit'
        } | | | | | |`,
      )
      continue
    }
    const stats = JSON.parse(text.trim().split('\n').at(-1)!)
    console.log(
      `| ${name} | ${stats.build.toFixed(1)} s | ${mib(stats.buildPeak)} | ${mib(stats.size)} | ${stats.open.toFixed(0)} ms | ${mib(stats.rss)} | ${mib(stats.peak)} |`,
    )
    asked.push(...stats.out)
  }
  console.log('\n| store | question | rows in window | find rows (median of 5) | read 2,000 of them |\n|---|---|---|---|---|')
  console.log(asked.join('\n'))
}
