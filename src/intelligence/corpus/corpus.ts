/**
 * The embedded default: the evidence corpus, searched through its index (corpus-index.ts). As a native
 * provider it returns a platform's first-party items; as a web provider, open-web coverage about that
 * platform or about no platform in particular. It returns the candidates of the query's prefilter (the
 * posts holding any name, or every free-text term: corpus-terms.ts), every one however rare; the lanes
 * then keep the relevant ones, as for any provider.
 */
import {
  noneDropped,
  type EvidenceItem,
  type EvidenceProvider,
  type EvidenceQuery,
  type Platform,
  type SearchResult,
  type SourceKind,
} from '../evidence'
import { normalizeText, type Matcher } from '../analysis/relevance'
import { finderOf, slices, type Finder } from './corpus-finder'
import { eachSliced, turn } from '../turns'
import type { PostRow } from './corpus-index-build'
import type { CorpusIndexFile, EntityPosts, RowRange } from './corpus-index'
import { prefilterKey } from './corpus-vocabulary'
import { draw, intersect, listed, union, type CandidateSet } from './corpus-draw'

/** Creator-post windows kept (the sample's KOL window is one). */
const POST_WINDOWS = 2
/**
 * Candidate rows kept per corpus version, all sets together (four of the largest, READ_MAX_ROWS): the
 * lanes of one request share one read, and whole answers are cached anyway.
 */
const MEMO_ROWS = 8_000
/**
 * Rows read per candidate set: a larger set (a year of a whole category is ~40,000 rows in the shipped
 * corpus) is read as an evenly drawn sample (corpus-draw.ts), each row standing for the rows it was
 * drawn from; the counts it gives stay within a few percent of reading every row
 * (test/intelligence/corpus/corpus-draw.test.ts).
 */
export const READ_MAX_ROWS = 2_000
/**
 * Creator posts of a KOL window read with their texts (the shipped corpus has ~38,000 in 90 days, all
 * read). Past it, each creator's posts are drawn one in k, but never fewer than CREATOR_MIN_READ of a
 * creator (a creator with fewer is read whole): every creator is scored, on exact counts.
 */
export const CREATOR_READ_MAX = 60_000
const CREATOR_MIN_READ = 20
/** Posts read from the index per query. */
const READ_BATCH = 4_000
/** Rows of a range searched per query by the index, or scanned (other requests take their turn between two). */
const TERMS_SLICE = 250_000
const SCAN_SLICE = 10_000

type Row = PostRow & { rowid: number }

export const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

export function toItem(row: Row & { weight?: number }, provider: string): EvidenceItem {
  const web = row.platform === 'web'
  return {
    id: row.id,
    url: null,
    platform: row.platform as Platform | 'web',
    retrieval: row.retrieval === 'native' ? 'native' : 'proxy',
    sourceKind: row.source_kind as SourceKind,
    // Web pages in the corpus name their publication: the site, not a creator.
    author: web ? null : row.author || null,
    site: web ? row.author || null : null,
    authorFollowers: web || !row.author_followers ? null : row.author_followers,
    authorCity: row.author_city || null,
    publishedAt: new Date(row.published_at),
    title: row.title,
    text: row.text,
    language: row.language === 'en' ? 'en' : 'zh',
    // Web pages in the corpus report no engagement.
    engagement: web ? null : { likes: row.likes, comments: row.comments, shares: row.shares, views: row.views || null },
    provider,
    // A drawn row stands for more than itself (EvidenceItem.weight); 1 is no weight.
    ...(row.weight !== undefined && row.weight !== 1 ? { weight: row.weight } : {}),
  }
}

type CorpusRow = Row & { weight?: number }

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/**
 * Candidate rows of a prefilter in a window, every platform and retrieval at once: the six lane steps
 * of a request filter one search. Bounded memo (the corpus never changes under a version).
 */
export class CorpusSearch {
  constructor(
    private readonly index: CorpusIndexFile,
    /** Rows read per candidate set (READ_MAX_ROWS; Infinity reads every candidate). */
    private readonly readMax = READ_MAX_ROWS,
    /** Creator posts of a KOL window read with their texts (CREATOR_READ_MAX). */
    private readonly creatorReadMax = CREATOR_READ_MAX,
    /** The fingerprint of the names as relevance knows them now (corpus-vocabulary.ts); unset: the index's own. */
    private readonly vocabulary: () => string | undefined = () => undefined,
  ) {}

