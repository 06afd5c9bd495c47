/**
 * Which corpus rows contain each known name: built once per corpus and entity version by one pass over
 * the corpus's texts (Aho-Corasick: every occurrence of every name, overlapping ones too), so that the
 * candidates of an entity are a list of row ids instead of a regular-expression scan of every text. The
 * texts are matched as relevance reads them (NFKC, lower case, white space collapsed: relevance.ts), so
 * an item relevance would keep is always among the candidates.
 */
import type { DuckDb } from '../../data/duckdb'
import { normalizeText } from '../relevance'
import { eachSliced } from '../turns'

interface Node {
  next: Map<number, Node>
  fail: Node | null
  /** Patterns ending here, this node's own and those of its fail chain. */
  out: number[]
}

const node = (): Node => ({ next: new Map(), fail: null, out: [] })

/** A multi-pattern matcher: every occurrence of every pattern in one pass over a text. */
export class AhoCorasick {
  private readonly root = node()

  constructor(patterns: readonly string[]) {
    patterns.forEach((pattern, index) => {
      let at = this.root
      for (let i = 0; i < pattern.length; i++) {
        const code = pattern.charCodeAt(i)
        let to = at.next.get(code)
        if (!to) at.next.set(code, (to = node()))
        at = to
      }
      at.out.push(index)
    })
    // Breadth first: each node's fail link is the longest proper suffix that is also in the trie.
    const queue: Node[] = []
    for (const child of this.root.next.values()) {
      child.fail = this.root
      queue.push(child)
    }
    for (let k = 0; k < queue.length; k++) {
      const at = queue[k]!
      for (const [c, child] of at.next) {
        let fail = at.fail
        while (fail && !fail.next.has(c)) fail = fail.fail
        child.fail = fail ? fail.next.get(c)! : this.root
        child.out.push(...child.fail.out)
        queue.push(child)
      }
    }
  }

  /** Calls `found` with the index of each pattern occurring in `text` (once per occurrence). */
  scan(text: string, found: (pattern: number) => void): void {
    let at = this.root
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i)
      while (at !== this.root && !at.next.has(code)) at = at.fail!
      at = at.next.get(code) ?? this.root
      for (const pattern of at.out) found(pattern)
    }
  }
}

/** Rows read per query while building (each chunk's texts are matched, then dropped). */
const BUILD_CHUNK_ROWS = 16_384

/**
 * Row ids (the search table's rowid, ascending) of the rows whose title or text contains each name, for
 * every name of `names` (already normalised with normalizeText).
 */
export async function buildNamePostings(db: DuckDb, table: string, names: readonly string[]): Promise<Map<string, Int32Array>> {
  const patterns = [...new Set(names.filter((n) => n.length > 0))]
  const matcher = new AhoCorasick(patterns)
  const rows: number[][] = patterns.map(() => [])
  const lastRow = new Int32Array(patterns.length).fill(-1)
  const [{ n }] = (await db.all<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`)) as [{ n: number }]
  for (let from = 0; from < n; from += BUILD_CHUNK_ROWS) {
    const chunk = await db.all<{ r: number; t: string }>(
      `SELECT rowid::INTEGER AS r, title || ' ' || text AS t FROM ${table} WHERE rowid >= ${from} AND rowid < ${from + BUILD_CHUNK_ROWS}`,
    )
    await eachSliced(chunk, ({ r, t }) =>
      matcher.scan(normalizeText(t), (pattern) => {
        if (lastRow[pattern] === r) return
        lastRow[pattern] = r
        rows[pattern]!.push(r)
      }),
    )
  }
  return new Map(patterns.map((pattern, i) => [pattern, Int32Array.from(rows[i]!.sort((a, b) => a - b))]))
}
