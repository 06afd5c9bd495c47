/**
 * The known names a free-text keyword is close to, for "did you mean". Each name's comparison keys are
 * computed once per entity index (pinyin on the first keyword that could be pinyin), so a look-up is a
 * scan of precomputed strings with a bounded edit distance.
 */
import { pinyin } from 'pinyin-pro'
import { INTENT_KEYS, distance, isCode, joinedKey, nameKey } from './names'

/**
 * A known name a keyword is close to. `typo`: a spelling of it; `pinyin`: its Chinese name in pinyin
 * (jiguangji for 极光肌); `partial`: part of it (Aurora for Aurora Skin); `similar`: one character off a
 * two-character Chinese name (绒娥, 绒蛾), which as often is another word; `contains`: the keyword holds
 * it among other words (Aurora Skin serum, Aurora Skin 2).
 */
/** What a name belongs to: an entity of the index (entities.ts). */
interface Named {
  id: string
}

export interface NearName<E extends Named = Named> {
  entity: E
  name: string
  how: 'typo' | 'pinyin' | 'partial' | 'similar' | 'contains'
  distance: number
  /** The text compared: the keyword, or what was left of it once intent words were taken off. */
  typed: string
  /** The intent words taken off it, if any. */
  stripped?: string[]
}

interface Known<E extends Named> {
  name: string
  entity: E
  key: string
  joined: string
  length: number
  han: boolean
  words: number
}

const HAN = /\p{Script=Han}/u
const RANK = { typo: 0, pinyin: 1, partial: 2, similar: 3, contains: 4 } as const

const better = (a: NearName, b: NearName): number => RANK[a.how] - RANK[b.how] || a.distance - b.distance

/** One near name per entity (its nearest), nearest kind first. */
export function nearestFirst<E extends Named>(names: readonly NearName<E>[]): NearName<E>[] {
  const best = new Map<E, NearName<E>>()
  for (const n of names) {
    const held = best.get(n.entity)
    if (!held || better(n, held) < 0) best.set(n.entity, n)
  }
  return [...best.values()].sort((a, b) => better(a, b) || a.entity.id.localeCompare(b.entity.id))
}

export class NearNames<E extends Named> {
  private readonly known: Known<E>[]
  private pinyins: Map<Known<E>, string> | undefined

  /** Codes, names of under 4 letters or 2 Chinese characters, and intent words are never guessed at. */
  constructor(names: readonly { name: string; entity: E }[]) {
    this.known = names.flatMap(({ name, entity }) => {
      const key = nameKey(name)
      const joined = key.replace(/ /g, '')
      const han = HAN.test(joined)
      const length = [...joined].length
      if (isCode(name) || length < (han ? 2 : 4) || INTENT_KEYS.has(key)) return []
      return [{ name, entity, key, joined, length, han, words: key.split(' ').length }]
    })
  }

  /** The names `text` is near, one per entity (its nearest), nearest kind first. */
  find(text: string, stripped?: string[]): NearName<E>[] {
    const joined = joinedKey(text)
    const words = nameKey(text)
    const length = [...joined].length
    if (length < (HAN.test(joined) ? 2 : 3)) return []
    const qWords = words.split(' ').length
    const pinyinLike = /^[a-z]{6,}$/.test(joined)
    const out: NearName<E>[] = []
    const offer = (k: Known<E>, how: NearName['how'], d: number) =>
      out.push({ entity: k.entity, name: k.name, how, distance: d, typed: text, ...(stripped ? { stripped } : {}) })
    for (const candidate of this.known) {
      // A spelling: as many words (or run together), one edit (two in Latin names of 8 letters and more).
      const max = candidate.han ? 1 : candidate.length >= 8 ? 2 : 1
      if (Math.abs(length - candidate.length) <= max && (qWords === candidate.words || qWords === 1)) {
        const edits = distance(joined, candidate.joined, max)
        if (edits >= 1 && edits <= max) offer(candidate, candidate.han && candidate.length === 2 ? 'similar' : 'typo', edits)
      }
      if (candidate.han && pinyinLike && this.pinyinOf(candidate) === joined) offer(candidate, 'pinyin', 0)
      if (
        candidate.han
          ? joined.includes(candidate.joined) && joined !== candidate.joined
          : ` ${words} `.includes(` ${candidate.key} `) && words !== candidate.key
      )
        offer(candidate, 'contains', length - candidate.length)
      const part = candidate.han
        ? candidate.length >= 3 && candidate.joined.includes(joined) && joined !== candidate.joined
        : length >= 4 && ` ${candidate.key} `.includes(` ${words} `) && words !== candidate.key
      if (part) offer(candidate, 'partial', candidate.length - length)
    }
    return nearestFirst(out)
  }

  /** Toneless pinyin run together (极光肌 -> jiguangji), computed for every Chinese name on first use. */
  private pinyinOf(known: Known<E>): string {
    this.pinyins ??= new Map(
      this.known
        .filter((n) => n.han)
        .map((n) => [n, pinyin(n.joined, { toneType: 'none', type: 'array', v: true }).join('').toLowerCase()]),
    )
    return this.pinyins.get(known) ?? ''
  }
}