  /** Whether the index was built knowing the names as relevance knows them now: then its names and entities hold. */
  private known(): boolean {
    return (this.vocabulary() ?? this.index.vocabulary) === this.index.vocabulary
  }

  /** A known entity of the prefilter, listed in order in the index (corpus-index-names.ts). */
  private entityOf(prefilter: Matcher['prefilter']): EntityPosts | undefined {
    const key = prefilterKey(prefilter)
    return key && this.known() ? this.index.entityOf(key) : undefined
  }

  /** One range of a known entity's posts as a set to draw from: counted and drawn by their numbers, a few lookups at any size. */
  private entitySet(entity: EntityPosts, range: RowRange): CandidateSet {
    const [from, to] = [this.index.ordinalAt(entity, range.from), this.index.ordinalAt(entity, range.to)]
    return { count: to - from, take: (step) => this.index.entityRows(entity, from, to, step) }
  }

  /** Reads the KOL population of the window every KOL answer asks (`prepare` in sources.ts), so that no request waits for it. */
  async prepare(from: Date, to: Date): Promise<void> {
    await this.population(from, to)
  }

  /**
   * The creator posts of a window (the KOL population, read once per window: the sample's window never
   * moves), each standing for the creator's posts it was drawn from, and the ids of those that pass a
   * prefilter (only they are checked for relevance).
   */
  async creatorPosts(
    from: Date,
    to: Date,
    prefilter: Matcher['prefilter'],
  ): Promise<{ posts: (EvidenceItem & { category: string })[]; candidates: ReadonlySet<string> }> {
    const population = await this.population(from, to)
    const ranges = this.index.ranges(from, to).filter((r) => this.native(r))
    const entity = this.entityOf(prefilter)
    const finder = finderOf(prefilter, this.index, this.known())
    const candidates = union(
      await Promise.all(
        ranges.map((range) => (entity ? this.entitySet(entity, range).take(1) : this.rowsIn(finder, range, prefilter.author))),
      ),
    )
    const ids = new Set<string>()
    const kept = intersect(population.rowids, candidates)
    let next = 0
    population.rowids.forEach((rowid, i) => {
      if (kept[next] === rowid) [ids.add(population.posts[i]!.id), next++]
    })
    return { posts: population.posts, candidates: ids }
  }

  private readonly posts = new Map<string, Promise<Population>>()

  private population(from: Date, to: Date): Promise<Population> {
    const key = `${iso(from)}|${iso(to)}`
    let posts = this.posts.get(key)
    if (!posts) {
      posts = this.readPopulation(from, to)
      posts.catch(() => this.posts.delete(key))
      this.posts.set(key, posts)
      if (this.posts.size > POST_WINDOWS) this.posts.delete(this.posts.keys().next().value as string)
    }
    return posts
  }

  private native(range: RowRange): boolean {
    return this.index.groups[range.group]!.name.split('|')[1] === 'native'
  }

