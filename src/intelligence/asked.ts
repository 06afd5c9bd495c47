/**
 * What a China intelligence request asks about: the keyword as written, what it resolved to, how
 * evidence is matched, and the key its answer is computed and cached under. Two keywords naming the same
 * entity (Tokyo, 东京, TYO) share the key, so they get the same answer; only the echoed input differs.
 */
import { resolvedField, type EntityIndex } from './entities'
import { matcherFor, type Matcher } from './relevance'

export interface Asked {
  /** As the buyer wrote it (echoed back). */
  input: string
  /** Display name of what was resolved, per answer language. */
  name: { en: string; zh: string }
  /** What live providers are asked for: the Chinese name when there is one. */
  query: string
  /** Lower-cased words of its own names (not its members'): they describe every item, so they are no theme. */
  ownTerms: readonly string[]
  match: Matcher
  /** Cache and computation key: the entity id, or the normalised free text. */
  key: string
  /** `data.resolved` of the answer. */
  resolved: ReturnType<typeof resolvedField>
}

const termsOf = (names: readonly string[]) =>
  [...new Set(names.flatMap((n) => {
    const l = n.normalize('NFKC').toLowerCase()
    return [l, ...l.split(/[\s-]+/), l.replace(/[\s-]+/g, '')]
  }))].filter(Boolean)

export function ask(index: EntityIndex, input: string): Asked {
  const r = index.resolve(input)
  const resolved = resolvedField(r)
  if (r.kind === 'free_text') {
    return { input, name: { en: r.text, zh: r.text }, query: r.text, ownTerms: termsOf([r.text]), match: matcherFor(r, index), key: `text:${r.text.toLowerCase()}`, resolved }
  }
  const e = r.entity
  return { input, name: { en: e.name, zh: e.nameZh ?? e.name }, query: e.searchZh ?? e.nameZh ?? e.name, ownTerms: termsOf(e.names), match: matcherFor(r, index), key: e.id, resolved }
}
