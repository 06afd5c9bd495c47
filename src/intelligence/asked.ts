/**
 * What a China intelligence request asks about: the keyword as written, what it resolved to, how
 * evidence is matched, and the key its answer is computed and cached under. Two keywords naming the same
 * entity (Tokyo, 东京, TYO) share the key, so they get the same answer; only the echoed input differs.
 */
import { NEAR_NAME_MIN_ITEMS } from '../catalog/evidence-rules'
import { ApiError } from '../http/errors'
import { resolvedField, type Entity, type EntityIndex } from './entities'
import { distance, joinedKey } from './names'
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
  /** Free text only: known entities whose names are inside it (see nearNameCheck). */
  near?: readonly Entity[]
  /** The parameter it came in (keyword, entity, category): what a 404 names. */
  parameter: string
}

const termsOf = (names: readonly string[]) =>
  [...new Set(names.flatMap((n) => {
    const l = n.normalize('NFKC').toLowerCase()
    return [l, ...l.split(/[\s-]+/), l.replace(/[\s-]+/g, '')]
  }))].filter(Boolean)

/**
 * What a keyword asks about. A near miss is never sold as free text: a spelling of one known name that
 * is clearly meant (a `slip`, and no other name as near) resolves to it (`resolved.corrected_from`);
 * any other spelling of known names, or part of one
 * (Aurora for Aurora Skin), is a free 404 with "did you mean" candidates. Free text with a known name
 * inside it stays free text, and is sold only with enough evidence of its own (`nearNameCheck`).
 * `kinds`: the only kinds of entity a near miss is taken for (a destination parameter guesses places).
 */
export function ask(index: EntityIndex, input: string, parameter = 'keyword', kinds?: readonly Entity['kind'][]): Asked {
  let r = index.resolve(input)
  // Spellings, pinyin and parts of a name are guesses at it; a name among other words, or one character off a
  // two-character name, may be a question of its own (sold only on its own evidence: nearNameCheck).
  const guesses = r.kind === 'free_text' ? (r.near ?? []).filter((n) => (n.how === 'typo' || n.how === 'pinyin' || n.how === 'partial') && (!kinds || kinds.includes(n.entity.kind))) : []
  if (r.kind === 'free_text' && guesses.length) {
    const best = guesses[0]!
    const clear = best.how === 'typo' && slip(r.text, best.name) && !guesses.some((n) => n.entity !== best.entity && n.distance <= 2)
    if (!clear) throw didYouMean(input, parameter, guesses.map((n) => n.entity))
    r = { kind: 'entity', entity: best.entity, via: best.name, correctedFrom: r.text }
  }
  const resolved = resolvedField(r)
  if (r.kind === 'free_text') {
    const near = (r.near ?? []).map((n) => n.entity)
    return { input, parameter, name: { en: r.text, zh: r.text }, query: r.text, ownTerms: termsOf([r.text]), match: matcherFor(r, index), key: `text:${r.text.toLowerCase()}`, resolved, ...(near.length ? { near } : {}) }
  }
  const e = r.entity
  return { input, parameter, name: { en: e.name, zh: e.nameZh ?? e.name }, query: e.searchZh ?? e.nameZh ?? e.name, ownTerms: termsOf(e.names), match: matcherFor(r, index), key: e.id, resolved }
}

const HAN = /\p{Script=Han}/u

/**
 * A slip a buyer clearly made: one letter or character added, dropped or replaced (not two swapped) in a
 * name long enough that one edit does not make another word: 8 letters or 5 Chinese characters
 * (Instanbul, 多巴安穿搭). Shorter names (Tokio, 极光机) and swaps get the free 404 with the candidates.
 */
function slip(text: string, name: string): boolean {
  const [q, k] = [joinedKey(text), joinedKey(name)]
  return [...k].length >= (HAN.test(k) ? 5 : 8) && distance(q, k, 1, false) === 1
}

/** Candidates a buyer may have meant, as answers name entities. */
const candidate = (e: Entity) => ({ id: e.id, kind: e.kind, name: e.name, name_zh: e.nameZh })

/** The free 404 of a keyword that names nothing but is near known names. */
function didYouMean(input: string, parameter: string, entities: readonly Entity[]): ApiError {
  const list = [...new Set(entities)].slice(0, 5)
  // Kinds only where two candidates share a name (Singapore the city and the country).
  const shared = (e: Entity) => list.some((o) => o !== e && o.name === e.name)
  const note = (e: Entity) => [e.nameZh && e.nameZh !== e.name ? e.nameZh : '', shared(e) ? `the ${e.kind}` : ''].filter(Boolean).join(', ')
  const names = list.map((e) => `"${e.name}"${note(e) ? ` (${note(e)})` : ''}`)
  return new ApiError('not_found', `"${input}" names nothing known; did you mean ${names.join(' or ')}? Nothing was charged.`, { parameter, value: input, did_you_mean: list.map(candidate) })
}

/** Evidence gathering for free text near known names: no evidence at all is the same free 404, with the candidates. */
export async function nearNames<T>(a: Asked, gathering: Promise<T>): Promise<T> {
  if (!a.near) return gathering
  return gathering.catch((e: unknown) => {
    throw e instanceof ApiError && e.code === 'not_found' ? didYouMean(a.input, a.parameter, a.near!) : e
  })
}

/**
 * Free text with a known name inside it (`Aurora Skin serum`) is sold only when its own evidence is
 * not thin (NEAR_NAME_MIN_ITEMS): a handful of posts next to a known name is not an answer a buyer should
 * pay for. Thrown after payment, so the gate releases it: free all the same.
 */
export function nearNameCheck(a: Asked, items: number): void {
  if (a.near && items < NEAR_NAME_MIN_ITEMS) {
    const e = didYouMean(a.input, a.parameter, a.near)
    throw new ApiError('not_found', `Only ${items} item${items === 1 ? '' : 's'} mention "${a.input}" as written: too few to sell; did you mean ${(e.details!.did_you_mean as { name: string }[]).map((c) => `"${c.name}"`).join(' or ')}? Nothing was charged.`, e.details)
  }
}
