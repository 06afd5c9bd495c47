/**
 * Lexicon sentiment for Chinese and English text, and narrative frames. Per clause: sentiment words
 * (adjacent segments joined, so a word the segmenter split is still found), flipped by a negator just
 * before them, scaled by degree words; a clause after a contrast (但是, but) outweighs the clause before.
 */
import { SENTIMENT_ITEM_THRESHOLD } from '../../catalog'
import { detectLanguage } from '../evidence'
import {
  BASE_FRAMES,
  CONCESSIVE,
  CONTRAST_AFTER,
  EN_SENTIMENT,
  HEADING_WORDS,
  INDUSTRY_FRAMES,
  INTENSIFIERS,
  NEGATION_WINDOW,
  NEGATORS,
  ZH_MODIFIER_PREFIXES,
  ZH_PARTICLES,
  ZH_STOPWORDS,
  ZH_SENTIMENT,
  type FrameDef,
} from './lexicon'
import { clauseWords, HASHTAG } from './text'
import { recentMemo } from '../../core'

export type Tone = 'positive' | 'neutral' | 'negative'

export interface TextSentiment {
  score: number
  tone: Tone
  /** The sentiment words found, with their signed contribution. */
  hits: { word: string; weight: number }[]
}

/** Longest lexicon entries are 5 segments (性价比很高 may come out as 性|价|比|很|高). */
const MAX_JOIN = 5
const MAX_ENTRY_LENGTH = Math.max(...[...Object.keys(ZH_SENTIMENT), ...Object.keys(EN_SENTIMENT)].map((k) => k.length))
const CONTRAST_WEIGHT = 1.5
const CONCEDED_WEIGHT = 0.5

/** Every beginning of a lexicon entry (the entry included): joining segments stops once it is none. */
const beginnings = (lexicon: Readonly<Record<string, number>>) =>
  new Set(Object.keys(lexicon).flatMap((entry) => Array.from({ length: entry.length }, (_, n) => entry.slice(0, n + 1))))
const BEGINNINGS = { zh: beginnings(ZH_SENTIMENT), en: beginnings(EN_SENTIMENT) }
const PREFIX_STARTS = new Set(ZH_MODIFIER_PREFIXES.map((p) => p[0]))

/** Splits glued modifiers and particles off Chinese segments: 很好 -> 很 好, 贵了 -> 贵. */
function normalise(tokens: readonly string[], lexicon: Readonly<Record<string, number>>): string[] {
  const out: string[] = []
  for (let token of tokens) {
    if (token in lexicon || NEGATORS.has(token) || token in INTENSIFIERS) {
      out.push(token)
      continue
    }
    if (token.length > 1)
      for (const p of ZH_PARTICLES)
        if (token.endsWith(p)) {
          token = token.slice(0, -p.length)
          break
        }
    let prefix: string | undefined
    if (PREFIX_STARTS.has(token[0]))
      for (const p of ZH_MODIFIER_PREFIXES)
        if (token.length > p.length && token.startsWith(p) && token.slice(p.length) in lexicon) {
          prefix = p
          break
        }
    if (prefix) out.push(prefix, token.slice(prefix.length))
    else out.push(token)
  }
  return out
}

/** Listed negators, English "n't" forms, and short Chinese segments built on 不/没 (都不, 也没, 不够). */
const isNegator = (t: string) =>
  NEGATORS.has(t) || t.endsWith("n't") || (t.length <= 3 && !(t in ZH_SENTIMENT) && /^[不没别]|[不没]$/u.test(t))

/** A token that gives a neighbouring word its grammar rather than its meaning: pronoun, particle, demonstrative, degree, negator or sentiment word. */
const isFunctionWord = (t: string) =>
  ZH_STOPWORDS.has(t) || ZH_PARTICLES.includes(t) || /^[这那给]/u.test(t) || t in INTENSIFIERS || t in ZH_SENTIMENT || isNegator(t)

/** A heading word glued to a content word (豆子推荐, 推荐路线) is a label, not praise; see HEADING_WORDS. */
function isLabel(list: readonly string[], at: number, length: number): boolean {
  const [before, after] = [list[at - 1], list[at + length]]
  return (before !== undefined && !isFunctionWord(before)) || (after !== undefined && !isFunctionWord(after))
}

