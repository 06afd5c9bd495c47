/**
 * The sample world as live vendors would hold it: the shipped evidence corpus, read with DuckDB directly
 * (not through the service), moved in time so that its last day is yesterday, handed to the local servers
 * that answer as SearXNG, Bocha and TikHub do (support/vendor-world.ts). Native posts go to
 * TikHub's platforms with their creators and counts; web pages to the web engines. The weekly data's
 * directions over the 30 days to 2026-11-16 then hold for the 30 days to today.
 */
import { resolve } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import type { Platform } from '../../../src/intelligence/evidence'
import type { Doc } from '../../../support/vendor-shapes'
import type { WorldDocs } from '../../../support/vendor-world'

const CORPUS = resolve(import.meta.dir, '../../../datasets/evidence.parquet')
/** The day after the corpus ends: where the sample answers' windows end. */
export const CORPUS_AS_OF = Date.parse('2026-11-16T00:00:00Z')
const DAY = 86_400_000

interface Row {
  id: string
  published_at: string
  platform: string
  retrieval: string
  author: string
  author_followers: number
  title: string
  text: string
  likes: number
  comments: number
  shares: number
  views: number
}

/** The corpus from `since` days before its end, moved so that CORPUS_AS_OF falls on `asOf` (midnight UTC of today). */
export async function corpusWorld(asOf: number, sinceDays = 200): Promise<WorldDocs> {
  const db = await DuckDBInstance.create(':memory:')
  const c = await db.connect()
  const reader = await c.runAndReadAll(
    `SELECT id, published_at, platform, retrieval, author, CAST(author_followers AS DOUBLE) AS author_followers, title, text,
            CAST(likes AS DOUBLE) AS likes, CAST(comments AS DOUBLE) AS comments, CAST(shares AS DOUBLE) AS shares, CAST(views AS DOUBLE) AS views
       FROM read_parquet('${CORPUS}') WHERE CAST(published_at AS TIMESTAMP) >= TIMESTAMP '2026-11-16' - INTERVAL ${sinceDays} DAY`,
  )
  const rows = reader.getRowObjectsJS() as unknown as Row[]
  c.closeSync()
  const shift = asOf - CORPUS_AS_OF
  const world: WorldDocs = { native: { xiaohongshu: [], douyin: [], wechat: [] }, web: [] }
  for (const r of rows) {
    const at = Date.parse(r.published_at) + shift
    if (r.platform === 'web') {
      world.web.push({ id: r.id, title: r.title, text: r.text, at, site: r.author || undefined })
      continue
    }
    if (r.retrieval !== 'native') continue
    const doc: Doc = {
      id: r.id,
      title: r.title,
      text: r.text,
      at,
      author: r.author,
      authorId: `id-${r.author}`,
      followers: r.author_followers || undefined,
      likes: r.likes,
      comments: r.comments,
      shares: r.shares,
      views: r.views || undefined,
    }
    world.native[r.platform as Platform].push(doc)
  }
  return world
}

export { DAY }
