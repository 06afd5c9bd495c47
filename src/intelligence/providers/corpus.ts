/**
 * The embedded default: the sample evidence corpus (evidence.parquet) read through DuckDB. As a native
 * provider it returns a platform's first-party items; as a web provider, open-web coverage about that
 * platform or about no platform in particular. It returns the candidates of the query's prefilter (any
 * name, or every free-text term, as a lower-cased substring of title and text); the lanes then keep
 * the relevant ones, as for any provider.
 */
import { listValue, type DuckDBValue } from '@duckdb/node-api'
import type { DuckDb } from '../../data/duckdb'
import {
  noneDropped,
  type EvidenceItem,
  type EvidenceProvider,
  type EvidenceQuery,
  type Platform,
  type SearchResult,
  type SourceKind,
} from '../evidence'
import type { Matcher } from '../relevance'
import { eachSliced } from '../turns'
import { draw, readRowFacts, ROWID_IN, rowidList, union, type RowFacts } from './corpus-draw'
import { buildNamePostings } from './name-postings'

/** Bound on the names of one candidate search (a category with all its members has about 60). */
const MAX_NAMES = 200
/** Creator-post windows kept (the sample's KOL window is one). */
const POST_WINDOWS = 2
/** What a prefilter searches. */
const TEXT = `title || ' ' || text`
/**
 * Candidate rows kept per corpus version, all sets together (four of the largest, READ_MAX_ROWS): the
 * lanes of one request share one read, and whole answers are cached anyway.
 */
const MEMO_ROWS = 8_000
/**
 * Rows read per candidate set: a larger set (a year of a whole category is ~40,000 rows) is read as an
 * evenly drawn sample (corpus-draw.ts), each row standing for the rows it was drawn from; the counts it
 * gives stay within a few percent of reading every row (test/intelligence/corpus-draw.test.ts).
 */
export const READ_MAX_ROWS = 2_000

interface Row {
  id: string
  published_at: string
  platform: string
  retrieval: string
  source_kind: string
  language: string
  author: string
  author_followers: number
  author_city: string
  title: string
  text: string
  likes: number
  comments: number
  shares: number
  views: number
}

const COLUMN_NAMES = [
  'id',
  'published_at',
  'platform',
  'retrieval',
  'source_kind',
  'language',
  'author',
  'author_followers',
  'author_city',
  'title',
  'text',
  'likes',
  'comments',
  'shares',
  'views',
]
/** Each row as one JSON object (DuckDb.jsonRows): `extra` columns after the item's own. */
const asJson = (...extra: string[]) => `to_json(struct_pack(${[...COLUMN_NAMES, ...extra].map((c) => `${c} := ${c}`).join(', ')}))::VARCHAR`

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
    // A sampled row stands for more than itself (EvidenceItem.weight); 1 is no weight.
    ...(row.weight !== undefined && row.weight !== 1 ? { weight: row.weight } : {}),
  }
}

const reEscape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * SQL condition of a prefilter, with its parameters from `$first` on: one case-insensitive RE2 pass over
 * title and text, all names in one alternation (60 strpos calls cost five times that); free-text terms
 * each must match. No lower-cased copy of the text is kept: it cost ~45 MB of the corpus table for ~3 ms.
 */
export function prefilterCondition(prefilter: Matcher['prefilter'], first: number): { sql: string; params: string[] } {
  const any = 'anyOf' in prefilter
  const used = (any ? prefilter.anyOf : prefilter.allOf).slice(0, MAX_NAMES)
  const patterns = any ? (used.length ? [`(?i)${used.map(reEscape).join('|')}`] : []) : used.map((t) => `(?i)${reEscape(t)}`)
  const sql = patterns.length ? `(${patterns.map((_, i) => `regexp_matches(${TEXT}, $${first + i})`).join(' AND ')})` : 'FALSE'
  return prefilter.author
    ? { sql: `(${sql} OR author = $${first + patterns.length})`, params: [...patterns, prefilter.author] }
    : { sql, params: patterns }
}

