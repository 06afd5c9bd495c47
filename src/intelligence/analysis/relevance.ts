/**
 * Relevance, not substrings: whether an evidence item is about what was asked, and how much.
 *
 * - Latin-script names match whole words, case-insensitively, with a plural (-s, -es, 's): `ski` is not
 *   in "skincare", `EV` not in "every", `car` not in "carry".
 * - Chinese names of known entities match as written; a free-text Chinese keyword must also start and
 *   end on word boundaries of Intl.Segmenter's segmentation (美 is not in 美妆).
 * - A longer known name of an entity of another category hides the shorter name inside it: a post about
 *   the brand Celestine Paris (luxury) is not about Paris, a "pet food" post not about food and drink.
 * - RELEVANCE.subject (1) when a name is in the title, a hashtag or the opening of the text (where a post
 *   names its subject); RELEVANCE.mention when it is only mentioned further on; 0: not evidence.
 */
import { RELEVANCE } from '../../catalog'
import type { Entity, EntityIndex, Resolved } from '../names/entities'
import { hashtags } from './text'

export interface Matcher {
  /**
   * Lower-cased strings for a cheap candidate search: an item is a candidate when it contains any of
   * `anyOf` (entities) or all of `allOf` (free text). Relevance then decides.
   */
  prefilter: ({ anyOf: string[] } | { allOf: string[] }) & { author?: string }
  /** The search names, as written (live providers get them in their queries). */
  names: readonly string[]
  relevance(item: { title: string; text: string; author?: string | null }): number
}

const HAN = /\p{Script=Han}/u
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const lower = (s: string) => s.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ')
/** Text as relevance reads it: NFKC, lower case, white space collapsed (the corpus index, corpus-terms.ts, reads texts so). */
export const normalizeText = lower

/** Whole-word pattern of a Latin name: spaces and hyphens interchangeable, plural allowed. */
function wordPattern(name: string): string {
  const body = lower(name)
    .trim()
    .split(/[\s-]+/)
    .map(escape)
    .join('[\\s-]+')
  // Only Latin letters, digits and _ glue a word: a Chinese character right before an English name is a boundary.
  return `(?<![\\p{Script=Latin}\\p{N}_])${body}(?:s|es|'s)?(?![\\p{Script=Latin}\\p{N}_])`
}

interface NameSet {
  latin: RegExp | null
  han: string[]
}

function nameSet(names: readonly string[]): NameSet {
  const latin = names.filter((n) => !HAN.test(n))
  return {
    latin: latin.length ? new RegExp(latin.map(wordPattern).join('|'), 'giu') : null,
    han: names.filter((n) => HAN.test(n)).map(lower),
  }
}

/** Offsets of the first occurrence of any name in `text`, or -1. */
function firstAt(text: string, set: NameSet): number {
  let at = -1
  if (set.latin) {
    set.latin.lastIndex = 0
    const match = set.latin.exec(text)
    if (match) at = match.index
  }
  for (const h of set.han) {
    const offset = text.indexOf(h)
    if (offset >= 0 && (at < 0 || offset < at)) at = offset
  }
  return at
}

/** Whole-word patterns of Latin names, compiled once: a matcher checks every known name against each of its names. */
const wordRegExps = new Map<string, RegExp>()
function wordRegExp(name: string): RegExp {
  let re = wordRegExps.get(name)
  if (!re) {
    if (wordRegExps.size >= 10_000) wordRegExps.clear() // names of earlier entity indexes would pile up across refreshes
    wordRegExps.set(name, (re = new RegExp(wordPattern(name), 'iu')))
  }
  return re
}

/** A name ready for `containsName`: its normalised form, and the literal text every match of it holds. */
interface OwnName {
  name: string
  han: boolean
  normalised: string
  /** Its first word: a whole-word match of a Latin name contains it (spaces and hyphens vary). */
  first: string
}
const ownName = (name: string): OwnName => {
  const normalised = lower(name).trim()
  return { name, han: HAN.test(name), normalised, first: normalised.split(/[\s-]+/)[0] ?? normalised }
}

/** Whether `longer` (normalised) contains the name: a whole word for a Latin name. */
const containsName = (longer: string, own: OwnName) =>
  own.han ? longer.includes(own.normalised) : longer.includes(own.first) && wordRegExp(own.name).test(longer)

const normalisedNames = new WeakMap<EntityIndex, { name: string; normalised: string; entity: Entity }[]>()

/** Known names of entities outside the asked entity's family that contain one of its names (see the module comment). */
function shadowsOf(asked: Entity, index: EntityIndex): string[] {
  const family = new Set([asked, ...asked.members])
  const owners = [asked, ...asked.members].map((owner) => ({ categories: owner.categories, names: owner.names.map(ownName) }))
  let known = normalisedNames.get(index)
  if (!known) normalisedNames.set(index, (known = index.knownNames.map((k) => ({ ...k, normalised: lower(k.name) }))))
  const out = new Set<string>()
  for (const { name: longer, normalised, entity } of known) {
    if (family.has(entity)) continue
    for (const owner of owners) {
      if (owner.categories.some((c) => entity.categories.includes(c))) continue
      if (owner.names.some((n) => longer.length > n.name.length && containsName(normalised, n))) out.add(longer)
    }
  }
  return [...out]
}

/** Removes every occurrence of the shadowing names, so the shorter names inside them are not found. */
function hide(text: string, shadows: NameSet): string {
  let out = text
  if (shadows.latin) out = out.replace(shadows.latin, (m) => ' '.repeat(m.length))
  for (const h of shadows.han) out = out.replaceAll(h, ' '.repeat(h.length))
  return out
}

