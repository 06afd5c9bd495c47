/**
 * What a China intelligence request asks about: the keyword as written, what it resolved to, how
 * evidence is matched, and the key its answer is computed and cached under. Two keywords naming the same
 * entity (Tokyo, 东京, TYO) share the key, so they get the same answer; only the echoed input differs.
 */
import { pinyin } from 'pinyin-pro'
import { NEAR_NAME_MIN_ITEMS } from '../../catalog'
import { ApiError } from '../../core'
import { PRECEDENCE, resolvedField, type Entity, type EntityIndex, type NearName, type Resolved } from './entities'
import { distance, joinedKey } from './names'
import { matcherFor, type Matcher } from '../analysis/relevance'

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
  [
    ...new Set(
      names.flatMap((n) => {
        const l = n.normalize('NFKC').toLowerCase()
        return [l, ...l.split(/[\s-]+/), l.replace(/[\s-]+/g, '')]
      }),
    ),
  ].filter(Boolean)

/**
 * What a keyword asks about (`read` below), with how its evidence is matched and its answer keyed.
 * Free text near known names stays free text, sold only with enough evidence of its own (`nearNameCheck`).
 */
export function ask(index: EntityIndex, input: string, parameter = 'keyword'): Asked {
  const reading = read(index, input, parameter)
  const resolved = resolvedField(reading)
  if (reading.kind === 'free_text') {
    const near = (reading.near ?? []).filter(close).map((n) => n.entity)
    return {
      input,
      parameter,
      name: { en: reading.text, zh: reading.text },
      query: reading.text,
      ownTerms: termsOf([reading.text]),
      match: matcherFor(reading, index),
      key: `text:${reading.text.toLowerCase()}`,
      resolved,
      ...(near.length ? { near } : {}),
    }
  }
  const entity = reading.entity
  return {
    input,
    parameter,
    name: { en: entity.name, zh: entity.nameZh ?? entity.name },
    query: entity.searchZh ?? entity.nameZh ?? entity.name,
    ownTerms: termsOf(entity.names),
    match: matcherFor(reading, index),
    key: entity.id,
    resolved,
  }
}

/**
 * How a keyword is read, near misses included. A near miss is never sold as free text:
 * - a `slip` of one name, with no other name as near, is that name (`resolved.corrected_from`);
 * - pinyin of a name, or a long spelling of one (8 letters and more: Aurora Skn, Celestine Pairs), is a
 *   free 404 before payment with "did you mean" candidates;
 * - shorter spellings, parts of names and names among other words (Tokio, Aurora, 咖啡店, Aurora Skin 2)
 *   are free text, often a question of their own: sold on their own evidence, else the same 404, free.
 * `places`: the parameter names a place and nothing else (destination demand): no free text is
 * answered, so every near miss of a place is the free 404 before payment.
 */
export function read(index: EntityIndex, input: string, parameter: string, { places = false } = {}): Resolved {
  const resolved = index.resolve(input)
  if (resolved.kind !== 'free_text' || !resolved.near) return resolved
  const near = samePlaceOnce(
    places ? resolved.near.filter((n) => n.entity.kind === 'destination' || n.entity.kind === 'country') : resolved.near,
  )
  const best = near[0]
  const rival = (n: NearName) => n.entity !== best!.entity && n.how === 'typo' && n.distance <= 2
  if (best?.how === 'typo' && slip(best.typed, best.name) && !near.some(rival)) {
    return {
      kind: 'entity',
      entity: best.entity,
      via: best.name,
      correctedFrom: resolved.text,
      ...(best.stripped ? { stripped: best.stripped } : {}),
    }
  }
  const upFront = near.filter(
    (n) => places || n.how === 'pinyin' || (n.how === 'typo' && !HAN.test(n.name) && [...joinedKey(n.name)].length >= SLIP_LETTERS),
  )
  if (upFront.length)
    throw didYouMean(
      input,
      parameter,
      upFront.filter(close).map((n) => n.entity),
    )
  return near.length ? { ...resolved, near } : { kind: 'free_text', text: resolved.text }
}