type CorpusRow = Row & { about_platform: string; rowid: number; weight?: number }

/**
 * Candidate rows of a prefilter in a window, every platform and retrieval at once: the six lane steps
 * of a request filter one scan. Bounded memo (the corpus never changes under a version).
 */
export class CorpusSearch {
  constructor(
    private readonly db: DuckDb,
    private readonly table: string,
    /** The names entity prefilters list (relevance.ts prefilterNames), per entity index version: what rows are indexed by. */
    private readonly knownNames?: () => { version: string; names: readonly string[] },
    /** Rows read per candidate set (READ_MAX_ROWS; Infinity reads every candidate). */
    private readonly readMax = READ_MAX_ROWS,
    /**
     * Whether a creator's posts carry their weight (corpus-table.ts CorpusKept.creators): only where each
     * creator's weeks are strata is a post's weight about its creator's posts; else a creator's posts
     * count as read, never more than they are.
     */
    private readonly creatorWeights = true,
  ) {}

  /** Row ids per known name (name-postings.ts), built on first use per entity version. */
  private postings: { version: string; rows: Promise<Map<string, Int32Array>> } | undefined

  /** The name index of the entity version in use, built on first use (`prepare` builds it ahead of requests). */
  private postingsNow(): Promise<Map<string, Int32Array>> | null {
    const known = this.knownNames?.()
    if (!known) return null
    if (this.postings?.version !== known.version) {
      const rows = buildNamePostings(this.db, this.table, known.names)
      rows.catch(() => (this.postings = undefined))
      this.postings = { version: known.version, rows }
    }
    return this.postings.rows
  }

  /** Builds the name index and the row facts now (after start-up), so that no request waits for them. */
  async prepare(): Promise<void> {
    await Promise.all([this.postingsNow(), this.factsNow()])
  }

  private facts: Promise<RowFacts> | undefined

  /** Every row's time and group, read once (the table never changes under a corpus version). */
  private factsNow(): Promise<RowFacts> {
    if (!this.facts) {
      this.facts = readRowFacts(this.db, this.table)
      this.facts.catch(() => (this.facts = undefined))
    }
    return this.facts
  }

  /** The rows containing any of `names`, when every one is indexed; else null (a regular-expression scan finds them). */
  private async rowsNaming(names: readonly string[]): Promise<Int32Array | null> {
    const pending = names.length ? this.postingsNow() : null
    // A failed build leaves the scan of the texts to find them.
    const postings = pending && (await pending.catch(() => null))
    if (!postings) return null
    const lists = names.map((name) => postings.get(name))
    if (lists.some((list) => list === undefined)) return null
    return union(lists as Int32Array[])
  }

  /**
   * Every creator post of a window (the KOL population, read once per window: the sample's window never
   * moves) and the ids of those that pass a prefilter (only they are checked for relevance).
   */
  async creatorPosts(
    from: Date,
    to: Date,
    prefilter: Matcher['prefilter'],
  ): Promise<{ posts: (EvidenceItem & { category: string })[]; candidates: ReadonlySet<string> }> {
    const key = `${iso(from)}|${iso(to)}`
    let posts = this.posts.get(key)
    if (!posts) {
      posts = nativePosts(this.db, this.table, from, to, this.creatorWeights)
      posts.catch(() => this.posts.delete(key))
      this.posts.set(key, posts)
      if (this.posts.size > POST_WINDOWS) this.posts.delete(this.posts.keys().next().value as string)
    }
    const [all, ids] = await Promise.all([posts, this.nativeIds(prefilter, from, to)])
    return { posts: all, candidates: ids }
  }