  /** Every creator's posts of a window, drawn per creator past `creatorReadMax` (see CREATOR_READ_MAX). */
  private async readPopulation(from: Date, to: Date): Promise<Population> {
    const native = this.index
      .ranges(from, to)
      .filter((r) => this.native(r))
      .map((r) => this.index.native(r))
    const posts = new Map<number, number>()
    for (const { creators } of native) for (const c of creators) posts.set(c, (posts.get(c) ?? 0) + 1)
    const total = native.reduce((n, r) => n + r.rows.length, 0)
    const oneIn = Math.ceil(total / this.creatorReadMax)
    const stepOf = (creator: number) => (oneIn <= 1 ? 1 : Math.max(1, Math.min(oneIn, Math.floor(posts.get(creator)! / CREATOR_MIN_READ))))
    const seen = new Map<number, number>()
    const drawn: number[] = []
    const creatorOf: number[] = []
    for (const { rows, creators } of native)
      rows.forEach((row, at) => {
        const creator = creators[at]!
        const before = seen.get(creator) ?? 0
        seen.set(creator, before + 1)
        if (before % stepOf(creator) === 0) [drawn.push(row), creatorOf.push(creator)]
      })
    const weightOf = new Map<number, number>()
    for (const [creator, n] of posts) weightOf.set(creator, n / Math.ceil(n / stepOf(creator)))
    const weights = new Map(drawn.map((row, i) => [row, weightOf.get(creatorOf[i]!)!]))
    const rows = await this.readRows(Int32Array.from(drawn))
    const out: Population = { posts: [], rowids: new Int32Array(rows.length) }
    await eachSliced(rows, (row, i) => {
      const weight = weights.get(row.rowid)!
      out.posts.push({ ...toItem(weight === 1 ? row : { ...row, weight }, 'sample-corpus'), category: row.category })
      out.rowids[i] = row.rowid
    })
    // In rowid order, for `creatorPosts`' merge.
    const order = out.rowids.map((_, i) => i).sort((a, b) => out.rowids[a]! - out.rowids[b]!)
    return { posts: Array.from(order, (i) => out.posts[i]!), rowids: Int32Array.from(order, (i) => out.rowids[i]!) }
  }

  /** The posts of `rows` in publication order, read a batch at a time. */
  private async readRows(rows: Int32Array): Promise<Row[]> {
    const out: Row[] = []
    for (let i = 0; i < rows.length; i += READ_BATCH) {
      for (const row of this.index.read(rows.subarray(i, i + READ_BATCH))) out.push(row)
      await turn()
    }
    return rows.length > READ_BATCH ? out.sort((a, b) => compare(a.published_at, b.published_at) || compare(a.id, b.id)) : out
  }

  /** The candidate rows of a prefilter in [from, to), drawn per window when `split` divides it (corpus-draw.ts). */
  candidates(prefilter: Matcher['prefilter'], from: Date, to: Date, split?: Date): Promise<CorpusRow[]> {
    const key = `${JSON.stringify(prefilter)}|${iso(from)}|${iso(to)}|${split ? iso(split) : ''}`
    const held = this.memo.get(key)
    if (held) {
      this.memo.delete(key)
      this.memo.set(key, held)
      return held.rows
    }
    const entry = { rows: this.search(prefilter, from, to, split), size: 0 }
    this.memo.set(key, entry)
    entry.rows.then(
      (rows) => {
        if (this.memo.get(key) !== entry) return
        entry.size = rows.length
        this.memoRows += rows.length
        // Least recently used first, never the set just read (its request is using it).
        for (const [k, e] of this.memo) {
          if (this.memoRows <= MEMO_ROWS || k === key) break
          this.memo.delete(k)
          this.memoRows -= e.size
        }
      },
      () => this.memo.delete(key),
    )
    return entry.rows
  }

  private readonly memo = new Map<string, { rows: Promise<CorpusRow[]>; size: number }>()
  private memoRows = 0

  /**
   * The rows of one range a prefilter finds: by the index's names and terms, by a scan of what they
   * cannot find, and a creator's own posts. A slice of the range at a time, taking turns with other
   * requests between them (a year of a large corpus's group is millions of rows).
   */
  private async rowsIn(finder: Finder, range: RowRange, author?: string): Promise<Int32Array> {
    const lists: Int32Array[] = []
    const scan = finder.scan
    const holds =
      scan &&
      ('anyOf' in scan
        ? (text: string) => scan.anyOf.some((name) => text.includes(name))
        : (text: string) => scan.allOf.every((term) => text.includes(term)))
    // The index's matches cost little per row; a scan reads every text (corpus-terms.ts: rare names only).
    for (const slice of slices(range, holds ? SCAN_SLICE : TERMS_SLICE)) {
      for (const query of finder.queries) lists.push(this.index.matching(query, slice))
      if (holds) lists.push(this.index.scan(slice, (text) => holds(normalizeText(text))))
      await turn()
    }
    if (author) lists.push(this.index.byAuthor(author, range))
    return lists.length ? union(lists) : new Int32Array(0)
  }

