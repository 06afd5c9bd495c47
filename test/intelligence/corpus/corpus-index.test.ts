/**
 * The corpus's search index (corpus-terms.ts, corpus-index.ts): the terms a text is indexed by, the
 * phrases a name or a free-text term is found by, and on the shipped corpus, that what the index finds
 * holds every item relevance keeps of a scan of every post.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDb } from '../../../src/data/duckdb'
import { buildCorpusIndex } from '../../../src/intelligence/corpus/corpus-index-build'
import { CorpusIndexFile } from '../../../src/intelligence/corpus/corpus-index'
import { CorpusSearch, CREATOR_READ_MAX } from '../../../src/intelligence/corpus/corpus'
import { phrasesOfName, phrasesOfTerm, termsOf } from '../../../src/intelligence/corpus/corpus-terms'
import { hidersOf, matcherFor, normalizeText, type Matcher } from '../../../src/intelligence/analysis/relevance'
import { DATASETS_DIR, Parquet } from '../../../support/parquet'
import { openSampleCorpus, type SampleCorpus } from '../../../support/china-evidence'

describe('terms of a text', () => {
  test('Latin words whole, lower case; Chinese as overlapping bigrams; a lone character itself', () => {
    expect(termsOf('Aurora Skin的极光肌面霜, so GOOD!')).toEqual(['aurora', 'skin', '的极', '极光', '光肌', '肌面', '面霜', 'so', 'good'])
    expect(termsOf('美 and 美妆')).toEqual(['美', 'and', '美妆'])
  })

  test('read as relevance reads it: full-width forms folded, digits and _ inside words, other scripts by bigrams', () => {
    expect(termsOf('ＡＵＲＯＲＡ ３Ｃ数码 mimi_travel_corner5')).toEqual(['aurora', '3c', '数码', 'mimi_travel_corner5'])
    expect(termsOf('東京タワー')).toEqual(['東京', 'タワ', 'ワー'])
  })
})

describe('phrases of a name or a term', () => {
  test('a Latin name: its words in a row, the last also with a plural', () => {
    expect(phrasesOfName('Aurora Skin')).toEqual({ anyOf: [[['aurora', 'skin']], [['aurora', 'skins']], [['aurora', 'skines']]] })
  })

  test('a Chinese name: the phrase of its bigrams; one standing alone only as a free-text term', () => {
    expect(phrasesOfName('极光肌')).toEqual({ anyOf: [[['极光', '光肌']]] })
    expect(phrasesOfName('美')).toBeNull()
    expect(phrasesOfTerm('美')).toEqual({ anyOf: [[['美']]] })
  })

  test('a mixed name: only the parts a text holding it must hold whole', () => {
    // openai电脑 holds AI电脑 as written: the word "ai" is not whole there.
    expect(phrasesOfName('AI电脑')).toEqual({ anyOf: [[['电脑']]] })
    // Between 早 and 晚, "c" is a whole word; between c and a, 晚 a whole run.
    expect(phrasesOfName('早C晚A')).toEqual({ anyOf: [[['c'], ['晚']]] })
    expect(phrasesOfName('!!')).toBeNull()
  })
})

describe('the index on the shipped corpus against a scan of every post', () => {
  let corpus: SampleCorpus
  let posts: { id: string; title: string; text: string; author: string; normalised: string }[]
  openSampleCorpus((opened) => (corpus = opened))
  beforeAll(async () => {
    const reader = await Parquet.open()
    posts = (
      await reader.rows<{ id: string; title: string; text: string; author: string }>('SELECT id, title, text, author FROM evidence')
    ).map((p) => ({ ...p, normalised: normalizeText(`${p.title} ${p.text}`) }))
    reader.close()
  })
  afterAll(() => (posts = []))

  const from = new Date('2025-01-01T00:00:00Z')
  const to = new Date('2027-01-01T00:00:00Z')
  /** Ids of the posts relevance keeps: of the index's candidates, and of every post. */
  const compare = async (match: Matcher) => {
    const found = await new CorpusSearch(corpus.file, Infinity).candidates(match.prefilter, from, to)
    const relevant = (rows: { id: string; title: string; text: string; author?: string | null }[]) =>
      rows
        .filter((r) => match.relevance(r) > 0)
        .map((r) => r.id)
        .sort()
    // An entity's posts hold one of its names as written (relevance reads no other), or are its creator's own.
    const { prefilter } = match
    const scanned =
      'anyOf' in prefilter
        ? posts.filter((p) => p.author === prefilter.author || prefilter.anyOf.some((n) => p.normalised.includes(n)))
        : posts
    return { index: relevant(found), scan: relevant(scanned) }
  }

  test('for entities of every kind (their names tokens of the index): the same relevant posts', async () => {
    // Every eighth entity: a hundred or so, of every kind.
    const entities = corpus.index.entities.filter((_, i) => i % 8 === 0)
    expect(new Set(entities.map((e) => e.kind)).size).toBeGreaterThanOrEqual(6)
    let compared = 0
    for (const entity of entities) {
      const { index, scan } = await compare(matcherFor({ kind: 'entity', entity, via: entity.name }, corpus.index))
      expect([entity.id, index.length, index]).toEqual([entity.id, scan.length, scan])
      compared += scan.length
    }
    expect(compared).toBeGreaterThan(10_000)
  }, 120_000)

  test('a set drawn in SQLite is the set drawn from every row: the first and every step-th, across slices', () => {
    const { file, index } = corpus
    const beauty = index.entities.find((e) => e.id === 'category:beauty')!
    const tokens = (matcherFor({ kind: 'entity', entity: beauty, via: beauty.name }, index).prefilter as { anyOf: string[] }).anyOf
    const query = { table: 'named' as const, match: tokens.flatMap((n) => file.tokenOf(n) ?? []).join(' OR ') }
    const [range] = file.ranges(from, to).filter((r) => file.count(query, r) > 1_000)
    const every = [...file.matching(query, range!)]
    const cut = { ...range!, to: range!.from + Math.floor((range!.to - range!.from) / 3) }
    const rest = { ...range!, from: cut.to }
    const before = file.count(query, cut)
    expect(before + file.count(query, rest)).toBe(every.length)
    const sliced = [...file.every(query, cut, 7, 0), ...file.every(query, rest, 7, before % 7)]
    expect(sliced).toEqual(every.filter((_, i) => i % 7 === 0))
  })

  test.each(['露营', '美', 'camping gear', 'AI电脑', 'タワー', '咖啡馆 攻略'])(
    'free text %p: the same relevant posts',
    async (text) => {
      const { index, scan } = await compare(matcherFor({ kind: 'free_text', text }, corpus.index))
      expect(index).toEqual(scan)
    },
    60_000,
  )
})

