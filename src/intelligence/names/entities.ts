/**
 * One entity resolver for every route family. A keyword resolves to an entity — a weekly signals
 * category, a topic, brand or creator of the loaded signals, a destination or country, or a glossary
 * term — with all its names (English, Chinese, codes, slugs, synonyms). The evidence search uses all
 * of them, so the same entity asked in English, Chinese or by code gets the same evidence and the same
 * answer. A keyword that names nothing known is free text. See relevance.ts for how names match.
 *
 * A category's evidence also counts posts about its members (its topics, brands and glossary terms);
 * a country's, posts about its destinations.
 */
import { type ENTITY_KINDS, SIGNAL_CATEGORIES, type SignalCategory } from '../../catalog'
import { CATEGORY_SYNONYMS, COUNTRIES, COUNTRY_ALIASES, DESTINATION_ALIASES, DESTINATIONS, TERMS } from '../../data'
import { NearNames, nearestFirst, type NearName as NearNameOf } from './near-names'
import { isCode, joinedKey, looksLikeCode, nameKey, WHO_WORDS, withoutIntent } from './names'

/** A known name a free-text keyword is close to (near-names.ts). */
export type NearName = NearNameOf<Entity>

export type EntityKind = (typeof ENTITY_KINDS)[number]

export interface Entity {
  /** `<kind>:<slug or code>`, stable across languages: the key of answers and caches. */
  id: string
  kind: EntityKind
  /** Display names. */
  name: string
  nameZh: string | null
  /** What live providers are asked for when it differs from the display name: the word people write (a category's first Chinese synonym). */
  searchZh?: string
  /** Weekly signals categories it belongs to (destinations: travel; countries: none). */
  categories: readonly string[]
  /** Names searched for in evidence text, as written. */
  names: readonly string[]
  /** Entities whose posts are also about this one (a category's topics, a country's destinations). */
  members: readonly Entity[]
}

/** Entities of the loaded weekly signals. */
export interface SignalEntities {
  topics: readonly { slug: string; name: string; nameZh: string; category: string }[]
  brands: readonly { slug: string; name: string; nameZh: string; categories: readonly string[] }[]
  creators: readonly { handle: string; name: string; category: string }[]
}

/**
 * What a keyword resolved to: an entity (with the name it matched, the intent words taken off it, and
 * the input it was corrected from when it was a near miss), or free text (with the known names it is
 * near: mistyped, or inside it).
 */
export type Resolved =
  | { kind: 'entity'; entity: Entity; via: string; stripped?: string[]; correctedFrom?: string }
  | { kind: 'free_text'; text: string; near?: NearName[] }

/** Which entity keeps a name two entities share (Singapore is a city and a country): the first kind here. */
export const PRECEDENCE: readonly EntityKind[] = ['brand', 'creator', 'topic', 'destination', 'country', 'category', 'term']

const uniq = (xs: readonly (string | null | undefined)[]) => [...new Set(xs.filter((x): x is string => Boolean(x && x.trim())))]
/** A place alias of up to three Latin letters (KL, SF) resolves a keyword but is not searched for in text, like codes. */
const short = (name: string) => /^[A-Za-z]{1,3}$/.test(name)

/** An entity as built, before its names are deduplicated; `keys` are further names that resolve to it but are not searched for. */
type EntityDraft = Omit<Entity, 'names' | 'members'> & { names: readonly string[]; members?: readonly Entity[] }
type AddEntity = (draft: EntityDraft, keys: readonly string[]) => Entity

/** The topics, brands and creators of the loaded weekly signals (topics and brands returned: categories include them). */
function addSignalEntities(add: AddEntity, signals: SignalEntities) {
  const topics = signals.topics.map((t) =>
    add({ id: `topic:${t.slug}`, kind: 'topic', name: t.name, nameZh: t.nameZh, categories: [t.category], names: [t.name, t.nameZh] }, [
      t.slug,
      t.slug.replaceAll('-', ' '),
    ]),
  )
  const brands = signals.brands.map((brand) =>
    add(
      {
        id: `brand:${brand.slug}`,
        kind: 'brand',
        name: brand.name,
        nameZh: brand.nameZh || null,
        categories: brand.categories,
        names: [brand.name, brand.nameZh],
      },
      [brand.slug],
    ),
  )
  for (const c of signals.creators)
    add(
      { id: `creator:${c.handle}`, kind: 'creator', name: c.handle, nameZh: c.name, categories: [c.category], names: [c.handle, c.name] },
      [],
    )
  return { topics, brands }
}

/** The glossary terms. */
function addTerms(add: AddEntity): Entity[] {
  return TERMS.map((t) =>
    add(
      { id: `term:${t.id}`, kind: 'term', name: t.en[0]!, nameZh: t.zh[0] ?? null, categories: [t.category], names: [...t.en, ...t.zh] },
      [t.id, ...(t.aliases ?? [])],
    ),
  )
}

