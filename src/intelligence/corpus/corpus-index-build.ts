/**
 * Builds the evidence corpus's search index (corpus-index.ts reads it): one SQLite file per corpus
 * version holding every post, an FTS5 index of their terms (corpus-terms.ts), the known names and
 * entities they hold (corpus-index-names.ts), and what windows and creators are read by. Built once per
 * version, by `data import` or at the first load, never again.
 *
 * The known names and entities are those of the weekly signals beside the corpus when it is built
 * (corpus-vocabulary.ts). An entity's posts are listed in order, so counting a window of a category of
 * millions of posts is two lookups, not a pass over a million; a name known only later (a new brand of
 * the weekly signals) is found by its phrase.
 *
 * Posts are numbered (their rowid) in the order of their platform group, then publication time, so a
 * window of one group is one range of rowids: `days` holds each group's first row of each day. The file
 * is read once in its own order, which the contract makes publication order (sortBy), each post placed
 * at its group's next number; a file out of that order is read again a month at a time, sorted (no sort
 * of the whole corpus is ever held). The terms are then indexed in rowid order (FTS5 flushes its buffer
 * whenever a rowid goes back).
 */
import { Database } from 'bun:sqlite'
import { renameSync, rmSync } from 'node:fs'
import { type DuckDb, sqlString } from '../../data'
import { turn } from '../turns'
import { NAMES_SCHEMA, NamesPass } from './corpus-index-names'
import { termsOf } from './corpus-terms'
import type { CorpusVocabulary } from './corpus-vocabulary'

/** The layout of the file: an index of another format is built again. */
export const INDEX_FORMAT = 3

