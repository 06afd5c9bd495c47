/**
 * What finds a prefilter's rows in the corpus index (corpus.ts searches with it): the FTS5 queries of the
 * known names' tokens and of the terms' phrases (corpus-terms.ts), and what only a scan of the texts finds.
 */
import { normalizeText, type Matcher } from '../analysis/relevance'
import { matchOf, type CorpusIndexFile, type Query, type RowRange } from './corpus-index'
import { phrasesOfName, phrasesOfTerm, type Lookup } from './corpus-terms'

/** Bound on the names of one candidate search (a category with all its members has about 60). */
const MAX_NAMES = 200

/** What finds a prefilter's rows: FTS5 queries (the known names' tokens, the terms' phrases), and what only a scan of the texts finds. */
export interface Finder {
  queries: Query[]
  /** Names or terms the index cannot find (corpus-terms.ts): rows holding any (`anyOf`) or all of them. */
  scan: { anyOf: string[] } | { allOf: string[] } | null
}

/** `known`: the index was built knowing the names as relevance knows them now (corpus-vocabulary.ts), so its name tokens hold. */
export function finderOf(prefilter: Matcher['prefilter'], index: CorpusIndexFile, known: boolean): Finder {
  if ('anyOf' in prefilter) {
    const names = prefilter.anyOf.slice(0, MAX_NAMES)
    // A name the index was built knowing is one token; any other, the phrase of its terms.
    const tokenOf = (name: string) => (known ? index.tokenOf(name) : undefined)
    const tokens = names.flatMap((name) => tokenOf(name) ?? [])
    const others = names.filter((name) => !tokenOf(name)).map((name) => ({ name, lookup: phrasesOfName(name) }))
    const phrases = others.flatMap((l) => (l.lookup ? [l.lookup] : []))
    const unfound = others.filter((l) => !l.lookup).map((l) => normalizeText(l.name))
    const queries: Query[] = [
      ...(tokens.length ? [{ table: 'named' as const, match: tokens.join(' OR ') }] : []),
      ...(phrases.length ? [{ table: 'terms' as const, match: matchOf(phrases) }] : []),
    ]
    return { queries, scan: unfound.length ? { anyOf: unfound } : null }
  }
  const terms = prefilter.allOf.slice(0, MAX_NAMES)
  const lookups = terms.map(phrasesOfTerm)
  // Every term must occur: one the index cannot find makes the whole a scan.
  if (!terms.length) return { queries: [], scan: null }
  if (lookups.some((l) => l === null)) return { queries: [], scan: { allOf: terms.map(normalizeText) } }
  return { queries: [{ table: 'terms', match: lookups.map((l) => `(${matchOf([l as Lookup])})`).join(' AND ') }], scan: null }
}

/** Slices of a range searched one per query (other requests take their turn between two). */
export function* slices(range: RowRange, size: number): Generator<RowRange> {
  for (let from = range.from; from < range.to; from += size) yield { ...range, from, to: Math.min(range.to, from + size) }
}