/** The destinations, then the countries (each with its destinations as members). */
function addPlaces(add: AddEntity): void {
  const destinations = DESTINATIONS.map((destination) => ({
    country: destination.countryCode as string,
    entity: add(
      {
        id: `destination:${destination.code}`,
        kind: 'destination',
        name: destination.name,
        nameZh: destination.nameZh,
        categories: ['travel'],
        names: [destination.name, destination.nameZh, ...destination.aliases.filter((a) => !short(a))],
      },
      // Every spelling of the dataset routes' alias table resolves here too.
      DESTINATION_ALIASES.get(destination.code)!,
    ),
  }))
  for (const country of COUNTRIES) {
    const members = destinations.filter((d) => d.country === country.code).map((d) => d.entity)
    const names = [country.name, country.nameZh, ...country.aliases]
    add(
      {
        id: `country:${country.code}`,
        kind: 'country',
        name: country.name,
        nameZh: country.nameZh,
        categories: [],
        names: names.filter((n) => !short(n) || n.length === 3),
        members,
      },
      COUNTRY_ALIASES.get(country.code)!,
    )
  }
}

/** The weekly signals categories, each with the `candidates` (topics, brands, terms) that belong to it as members. */
function addCategories(add: AddEntity, candidates: readonly Entity[]): void {
  for (const category of SIGNAL_CATEGORIES) {
    const slug: SignalCategory = category.slug
    const syn = CATEGORY_SYNONYMS[slug]
    const inCategory = (e: Entity) => e.categories.includes(slug)
    add(
      {
        id: `category:${slug}`,
        kind: 'category',
        name: category.name,
        nameZh: category.name_zh,
        ...(syn.zh[0] ? { searchZh: syn.zh[0] } : {}),
        categories: [slug],
        names: [category.name, category.name_zh, ...syn.en, ...syn.zh],
        members: candidates.filter(inCategory),
      },
      [slug, slug.replaceAll('-', ' '), ...(syn.aliases ?? []), ...(syn.shopper ?? [])],
    )
  }
}

export class EntityIndex {
  /** Names by their key (names.ts), and by the key written as one word. */
  private readonly byKey = new Map<string, { entity: Entity; via: string }>()
  /** Names written as one word (no spaces): AuroraSkin, citywalk. */
  private readonly joined = new Map<string, { entity: Entity; via: string }>()
  /** Keys two entities of one kind claim: they resolve to neither. */
  private readonly ambiguous = new Set<string>()
  /** Codes (TYO, JP, UK): only as written, in capitals. */
  private readonly byCode = new Map<string, { entity: Entity; via: string }>()
  /** Names claimed by two entities: the one of higher PRECEDENCE kept it, or neither when they are of one kind. */
  readonly conflicts: { key: string; kept: string; dropped: string }[] = []
  readonly entities: readonly Entity[]
  private static built = 0
  /**
   * Distinguishes indexes (one per signals version): answers are cached per index, so a refresh
   * re-resolves. Built from the signals datasets' versions, so instances sharing answers (one PostgreSQL
   * ledger) agree on it; a number of this process's otherwise.
   */
  readonly version: string

  constructor(signals: SignalEntities, version?: string) {
    this.version = version ?? `local-${++EntityIndex.built}`
    const all: Entity[] = []
    const add: AddEntity = (draft, keys) => {
      const entity: Entity = { ...draft, names: uniq(draft.names), members: draft.members ?? [] }
      all.push(entity)
      this.index(entity, [...draft.names, ...keys])
      return entity
    }
    // In this order: who keeps a contested name, and the conflicts listed, depend on which entity claims it first (claim).
    const { topics, brands } = addSignalEntities(add, signals)
    const terms = addTerms(add)
    addPlaces(add)
    addCategories(add, [...topics, ...brands, ...terms])
    this.entities = all
  }

  /** Claims each of an entity's names and keys: codes as written, other names by key and written as one word. */
  private index(entity: Entity, names: readonly string[]): void {
    // Display names first: a key two spellings share reports the name as written (Kite & Pine, not kite-and-pine).
    for (const name of uniq(names)) {
      if (isCode(name)) {
        this.claim(this.byCode, name, entity, name)
        continue
      }
      this.claim(this.byKey, nameKey(name), entity, name)
      this.claim(this.joined, joinedKey(name), entity, name)
      // `Kite & Pine` written as one word without its `and`: KitePine.
      if (nameKey(name).includes(' and ')) this.claim(this.joined, joinedKey(nameKey(name).replaceAll(' and ', ' ')), entity, name)
    }
  }