  /** The ids of the creator posts that pass a prefilter: every one (a KOL ranking reads them all). */
  private async nativeIds(prefilter: Matcher['prefilter'], from: Date, to: Date): Promise<ReadonlySet<string>> {
    const [facts, candidates] = await Promise.all([this.factsNow(), this.candidateRows(prefilter, from, to)])
    const native = facts.groups.map((g) => g.split('|')[1] === 'native')
    const rows = draw(facts, candidates, { from, to }, Infinity).rows.filter((row) => native[facts.group[row]!])
    if (!rows.length) return new Set()
    const ids = await this.db.all<{ id: string }>(`SELECT id FROM ${this.table} WHERE ${ROWID_IN(1)}`, [rowidList(rows)])
    return new Set(ids.map((r) => r.id))
  }

  private readonly posts = new Map<string, Promise<(EvidenceItem & { category: string })[]>>()

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
   * The rowids (ascending) of a prefilter's candidates, at least those in [from, to): an entity's from the
   * name index, free text (and names not indexed) by a scan of the texts in the window.
   */
  private async candidateRows(prefilter: Matcher['prefilter'], from: Date, to: Date): Promise<Int32Array> {
    const rowsWhere = async (cond: string, params: DuckDBValue[]) => {
      const rows = await this.db.all<{ r: number }>(
        `SELECT rowid::INTEGER AS r FROM ${this.table} WHERE published_at >= $1 AND published_at < $2 AND ${cond} ORDER BY rowid`,
        [iso(from), iso(to), ...params],
      )
      return Int32Array.from(rows, (row) => row.r)
    }
    const named = 'anyOf' in prefilter ? await this.rowsNaming(prefilter.anyOf.slice(0, MAX_NAMES)) : null
    if (named) return prefilter.author ? union([named, await rowsWhere('author = $3', [prefilter.author])]) : named
    const cond = prefilterCondition(prefilter, 3)
    return rowsWhere(cond.sql, cond.params)
  }

  /** The rows drawn from a prefilter's candidates (every one up to `readMax`), each with its weight when it stands for more than itself. */
  private async search(prefilter: Matcher['prefilter'], from: Date, to: Date, split?: Date): Promise<CorpusRow[]> {
    const [facts, candidates] = await Promise.all([this.factsNow(), this.candidateRows(prefilter, from, to)])
    const drawn = draw(facts, candidates, { from, to, ...(split ? { split } : {}) }, this.readMax)
    if (!drawn.rows.length) return []
    const weights = new Map<number, number>()
    drawn.rows.forEach((row, i) => weights.set(row, drawn.weights[i]!))
    const rows = await this.db.jsonRows<CorpusRow>(
      `SELECT ${asJson('about_platform', 'rowid')} FROM ${this.table} WHERE ${ROWID_IN(1)} ORDER BY published_at, id`,
      [rowidList(drawn.rows)],
    )
    for (const row of rows) {
      const weight = weights.get(row.rowid)!
      if (weight !== 1) row.weight = weight
    }
    return rows
  }
}

export class CorpusProvider implements EvidenceProvider {
  readonly name = 'sample-corpus'
  /** Local DuckDB over a small Parquet file: answers in milliseconds; the bound only guards a stuck pool. */
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

/** Creators' own posts (native items) of every platform in a window: the population the KOL route scores. */
async function nativePosts(
  db: DuckDb,
  table: string,
  from: Date,
  to: Date,
  weighted: boolean,
): Promise<(EvidenceItem & { category: string })[]> {
  const rows = await db.jsonRows<Row & { category: string; weight?: number }>(
    `SELECT ${weighted ? asJson('category', 'weight') : asJson('category')} FROM ${table} WHERE published_at >= $1 AND published_at < $2 AND retrieval = 'native' ORDER BY published_at, id`,
    [iso(from), iso(to)],
  )
  const posts: (EvidenceItem & { category: string })[] = []
  // A sampled corpus's post stands for the posts it was drawn from (corpus-table.ts).
  await eachSliced(rows, (r) => posts.push({ ...toItem(r, 'sample-corpus'), category: r.category }))
  return posts
}
