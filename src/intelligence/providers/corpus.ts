/**
 * The embedded default: the sample evidence corpus (evidence.parquet) read through DuckDB. As a native
 * provider it returns a platform's first-party items; as a web provider, open-web coverage about that
 * platform or about no platform in particular. Matching is on title and text (hashtags included):
 * every search term must occur, case-insensitively.
 */
import type { LoadedDataset } from '../../data/datasets'
import type { DuckDb } from '../../data/duckdb'
import type { EvidenceItem, EvidenceProvider, EvidenceQuery, Platform, SourceKind } from '../evidence'

/** Bound on the terms of one query (keywords are at most 100 characters anyway). */
const MAX_TERMS = 8

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

const COLUMNS = 'id, published_at, platform, retrieval, source_kind, language, author, author_followers, author_city, title, text, likes, comments, shares, views'

export const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

export function toItem(r: Row, provider: string): EvidenceItem {
  const web = r.platform === 'web'
  return {
    id: r.id,
    url: null,
    platform: r.platform as Platform | 'web',
    retrieval: r.retrieval === 'native' ? 'native' : 'proxy',
    sourceKind: r.source_kind as SourceKind,
    author: r.author || null,
    authorFollowers: web || !r.author_followers ? null : r.author_followers,
    authorCity: r.author_city || null,
    publishedAt: new Date(r.published_at),
    title: r.title,
    text: r.text,
    language: r.language === 'en' ? 'en' : 'zh',
    // Web pages in the corpus report no engagement.
    engagement: web ? null : { likes: r.likes, comments: r.comments, shares: r.shares, views: r.views || null },
    provider,
  }
}

/** SQL condition that every term occurs in title or text, with its parameters from `$first` on. */
export function termsCondition(terms: readonly string[], first: number): { sql: string; params: string[] } {
  const used = terms.slice(0, MAX_TERMS)
  return {
    sql: used.map((_, i) => `strpos(haystack, $${first + i}) > 0`).join(' AND ') || 'TRUE',
    params: [...used],
  }
}

/**
 * The corpus as an in-memory table with its lower-cased title and text (`haystack`), built once per
 * corpus version: lower-casing every text on every query cost three times the search itself.
 */
export async function searchTable(db: DuckDb, dataset: LoadedDataset): Promise<string> {
  const table = `${dataset.relation}_search`
  await db.exec(`CREATE OR REPLACE TABLE ${table} AS SELECT *, lower(title || ' ' || text) AS haystack FROM ${dataset.relation} ORDER BY published_at, id`)
  return table
}

export class CorpusProvider implements EvidenceProvider {
  readonly name = 'sample-corpus'
  /** Local DuckDB over a small Parquet file: answers in milliseconds; the bound only guards a stuck pool. */
  readonly timeoutMs = 10_000

  /** `table` is the corpus's searchTable(). */
  constructor(
    private readonly db: DuckDb,
    private readonly table: string,
    readonly role: 'native' | 'web',
  ) {}

  serves(): boolean {
    return true
  }

  async search(q: EvidenceQuery): Promise<EvidenceItem[]> {
    const where = this.role === 'native' ? `platform = $3 AND retrieval = 'native'` : `platform = 'web' AND about_platform IN ($3, '')`
    const terms = termsCondition(q.terms, 4)
    const rows = await this.db.all<Row>(
      `SELECT ${COLUMNS} FROM ${this.table}
        WHERE published_at >= $1 AND published_at < $2 AND ${where} AND ${terms.sql}
        ORDER BY published_at, id`,
      [iso(q.from), iso(q.to), q.platform, ...terms.params],
    )
    return rows.map((r) => toItem(r, this.name))
  }
}

/** Creators' own posts (native items) of every platform in a window: the population the KOL route scores. */
export async function nativePosts(db: DuckDb, dataset: LoadedDataset, from: Date, to: Date): Promise<(EvidenceItem & { category: string })[]> {
  const rows = await db.all<Row & { category: string }>(
    `SELECT ${COLUMNS}, category FROM ${dataset.relation}
      WHERE published_at >= $1 AND published_at < $2 AND retrieval = 'native' ORDER BY published_at, id`,
    [iso(from), iso(to)],
  )
  return rows.map((r) => ({ ...toItem(r, 'sample-corpus'), category: r.category }))
}