  /** A name two entities of the same kind share (two creators' display names) resolves to neither. */
  private claim(map: Map<string, { entity: Entity; via: string }>, key: string, entity: Entity, via: string): void {
    if (!key) return
    const tag = `${map === this.byKey ? 'k' : map === this.joined ? 'j' : 'c'}:${key}`
    if (this.ambiguous.has(tag)) return
    const held = map.get(key)
    if (!held) return void map.set(key, { entity, via })
    if (held.entity === entity) return
    if (held.entity.kind === entity.kind) {
      map.delete(key)
      this.ambiguous.add(tag)
      this.conflicts.push({ key, kept: 'neither', dropped: `${held.entity.id} ${entity.id}` })
      return
    }
    const keep = PRECEDENCE.indexOf(held.entity.kind) <= PRECEDENCE.indexOf(entity.kind) ? held.entity : entity
    this.conflicts.push({ key, kept: keep.id, dropped: (keep === entity ? held.entity : entity).id })
    if (keep === entity) map.set(key, { entity, via })
  }

  /** A name as written, as a code, or as one word (no intent words taken off, no near misses). */
  private exact(keyword: string): { entity: Entity; via: string } | undefined {
    const written = keyword.normalize('NFKC').trim()
    if (looksLikeCode(written)) return isCode(written) ? this.byCode.get(written) : this.byKey.get(nameKey(written))
    return this.byKey.get(nameKey(written)) ?? this.joined.get(joinedKey(written))
  }

  /**
   * The entity a keyword names: any of its names, slugs or codes (codes only in capitals), in any case,
   * width, punctuation or spacing, or written as one word; else the same with intent words taken off its
   * ends (日本旅游, `Aurora Skin review`; words asking for brands or bloggers only off names that are no
   * place); else free text, with the known names it or what is left of it is near (unless `near` is false).
   */
  resolve(keyword: string, { near = true }: { near?: boolean } = {}): Resolved {
    const hit = this.exact(keyword)
    if (hit) return { kind: 'entity', entity: hit.entity, via: hit.via }
    const shorter = withoutIntent(keyword)
    for (const { name, stripped } of shorter) {
      const found = this.exact(name)
      const place = found && (found.entity.kind === 'destination' || found.entity.kind === 'country')
      if (found && !(place && stripped.some((w) => WHO_WORDS.has(w.toLowerCase()))))
        return { kind: 'entity', entity: found.entity, via: found.via, stripped }
    }
    const text = keyword.normalize('NFKC').trim().replace(/\s+/g, ' ')
    if (!near) return { kind: 'free_text', text }
    const found = nearestFirst([...this.near(text), ...shorter.flatMap((s) => this.near(s.name, s.stripped))])
    return found.length ? { kind: 'free_text', text, near: found } : { kind: 'free_text', text }
  }

  /** Known names a free-text keyword is close to (near-names.ts). */
  near(text: string, stripped?: string[]): NearName[] {
    return (this.nearNames ??= new NearNames(this.knownNames)).find(text, stripped)
  }
  private nearNames: NearNames<Entity> | undefined

  /** The weekly signals category a value names (slug, English or Chinese name, synonym), if any. */
  category(value: string): SignalCategory | undefined {
    const resolved = this.resolve(value, { near: false })
    return resolved.kind === 'entity' && resolved.entity.kind === 'category' ? (resolved.entity.categories[0] as SignalCategory) : undefined
  }

  /** Every name known to belong to some entity, with the entity: for shadowing (relevance.ts). */
  get knownNames(): readonly { name: string; entity: Entity }[] {
    return (this.known ??= this.entities.flatMap((entity) => entity.names.map((name) => ({ name, entity }))))
  }
  private known: { name: string; entity: Entity }[] | undefined
}

/** The static part alone (categories, glossary, places): what resolves without any dataset loaded. */
export const STATIC_ENTITIES = new EntityIndex({ topics: [], brands: [], creators: [] })

/** What an answer says it resolved the keyword to. */
export function resolvedField(resolved: Resolved) {
  if (resolved.kind === 'free_text')
    return {
      kind: 'free_text' as const,
      id: null,
      name: resolved.text,
      name_zh: null,
      matched: resolved.text,
      search_names: [resolved.text],
    }
  const entity = resolved.entity
  return {
    kind: entity.kind,
    id: entity.id,
    name: entity.name,
    name_zh: entity.nameZh,
    matched: resolved.via,
    ...(resolved.stripped ? { stripped: resolved.stripped } : {}),
    ...(resolved.correctedFrom ? { corrected_from: resolved.correctedFrom } : {}),
    search_names: entity.names,
    ...(entity.members.length ? { includes: entity.members.map((m) => m.id) } : {}),
  }
}