function scoreClause(tokens: readonly string[], lang: 'zh' | 'en', hits: TextSentiment['hits']): number {
  const lexicon = lang === 'zh' ? ZH_SENTIMENT : EN_SENTIMENT
  const list = lang === 'zh' ? normalise(tokens, lexicon) : tokens
  const glue = lang === 'zh' ? '' : ' '
  let score = 0
  for (let i = 0; i < list.length; ) {
    // Longest entry starting here, joining up to MAX_JOIN segments.
    let matched = 0
    let weight = 0
    let entry = ''
    let joined = ''
    for (let n = 1; n <= MAX_JOIN && i + n <= list.length; n++) {
      joined = n === 1 ? list[i]! : joined + glue + list[i + n - 1]!
      if (joined.length > MAX_ENTRY_LENGTH || !BEGINNINGS[lang].has(joined)) break
      if (joined in lexicon) {
        matched = n
        weight = lexicon[joined]!
        entry = joined
      }
    }
    if (!matched || (lang === 'zh' && HEADING_WORDS.has(entry) && isLabel(list, i, matched))) {
      i += matched || 1
      continue
    }
    let signedWeight = weight
    const before = list.slice(Math.max(0, i - NEGATION_WINDOW), i)
    if (before.some(isNegator)) signedWeight = -signedWeight
    const degree = list[i - 1] !== undefined ? INTENSIFIERS[list[i - 1]!] : undefined
    if (degree) signedWeight *= degree
    hits.push({ word: entry, weight: Math.round(signedWeight * 100) / 100 })
    score += signedWeight
    i += matched
  }
  return score
}

/** Texts scored lately (as text.ts's segmentations: an answer's themes and sentiment score the same posts). */
const SCORED = recentMemo(1_200_000, (key) => score(key.slice(2), key.slice(0, 2) as 'zh' | 'en'))

/** The sentiment of a text. Shared results: read-only. */
export function scoreText(text: string, lang: 'zh' | 'en' = detectLanguage(text)): Readonly<TextSentiment> {
  return SCORED(lang + text)
}

function score(text: string, lang: 'zh' | 'en'): TextSentiment {
  const hits: TextSentiment['hits'] = []
  const scores: number[] = []
  // Hashtags are labels, never opinions (#好用, #豆子推荐).
  for (const tokens of clauseWords(text.replace(HASHTAG, ' '), lang)) {
    let clauseScore = scoreClause(tokens, lang, hits)
    const first = tokens[0]
    if (first && CONCESSIVE.has(first)) clauseScore *= CONCEDED_WEIGHT
    if (first && CONTRAST_AFTER.has(first)) {
      clauseScore *= CONTRAST_WEIGHT
      if (scores.length) scores[scores.length - 1]! *= CONCEDED_WEIGHT
    }
    scores.push(clauseScore)
  }
  const score = Math.round(scores.reduce((a, b) => a + b, 0) * 100) / 100
  return { score, tone: score >= SENTIMENT_ITEM_THRESHOLD ? 'positive' : score <= -SENTIMENT_ITEM_THRESHOLD ? 'negative' : 'neutral', hits }
}

export interface FrameSet {
  frames: Readonly<Record<string, FrameDef>>
  /** The industry the frames were chosen for, when one was recognised. */
  industry: string | null
}

/** Base frames plus the given industry's, or plus every industry's when none is given. */
export function framesFor(industry: string | undefined): FrameSet {
  const wanted = industry?.trim().toLowerCase()
  if (!wanted)
    return { frames: { ...BASE_FRAMES, ...Object.assign({}, ...Object.values(INDUSTRY_FRAMES).map((i) => i.frames)) }, industry: null }
  const match = Object.entries(INDUSTRY_FRAMES).find(([, i]) => i.aliases.includes(wanted))
  return { frames: { ...BASE_FRAMES, ...(match?.[1].frames ?? {}) }, industry: match?.[0] ?? null }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const cueCache = new WeakMap<FrameDef, RegExp>()

/** Frames a text speaks to: Chinese cues as substrings, English cues as whole words. */
export function framesOf(text: string, set: FrameSet): string[] {
  const lower = text.toLowerCase()
  return Object.entries(set.frames)
    .filter(([, f]) => {
      let en = cueCache.get(f)
      if (!en) cueCache.set(f, (en = new RegExp(`\\b(${f.en.map(escape).join('|')})\\b`, 'u')))
      return f.zh.some((c) => lower.includes(c)) || en.test(lower)
    })
    .map(([id]) => id)
}