/** Two entities sharing a name (Singapore the city and the country) offered once: the one the name resolves to. */
function samePlaceOnce(near: readonly NearName[]): NearName[] {
  const byName = new Map<string, NearName>()
  for (const n of near) {
    const held = byName.get(n.name)
    if (!held || PRECEDENCE.indexOf(n.entity.kind) < PRECEDENCE.indexOf(held.entity.kind)) byName.set(n.name, n)
  }
  const kept = new Set(byName.values())
  return near.filter((n) => kept.has(n))
}

const HAN = /\p{Script=Han}/u
/** Names long enough that one edit does not make another word: in Latin letters, in Chinese characters. */
const SLIP_LETTERS = 8
const SLIP_HAN = 5

/**
 * A slip a buyer clearly made: one letter or character added, dropped or replaced (not two swapped) in a
 * name long enough that one edit does not make another word: 8 letters or 5 Chinese characters
 * (Instanbul, 多巴安穿搭). Shorter names (Tokio, 极光机) and swaps are no slip.
 */
function slip(text: string, name: string): boolean {
  const [q, k] = [joinedKey(text), joinedKey(name)]
  return [...k].length >= (HAN.test(k) ? SLIP_HAN : SLIP_LETTERS) && distance(q, k, 1, false) === 1
}

/**
 * A near name worth offering as "did you mean": a spelling of a name long enough that one slip does not
 * make another word (Tokio for Tokyo, not Dali for Bali: 5 letters or 3 Chinese characters at least), its
 * pinyin, part of it, or the name inside the keyword. One character off a two-character Chinese name is
 * as often another place or word (大理 and 大阪, 北京 and 东京): offered only when it sounds the same, the
 * slip of a pinyin keyboard (绒娥 for 绒蛾).
 */
function close(near: NearName): boolean {
  if (near.how === 'similar') return sounds(near.typed) === sounds(near.name)
  if (near.how !== 'typo') return true
  return [...joinedKey(near.name)].length >= (HAN.test(near.name) ? 3 : 5)
}

/** Chinese text as toneless pinyin syllables. */
const sounds = (text: string) => pinyin(text, { toneType: 'none', type: 'array' }).join(' ')

/** Candidates a buyer may have meant, as answers name entities. */
const candidate = (e: Entity) => ({ id: e.id, kind: e.kind, name: e.name, name_zh: e.nameZh })

/** The free 404 of a keyword near known names: why it is not answered, and what the buyer may have meant. */
function didYouMean(input: string, parameter: string, entities: readonly Entity[], why = `"${input}" names nothing known`): ApiError {
  const list = [...new Set(entities)].slice(0, 5)
  if (list.length === 0) return new ApiError('not_found', `${why}. Nothing was charged.`, { parameter, value: input })
  const names = list.map((e) => `"${e.name}"${e.nameZh && e.nameZh !== e.name ? ` (${e.nameZh})` : ''}`)
  return new ApiError('not_found', `${why}; did you mean ${names.join(' or ')}? Nothing was charged.`, {
    parameter,
    value: input,
    did_you_mean: list.map(candidate),
  })
}

/** Evidence gathering for free text near known names: no evidence at all is the same free 404, with the candidates. */
export async function nearNames<T>(asked: Asked, gathering: Promise<T>): Promise<T> {
  if (!asked.near) return gathering
  return gathering.catch((e: unknown) => {
    throw e instanceof ApiError && e.code === 'not_found' ? didYouMean(asked.input, asked.parameter, asked.near!) : e
  })
}

/**
 * Free text with a known name inside it (`Aurora Skin serum`) is sold only when its own evidence is
 * not thin (NEAR_NAME_MIN_ITEMS): a handful of posts next to a known name is not an answer a buyer should
 * pay for. Thrown after payment, so the gate releases it: free all the same.
 */
export function nearNameCheck(asked: Asked, items: number): void {
  if (asked.near && items < NEAR_NAME_MIN_ITEMS) {
    throw didYouMean(
      asked.input,
      asked.parameter,
      asked.near,
      `Only ${items} item${items === 1 ? '' : 's'} mention "${asked.input}" as written: too few to sell`,
    )
  }
}
