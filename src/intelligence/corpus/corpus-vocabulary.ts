/**
 * What the corpus index is built knowing (corpus-index-build.ts): every known name with the longer names
 * that hide it (relevance.ts hidersOf), and every entity's prefilter, whose rows the index lists in order
 * so that a window's count and a draw from it are a few lookups. A fingerprint of the names and their
 * hiders says whether an index still reads as relevance does now: a weekly signals version that adds a
 * name (a brand called "… Paris") changes what hides what, and the index then finds names by phrases.
 */
import { createHash } from 'node:crypto'
import type { EntityIndex } from '../names/entities'
import { hidersOf, matcherFor, normalizeText, type Matcher } from '../analysis/relevance'

export interface CorpusVocabulary {
  /** Every known name, normalised, with the longer known names that hide it. */
  names: { name: string; hiders: string[] }[]
  /** Every entity's prefilter (relevance.ts): its key, its names, and for a creator the author whose posts are theirs. */
  entities: { key: string; names: string[]; author?: string }[]
  fingerprint: string
}

/** The key an entity's rows are listed under: its prefilter's names (sorted) and author. */
export function prefilterKey(prefilter: Matcher['prefilter']): string | null {
  if (!('anyOf' in prefilter)) return null
  return JSON.stringify([[...new Set(prefilter.anyOf)].sort(), prefilter.author ?? null])
}

const vocabularies = new WeakMap<EntityIndex, CorpusVocabulary>()

/** The vocabulary of an entity index, once per index (entities are per signals version). */
export function vocabularyOf(index: EntityIndex): CorpusVocabulary {
  let vocabulary = vocabularies.get(index)
  if (vocabulary) return vocabulary
  const hiders = hidersOf(index)
  const names = [...new Set(index.entities.flatMap((entity) => entity.names.map(normalizeText)))]
    .filter((name) => name.length > 0)
    .sort()
    .map((name) => ({ name, hiders: [...(hiders.get(name) ?? [])].sort() }))
  const entities = new Map<string, CorpusVocabulary['entities'][number]>()
  for (const entity of index.entities) {
    const { prefilter } = matcherFor({ kind: 'entity', entity, via: entity.name }, index)
    const key = prefilterKey(prefilter)
    if (key && 'anyOf' in prefilter)
      entities.set(key, { key, names: [...new Set(prefilter.anyOf)], ...(prefilter.author ? { author: prefilter.author } : {}) })
  }
  const fingerprint = createHash('sha256').update(JSON.stringify(names)).digest('hex').slice(0, 16)
  vocabularies.set(index, (vocabulary = { names, entities: [...entities.values()], fingerprint }))
  return vocabulary
}