/** A post as the index keeps it: the corpus file's columns but `month` (corpus-index.ts reads them back). */
export interface PostRow {
  id: string
  published_at: string
  platform: string
  retrieval: string
  about_platform: string
  source_kind: string
  category: string
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

export const POST_COLUMNS = [
  'id',
  'published_at',
  'platform',
  'retrieval',
  'about_platform',
  'source_kind',
  'category',
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
] as const satisfies readonly (keyof PostRow)[]

/** A post's platform group: what a window's counts are kept apart by. */
export const groupOf = (row: { platform: unknown; retrieval: unknown; about_platform: unknown }) =>
  `${row.platform}|${row.retrieval}|${row.about_platform}`
const GROUP_SQL = `platform || '|' || retrieval || '|' || about_platform`

const SCHEMA = `
  CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
  CREATE TABLE posts (at INTEGER, ${POST_COLUMNS.join(', ')});
  CREATE TABLE groups (grp INTEGER PRIMARY KEY, name TEXT, first INTEGER, rows INTEGER);
  CREATE TABLE days (grp INTEGER, day INTEGER, first INTEGER, PRIMARY KEY (grp, day)) WITHOUT ROWID;
  CREATE TABLE creators (creator INTEGER PRIMARY KEY, author TEXT, platform TEXT);
  CREATE TABLE native (creator INTEGER);
  CREATE VIRTUAL TABLE terms USING fts5(t, content='', columnsize=0, tokenize="ascii tokenchars '_'");
  ${NAMES_SCHEMA}`

const DAY_MS = 86_400_000
/** Posts indexed between two turns of the event loop (a build at first load shares the process). */
const BATCH = 2_000

export interface IndexBuilt {
  posts: number
  ms: number
}

/**
 * Writes the index of the Parquet `file` (sha256 `sha256`) to `target`: to a temporary file first,
 * renamed into place once whole, so a reader never opens half an index.
 */
export async function buildCorpusIndex(
  db: DuckDb,
  file: string,
  sha256: string,
  target: string,
  /** The known names and entities (corpus-vocabulary.ts). */
  vocabulary: CorpusVocabulary,
): Promise<IndexBuilt> {
  const started = performance.now()
  const temp = `${target}.${process.pid}.${crypto.randomUUID()}.tmp`
  const out = new Database(temp, { create: true })
  try {
    out.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -65536;')
    out.exec(SCHEMA)
    const read = `read_parquet(${sqlString(file)})`
    const groups = await db.all<{ g: string; n: number }>(
      `SELECT ${GROUP_SQL} AS g, count(*)::DOUBLE AS n FROM ${read} GROUP BY 1 ORDER BY 1`,
    )
    const first = new Map<string, number>()
    let at = 0
    for (const { g, n } of groups) [first.set(g, at), (at += n)]
    let posts = await writePosts(db, out, read, first, false)
    posts ??= (await writePosts(db, out, read, first, true))!
    const insertGroup = out.prepare('INSERT INTO groups VALUES (?, ?, ?, ?)')
    groups.forEach(({ g, n }, i) => insertGroup.run(i, g, first.get(g)!, n))
    await indexTexts(out, vocabulary, `${temp}.staging`)
    const meta = out.prepare('INSERT INTO meta VALUES (?, ?)')
    const span = out.query<{ first: number; last: number }, []>('SELECT min(at) AS first, max(at) AS last FROM posts').get()!
    const facts = {
      format: INDEX_FORMAT,
      source_sha256: sha256,
      posts,
      first_at: span.first,
      last_at: span.last,
      vocabulary: vocabulary.fingerprint,
    }
    for (const [key, value] of Object.entries(facts)) meta.run(key, String(value))
    out.close()
    renameSync(temp, target)
    return { posts, ms: performance.now() - started }
  } catch (error) {
    out.close()
    throw error
  } finally {
    rmSync(temp, { force: true })
    rmSync(`${temp}.staging`, { force: true })
  }
}

/**
 * Every post at its group's next number, the days' first rows, and each native post's creator. Read in
 * the file's order, null as soon as a group's posts go back in time; `sorted`: a month at a time, sorted.
 */
async function writePosts(db: DuckDb, out: Database, read: string, first: Map<string, number>, sorted: boolean): Promise<number | null> {
  const insert = out.prepare(
    `INSERT INTO posts (rowid, at, ${POST_COLUMNS.join(', ')}) VALUES (${['?', '?', ...POST_COLUMNS.map(() => '?')].join(', ')})`,
  )
  const native = out.prepare('INSERT INTO native (rowid, creator) VALUES (?, ?)')
  const groupIds = new Map([...first.keys()].map((g, i) => [g, i]))
  const next = new Map(first)
  const last = new Map<string, number>()
  const days = new Map<string, number>()
  const creators = new Map<string, number>()
  const json = `to_json(struct_pack(${POST_COLUMNS.map((c) => `${c} := ${c}`).join(', ')}))::VARCHAR`
  const queries: [string, string[]][] = sorted
    ? (await db.all<{ m: string }>(`SELECT DISTINCT month AS m FROM ${read} ORDER BY 1`)).map(({ m }) => [
        `SELECT ${json} FROM ${read} WHERE month = $1 ORDER BY published_at, id`,
        [m],
      ])
    : [[`SELECT ${json} FROM ${read}`, []]]
  let posts = 0
  let ordered = true
  out.exec('BEGIN')
  for (const [sql, params] of queries) {
    await db.eachJsonChunk<PostRow>(sql, params, async (rows) => {
      for (const row of rows) {
        if (!ordered) return
        const group = groupOf(row)
        const time = Date.parse(row.published_at)
        if (time < (last.get(group) ?? -Infinity)) return void (ordered = false)
        last.set(group, time)
        const rowid = next.get(group)!
        next.set(group, rowid + 1)
        const day = `${groupIds.get(group)}|${Math.floor(time / DAY_MS)}`
        if (!days.has(day)) days.set(day, rowid)
        insert.run(rowid, time, ...POST_COLUMNS.map((c) => row[c]))
        if (row.retrieval === 'native') {
          const key = `${row.author}|${row.platform}`
          let creator = creators.get(key)
          if (creator === undefined) creators.set(key, (creator = creators.size))
          native.run(rowid, creator)
        }
        posts++
      }
      await turn()
    })
  }
  if (!ordered) {
    out.exec('ROLLBACK')
    return null
  }
  const day = out.prepare('INSERT INTO days VALUES (?, ?, ?)')
  for (const [key, rowid] of days) {
    const [g, d] = key.split('|')
    day.run(Number(g), Number(d) * DAY_MS, rowid)
  }
  const creator = out.prepare('INSERT INTO creators VALUES (?, ?, ?)')
  for (const [key, id] of creators) {
    const cut = key.lastIndexOf('|')
    creator.run(id, key.slice(0, cut), key.slice(cut + 1))
  }
  out.exec('COMMIT; CREATE INDEX native_by_creator ON native (creator);')
  return posts
}

/** The terms, known names and entities of every post, in rowid order, then each FTS5 index merged into one segment (the fastest to search). */
async function indexTexts(out: Database, vocabulary: CorpusVocabulary, staging: string): Promise<void> {
  const insert = out.prepare('INSERT INTO terms (rowid, t) VALUES (?, ?)')
  const names = new NamesPass(out, vocabulary, staging)
  out.exec('PRAGMA staging.journal_mode = OFF; PRAGMA staging.synchronous = OFF;')
  const read = out.prepare<{ r: number; title: string; text: string; author: string }, [number, number]>(
    'SELECT rowid AS r, title, text, author FROM posts WHERE rowid >= ? ORDER BY rowid LIMIT ?',
  )
  out.exec('BEGIN')
  for (let from = 0; ; ) {
    const rows = read.all(from, BATCH)
    if (!rows.length) break
    for (const row of rows) {
      insert.run(row.r, termsOf(`${row.title} ${row.text}`).join(' '))
      names.add(row.r, row.title, row.text, row.author)
    }
    from = rows.at(-1)!.r + 1
    await turn()
  }
  names.finish()
  out.exec("COMMIT; INSERT INTO terms (terms) VALUES ('optimize'); INSERT INTO named (named) VALUES ('optimize');")
  names.detach()
}
