/**
 * The evidence corpus's search index, read (corpus-index-build.ts writes it): a SQLite file on disk,
 * opened read-only. What the process holds of it does not grow with the corpus: each group's first row
 * of each day (a few thousand numbers) and SQLite's page cache; the posts and their terms stay on disk
 * (the system's file cache keeps what is read often).
 */
import { Database, type Statement } from 'bun:sqlite'
import { INDEX_FORMAT, POST_COLUMNS, type PostRow } from './corpus-index-build'
import type { Lookup } from './corpus-terms'

/** SQLite's page cache per connection, in KiB: the index's inner pages of the terms and posts searched most. */
const CACHE_KIB = 32_768

/** A range of rowids [from, to) of one platform group. */
export interface RowRange {
  group: number
  from: number
  to: number
}

export interface Group {
  /** `platform|retrieval|about_platform` */
  name: string
  first: number
  rows: number
  /** Each day (ms, UTC midnight) on which the group has posts, and the rowid of its first post that day. */
  days: Float64Array
  firsts: Int32Array
}

/** An FTS5 query of `terms` matching any of the lookups: phrases in double quotes (terms hold no quote). */
export const matchOf = (lookups: readonly Lookup[]): string =>
  lookups.map((l) => l.anyOf.map((alt) => `(${alt.map((phrase) => `"${phrase.join(' ')}"`).join(' AND ')})`).join(' OR ')).join(' OR ')

/** What one FTS5 table is asked: `terms` (the texts' terms: phrases) or `named` (the known names' tokens). */
export interface Query {
  table: 'terms' | 'named'
  match: string
}

/** A known entity in `entity_rows`: its number, and how many posts it holds. */
export interface EntityPosts {
  entity: number
  posts: number
}

export class CorpusIndexFile {
  readonly groups: Group[]
  readonly posts: number
  /** First and last publication time. */
  readonly first: Date
  readonly last: Date
  /** Each known name the index holds (normalised) and its token in `named`. */
  private readonly tokens: Map<string, string>
  /** Each known entity's prefilter key (corpus-vocabulary.ts) and its number and posts in `entity_rows`. */
  private readonly entities: Map<string, EntityPosts>
  /** The fingerprint of the names and hiders it was built knowing (corpus-vocabulary.ts). */
  readonly vocabulary: string
  private readonly statements = new Map<string, Statement>()

  private constructor(
    private readonly db: Database,
    readonly path: string,
  ) {
    const meta = Object.fromEntries(
      db
        .query<{ key: string; value: string }, []>('SELECT key, value FROM meta')
        .all()
        .map((m) => [m.key, m.value]),
    )
    this.posts = Number(meta.posts)
    const days = db.query<{ grp: number; day: number; first: number }, []>('SELECT grp, day, first FROM days ORDER BY grp, day').all()
    this.groups = db
      .query<{ grp: number; name: string; first: number; rows: number }, []>('SELECT grp, name, first, rows FROM groups ORDER BY grp')
      .all()
      .map((group) => {
        const own = days.filter((d) => d.grp === group.grp)
        return {
          name: group.name,
          first: group.first,
          rows: group.rows,
          days: Float64Array.from(own, (d) => d.day),
          firsts: Int32Array.from(own, (d) => d.first),
        }
      })
    this.first = new Date(Number(meta.first_at))
    this.last = new Date(Number(meta.last_at))
    this.tokens = new Map(
      db
        .query<{ name: string; token: string }, []>('SELECT name, token FROM names')
        .all()
        .map((n) => [n.name, n.token]),
    )
    this.entities = new Map(
      db
        .query<{ entity: number; key: string; posts: number }, []>('SELECT entity, key, posts FROM entities')
        .all()
        .map((row) => [row.key, { entity: row.entity, posts: row.posts }]),
    )
    this.vocabulary = meta.vocabulary ?? ''
  }

  /** A known entity's number and posts in `entity_rows`, by its prefilter key. */
  entityOf(key: string): EntityPosts | undefined {
    return this.entities.get(key)
  }