describe('names hidden inside longer names', () => {
  let corpus: SampleCorpus
  openSampleCorpus((opened) => (corpus = opened))

  test("a longer name of another category hides a name for every entity it can be asked in: relevance's rule", () => {
    const hiders = hidersOf(corpus.index)
    expect(hiders.get('paris')).toContain('celestine paris')
    expect(hiders.get('露营')).toContain('车载露营')
    // Within one category nothing hides: a category's own names never hide each other.
    expect(hiders.get('camping') ?? []).not.toContain('camping gear')
  })

  test('an index whose names relevance no longer reads as it was built (another signals version) is read by phrases, with the same posts', async () => {
    const from = new Date('2025-01-01T00:00:00Z')
    const to = new Date('2027-01-01T00:00:00Z')
    for (const id of ['destination:PAR', 'category:travel', 'brand:celestine-paris']) {
      const entity = corpus.index.entities.find((e) => e.id === id)!
      const match = matcherFor({ kind: 'entity', entity, via: entity.name }, corpus.index)
      const relevant = (rows: { id: string; title: string; text: string }[]) =>
        rows
          .filter((r) => match.relevance(r) > 0)
          .map((r) => r.id)
          .sort()
      const [known, stale] = await Promise.all([
        new CorpusSearch(corpus.file, Infinity).candidates(match.prefilter, from, to),
        new CorpusSearch(corpus.file, Infinity, CREATOR_READ_MAX, () => 'another version').candidates(match.prefilter, from, to),
      ])
      expect([id, relevant(stale)]).toEqual([id, relevant(known)])
      // Paris's own rows leave out the posts about Celestine Paris alone; the phrases find them, relevance drops them.
      if (id === 'destination:PAR') expect(stale.length).toBeGreaterThan(known.length)
    }
  }, 60_000)
})

describe('an index built without the names of an entity', () => {
  let corpus: SampleCorpus
  let dir: string
  let bare: CorpusIndexFile
  openSampleCorpus((opened) => (corpus = opened))
  beforeAll(async () => {
    // The shipped corpus's first 30,000 posts, indexed knowing no name: every entity is found by its phrases.
    dir = mkdtempSync(join(tmpdir(), 'bare-index-'))
    const db = await DuckDb.open(1)
    const file = join(dir, 'evidence.parquet')
    await db.exec(
      `COPY (SELECT * FROM read_parquet('${join(DATASETS_DIR, 'evidence.parquet')}') LIMIT 30000) TO '${file}' (FORMAT parquet)`,
    )
    await buildCorpusIndex(db, file, 'bare', join(dir, 'bare.sqlite'), { names: [], entities: [], fingerprint: 'none' })
    db.close()
    bare = CorpusIndexFile.open(join(dir, 'bare.sqlite'))
  }, 60_000)
  afterAll(() => {
    bare?.close()
    rmSync(dir, { recursive: true, force: true })
  })

  test('finds by the phrases of its names what an index knowing them finds by their tokens', async () => {
    const from = new Date('2025-01-01T00:00:00Z')
    const to = new Date('2027-01-01T00:00:00Z')
    // Up to the bare corpus's last post, excluded (posts of that very second may lie on either side of the cut).
    const last = bare.last
    let compared = 0
    for (const entity of corpus.index.entities.filter((_, i) => i % 16 === 0)) {
      const match = matcherFor({ kind: 'entity', entity, via: entity.name }, corpus.index)
      const relevant = (rows: { id: string; title: string; text: string; published_at: string }[]) =>
        rows
          .filter((r) => match.relevance(r) > 0 && Date.parse(r.published_at) < last.getTime())
          .map((r) => r.id)
          .sort()
      const [phrased, tokened] = await Promise.all([
        new CorpusSearch(bare, Infinity).candidates(match.prefilter, from, to),
        new CorpusSearch(corpus.file, Infinity).candidates(match.prefilter, from, last),
      ])
      expect([entity.id, relevant(phrased)]).toEqual([entity.id, relevant(tokened)])
      compared += relevant(phrased).length
    }
    expect(compared).toBeGreaterThan(1_000)
  }, 60_000)
})