function grade(title: string, text: string, found: (haystack: string) => number): number {
  if (found(title) >= 0) return RELEVANCE.subject
  const at = found(text)
  if (at < 0) return 0
  if (at < RELEVANCE.openingChars) return RELEVANCE.subject
  const tags = hashtags(text).join(' ')
  return found(tags) >= 0 ? RELEVANCE.subject : RELEVANCE.mention
}

function entityMatcher(entity: Entity, index: EntityIndex): Matcher {
  const names = [...new Set([...entity.names, ...entity.members.flatMap((m) => m.names)])]
  const set = nameSet(names)
  const shadowNames = shadowsOf(entity, index)
  const shadows = shadowNames.length ? nameSet(shadowNames) : null
  const prep = (s: string) => (shadows ? hide(lower(s), shadows) : lower(s))
  // A creator's own posts are about the creator, whether or not they name themselves.
  const author = entity.kind === 'creator' ? entity.name : undefined
  return {
    prefilter: { anyOf: [...new Set(names.map(lower))], ...(author ? { author } : {}) },
    names,
    relevance: (item) =>
      author && item.author === author ? RELEVANCE.subject : grade(prep(item.title), prep(item.text), (s) => firstAt(s, set)),
  }
}

const SEGMENTER = new Intl.Segmenter('zh', { granularity: 'word' })

/** First occurrence of a Chinese term that starts and ends on segment boundaries, or -1. */
function alignedAt(text: string, term: string): number {
  let from = text.indexOf(term)
  if (from < 0) return -1
  const bounds = new Set<number>()
  for (const s of SEGMENTER.segment(text)) bounds.add(s.index).add(s.index + s.segment.length)
  for (; from >= 0; from = text.indexOf(term, from + 1)) if (bounds.has(from) && bounds.has(from + term.length)) return from
  return -1
}

function freeTextMatcher(text: string): Matcher {
  const terms = [...new Set(lower(text).split(' ').filter(Boolean))]
  const finders = terms.map((term): ((haystack: string) => number) => {
    if (!HAN.test(term)) {
      const re = new RegExp(wordPattern(term), 'iu')
      return (s) => s.search(re)
    }
    // Mixed script (AI电脑): as written; one Chinese character: standing alone; more: on word boundaries.
    if (/[a-z0-9]/.test(term)) return (s) => s.indexOf(term)
    if ([...term].length === 1) {
      const alone = new RegExp(`(?<!\\p{Script=Han})${escape(term)}(?!\\p{Script=Han})`, 'u')
      return (s) => s.search(alone)
    }
    return (s) => alignedAt(s, term)
  })
  // Every term must occur; the item's grade is the weakest term's.
  return {
    prefilter: { allOf: terms },
    names: [text],
    relevance(item) {
      const [title, body] = [lower(item.title), lower(item.text)]
      if (finders.some((f) => f(`${title} ${body}`) < 0)) return 0
      return Math.min(...finders.map((f) => grade(title, body, f)))
    },
  }
}

/**
 * For every known name (normalised), the longer known names that hide it whichever entity is asked
 * (shadowsOf's rule, for every family a name can be asked in): names of an entity sharing no category
 * with any entity owning the name, and outside every family that holds an owner. The corpus index leaves
 * a name's occurrences inside them out (corpus-index-build.ts): relevance would hide them anyway.
 */
export function hidersOf(index: EntityIndex): Map<string, string[]> {
  const owners = new Map<string, Entity[]>()
  for (const entity of index.entities)
    for (const name of new Set(entity.names.map(lower))) owners.set(name, [...(owners.get(name) ?? []), entity])
  const parents = new Map<Entity, Entity[]>()
  for (const entity of index.entities) for (const member of entity.members) parents.set(member, [...(parents.get(member) ?? []), entity])
  // Every family an owner is asked in: its own, and those of the entities it is a member of.
  const families = new Map<Entity, Set<Entity>>()
  const familyOf = (owner: Entity) => {
    let family = families.get(owner)
    if (!family)
      families.set(owner, (family = new Set([owner, ...(parents.get(owner) ?? [])].flatMap((asked) => [asked, ...asked.members]))))
    return family
  }
  const known = index.knownNames.map((k) => ({ normalised: lower(k.name).trim(), entity: k.entity }))
  const out = new Map<string, string[]>()
  for (const [name, held] of owners) {
    const own = ownName(name)
    const hiders = known.filter(
      ({ normalised, entity }) =>
        normalised.length > name.length &&
        containsName(normalised, own) &&
        held.every((owner) => !familyOf(owner).has(entity) && !owner.categories.some((c) => entity.categories.includes(c))),
    )
    if (hiders.length) out.set(name, [...new Set(hiders.map((h) => h.normalised))])
  }
  return out
}

const names = new WeakMap<EntityIndex, readonly string[]>()

/** Every name an entity matcher's prefilter can list (`anyOf`), once per index: what the corpus indexes rows by. */
export function prefilterNames(index: EntityIndex): readonly string[] {
  let all = names.get(index)
  if (!all) names.set(index, (all = [...new Set(index.entities.flatMap((entity) => entity.names.map(lower)))]))
  return all
}

const cache = new WeakMap<Entity, Matcher>()

/** The matcher of a resolved keyword; an entity's is built once per index (entities are per signals version). */
export function matcherFor(resolved: Resolved, index: EntityIndex): Matcher {
  if (resolved.kind === 'free_text') return freeTextMatcher(resolved.text)
  let matcher = cache.get(resolved.entity)
  if (!matcher) cache.set(resolved.entity, (matcher = entityMatcher(resolved.entity, index)))
  return matcher
}
