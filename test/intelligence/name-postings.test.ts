/**
 * The corpus's rows indexed by the known names (name-postings.ts): an entity's candidates come from the
 * index instead of a scan of every text, and must hold every item the scan finds.
 */
import { describe, expect, test } from 'bun:test'
import { matcherFor } from '../../src/intelligence/relevance'
import { AhoCorasick } from '../../src/intelligence/providers/name-postings'
import { CorpusSearch } from '../../src/intelligence/providers/corpus'
import { openSampleCorpus, type SampleCorpus } from './support'

describe('AhoCorasick', () => {
  const found = (patterns: string[], text: string) => {
    const hits: string[] = []
    new AhoCorasick(patterns).scan(text, (i) => hits.push(patterns[i]!))
    return hits.sort()
  }

  test('finds every occurrence of every pattern, overlapping and nested ones too', () => {
    expect(found(['he', 'she', 'his', 'hers'], 'ushers')).toEqual(['he', 'hers', 'she'])
    expect(found(['露营', '营地', '露营地'], '周末去露营地')).toEqual(['营地', '露营', '露营地'])
    expect(found(['aa'], 'aaaa')).toEqual(['aa', 'aa', 'aa'])
    expect(found(['paris', 'celestine paris'], 'celestine paris in paris')).toEqual(['celestine paris', 'paris', 'paris'])
  })

  test('finds nothing in a text without the patterns, and nothing for no patterns', () => {
    expect(found(['skincare'], 'skin care routine')).toEqual([])
    expect(found([], 'anything')).toEqual([])
  })
})

describe('candidates of the sample corpus by name index', () => {
  let corpus: SampleCorpus
  openSampleCorpus((opened) => (corpus = opened))

  test('for entities of every kind over the whole corpus: the same relevant items as the scan of every text', async () => {
    const { db, table, index, knownNames } = corpus
    const indexed = new CorpusSearch(db, table, knownNames, Infinity)
    const scanned = new CorpusSearch(db, table, undefined, Infinity)
    const from = new Date('2025-01-01T00:00:00Z')
    const to = new Date('2027-01-01T00:00:00Z')
    // Every eighth entity (the scan costs ~60 ms an entity): a hundred, of every kind.
    const entities = index.entities.filter((_, i) => i % 8 === 0)
    expect(new Set(entities.map((e) => e.kind)).size).toBeGreaterThanOrEqual(6)
    let compared = 0
    for (const entity of entities) {
      const match = matcherFor({ kind: 'entity', entity, via: entity.name }, index)
      const [a, b] = await Promise.all([indexed.candidates(match.prefilter, from, to), scanned.candidates(match.prefilter, from, to)])
      const relevant = (rows: typeof a) => rows.filter((r) => match.relevance(r) > 0).map((r) => r.id)
      expect([entity.id, relevant(a)]).toEqual([entity.id, relevant(b)])
      compared += b.length
    }
    expect(compared).toBeGreaterThan(10_000)
  }, 60_000)
})