  /** How many of an entity's posts come before rowid `rowid` (its first post at or after it): a binary search by lookups. */
  ordinalAt(entity: EntityPosts, rowid: number): number {
    const post = this.query('SELECT post FROM entity_rows WHERE entity = ? AND n = ?')
    let [lo, hi] = [0, entity.posts]
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((post.get(entity.entity, mid) as { post: number }).post < rowid) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The rowids of an entity's posts numbered `from` to `to` (exclusive), every `step`th from `from` on. */
  entityRows(entity: EntityPosts, from: number, to: number, step: number): Int32Array {
    if (step === 1) {
      const rows = this.query('SELECT post FROM entity_rows WHERE entity = ? AND n >= ? AND n < ? ORDER BY n').values(
        entity.entity,
        from,
        to,
      )
      return Int32Array.from(rows, (row) => row[0] as number)
    }
    const wanted = Array.from({ length: Math.ceil((to - from) / step) }, (_, k) => from + k * step)
    const sql = 'SELECT post FROM entity_rows WHERE entity = ? AND n IN (SELECT value FROM json_each(?)) ORDER BY n'
    return Int32Array.from(this.query(sql).values(entity.entity, JSON.stringify(wanted)), (row) => row[0] as number)
  }

  /** The token of a known name (normalised) in `named`, when the index was built knowing it. */
  tokenOf(name: string): string | undefined {
    return this.tokens.get(name)
  }

  /** Opens an index read-only; throws when it is not an index of this format or of that corpus. */
  static open(path: string, sha256?: string): CorpusIndexFile {
    const db = new Database(path, { readonly: true })
    try {
      db.exec(`PRAGMA cache_size = -${CACHE_KIB}`)
      const meta = db.query<{ value: string }, [string]>('SELECT value FROM meta WHERE key = ?')
      const format = meta.get('format')?.value
      if (format !== String(INDEX_FORMAT)) throw new Error(`${path} is an index of format ${format ?? 'unknown'}, not ${INDEX_FORMAT}`)
      if (sha256 && meta.get('source_sha256')?.value !== sha256) throw new Error(`${path} indexes another corpus version`)
      return new CorpusIndexFile(db, path)
    } catch (error) {
      db.close()
      throw error
    }
  }

  close(): void {
    for (const statement of this.statements.values()) statement.finalize()
    this.db.close()
  }

  private query(sql: string): Statement {
    let statement = this.statements.get(sql)
    if (!statement) this.statements.set(sql, (statement = this.db.query(sql)))
    return statement
  }

  /** The first rowid of a group at or after time `time` (ms): its day from `days`, then the time within it. */
  rowAt(group: number, time: number): number {
    const own = this.groups[group]!
    const dayStart = Math.floor(time / 86_400_000) * 86_400_000
    let lo = 0
    let hi = own.days.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (own.days[mid]! < dayStart) lo = mid + 1
      else hi = mid
    }
    const end = own.first + own.rows
    if (lo === own.days.length) return end
    const first = own.firsts[lo]!
    if (own.days[lo]! > dayStart || time === dayStart) return first
    // Within the day: the first post at or after `time`, by its time (a few lookups).
    let [a, b] = [first, lo + 1 < own.days.length ? own.firsts[lo + 1]! : end]
    const at = this.query('SELECT at FROM posts WHERE rowid = ?')
    while (a < b) {
      const mid = (a + b) >> 1
      if ((at.get(mid) as { at: number }).at < time) a = mid + 1
      else b = mid
    }
    return a
  }

  /** Each group's rows in [from, to), the empty ones left out. */
  ranges(from: Date, to: Date): RowRange[] {
    return this.groups
      .map((_, group) => ({ group, from: this.rowAt(group, from.getTime()), to: this.rowAt(group, to.getTime()) }))
      .filter((r) => r.to > r.from)
  }

  /** The rowids (ascending) in a range that match an FTS5 query. */
  matching({ table, match }: Query, range: RowRange): Int32Array {
    const sql = `SELECT rowid FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid < ? ORDER BY rowid`
    return Int32Array.from(this.query(sql).values(match, range.from, range.to), (row) => row[0] as number)
  }

  /** How many rows of a range match an FTS5 query (counted in SQLite: no rowid crosses into JavaScript). */
  count({ table, match }: Query, range: RowRange): number {
    const sql = `SELECT count(*) AS n FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid < ?`
    return (this.query(sql).get(match, range.from, range.to) as { n: number }).n
  }

  /**
   * Of the rows of a range that match, every `step`th in rowid order (corpus-draw.ts), counting on from
   * `before` rows of the same set (its earlier slices): the rows whose place in the set is a multiple of `step`.
   */
  every({ table, match }: Query, range: RowRange, step: number, before: number): Int32Array {
    const numbered = `SELECT rowid AS r, row_number() OVER (ORDER BY rowid) - 1 AS n FROM ${table} WHERE ${table} MATCH ? AND rowid >= ? AND rowid < ?`
    const sql = `SELECT r FROM (${numbered}) WHERE (n + ?) % ? = 0 ORDER BY r`
    return Int32Array.from(this.query(sql).values(match, range.from, range.to, before, step), (row) => row[0] as number)
  }

  /** The rowids (ascending) in a range of the native posts by `author` (on any platform). */
  byAuthor(author: string, range: RowRange): Int32Array {
    const rows = this.query(
      'SELECT n.rowid FROM native n WHERE n.creator IN (SELECT creator FROM creators WHERE author = ?) AND n.rowid >= ? AND n.rowid < ? ORDER BY n.rowid',
    ).values(author, range.from, range.to)
    return Int32Array.from(rows, (row) => row[0] as number)
  }

  /** The rowids (ascending) in a range whose title and text pass `keep` (a scan: what the terms cannot find). */
  scan(range: RowRange, keep: (text: string) => boolean): Int32Array {
    const out: number[] = []
    for (const row of this.query('SELECT rowid AS r, title, text FROM posts WHERE rowid >= ? AND rowid < ?').iterate(
      range.from,
      range.to,
    ) as IterableIterator<{
      r: number
      title: string
      text: string
    }>)
      if (keep(`${row.title} ${row.text}`)) out.push(row.r)
    return Int32Array.from(out)
  }

  /** Each native post of a range: its rowid and its creator's number. */
  native(range: RowRange): { rows: Int32Array; creators: Int32Array } {
    const found = this.query('SELECT rowid, creator FROM native WHERE rowid >= ? AND rowid < ? ORDER BY rowid').values(range.from, range.to)
    return { rows: Int32Array.from(found, (r) => r[0] as number), creators: Int32Array.from(found, (r) => r[1] as number) }
  }

  /** The posts of `rows`, with their rowid, in publication order. */
  read(rows: ArrayLike<number>): (PostRow & { rowid: number })[] {
    if (!rows.length) return []
    return this.query(
      `SELECT rowid, ${POST_COLUMNS.join(', ')} FROM posts WHERE rowid IN (SELECT value FROM json_each(?)) ORDER BY at, id`,
    ).all(`[${Array.prototype.join.call(rows, ',')}]`) as (PostRow & { rowid: number })[]
  }
}