  /**
   * One range's candidates as a set to draw from. Found by one query alone (a known entity's names, or
   * free text), they are counted and drawn in SQLite: a large set's rowids never cross into JavaScript.
   */
  private async candidateSet(finder: Finder, range: RowRange, author?: string): Promise<CandidateSet> {
    const [query] = finder.queries
    if (!query || finder.queries.length > 1 || finder.scan || author) return listed(await this.rowsIn(finder, range, author))
    const counts: number[] = []
    for (const slice of slices(range, TERMS_SLICE)) {
      counts.push(this.index.count(query, slice))
      await turn()
    }
    return {
      count: counts.reduce((sum, n) => sum + n, 0),
      take: async (step) => {
        const lists: Int32Array[] = []
        let before = 0
        for (const [i, slice] of [...slices(range, TERMS_SLICE)].entries()) {
          // The first row of the range and every step-th after it, across slices.
          if (counts[i]) lists.push(step === 1 ? this.index.matching(query, slice) : this.index.every(query, slice, step, before % step))
          before += counts[i]!
          await turn()
        }
        return union(lists)
      },
    }
  }

  /** The rows drawn from a prefilter's candidates (every one up to `readMax`), each with its weight when it stands for more than itself. */
  private async search(prefilter: Matcher['prefilter'], from: Date, to: Date, split?: Date): Promise<CorpusRow[]> {
    const entity = this.entityOf(prefilter)
    const finder = finderOf(prefilter, this.index, this.known())
    const halves =
      split && split > from && split < to
        ? [this.index.ranges(from, split), this.index.ranges(split, to)].flat()
        : this.index.ranges(from, to)
    const sets: CandidateSet[] = []
    for (const range of halves) sets.push(entity ? this.entitySet(entity, range) : await this.candidateSet(finder, range, prefilter.author))
    const drawn = await draw(sets, this.readMax)
    if (!drawn.rows.length) return []
    const weights = new Map<number, number>()
    drawn.rows.forEach((row, i) => weights.set(row, drawn.weights[i]!))
    const rows: CorpusRow[] = await this.readRows(drawn.rows)
    for (const row of rows) {
      const weight = weights.get(row.rowid)!
      if (weight !== 1) row.weight = weight
    }
    return rows
  }
}

/** The creator posts of a window as read, in rowid order. */
interface Population {
  posts: (EvidenceItem & { category: string })[]
  rowids: Int32Array
}

export class CorpusProvider implements EvidenceProvider {
  readonly name = 'sample-corpus'
  /** The local index: answers in milliseconds; the bound only guards a stuck read. */
  readonly timeoutMs = 10_000
  readonly local = true

  constructor(
    private readonly corpus: CorpusSearch,
    readonly role: 'native' | 'web',
    /** Where the corpus starts: windows before it are not covered. */
    private readonly coverageFrom: Date,
  ) {}

  serves(): boolean {
    return true
  }

  async search(query: EvidenceQuery): Promise<SearchResult> {
    const rows = await this.corpus.candidates(query.match.prefilter, query.from, query.to, query.split)
    const wanted =
      this.role === 'native'
        ? (r: CorpusRow) => r.platform === query.platform && r.retrieval === 'native'
        : (r: CorpusRow) => r.platform === 'web' && (r.about_platform === query.platform || r.about_platform === '')
    const items: EvidenceItem[] = []
    let candidates = 0
    await eachSliced(rows, (r) => {
      if (!wanted(r)) return
      items.push(toItem(r, this.name))
      candidates += r.weight ?? 1
    })
    // The corpus is the whole sample world: complete for every day it spans.
    const windows = query.split
      ? [
          { from: query.from, to: query.split },
          { from: query.split, to: query.to },
        ]
      : [{ from: query.from, to: query.to }]
    const coverage = windows.map((w) => ({
      ...w,
      coveredFrom: w.to <= this.coverageFrom ? null : w.from < this.coverageFrom ? this.coverageFrom : w.from,
      capped: false,
    }))
    const drawn = Math.round(candidates) > items.length ? { sampled: { candidates: Math.round(candidates), read: items.length } } : {}
    return { items, coverage, dropped: noneDropped(), requests: 0, ...drawn }
  }
}
