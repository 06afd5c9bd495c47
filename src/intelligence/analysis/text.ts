/**
 * Word segmentation with Intl.Segmenter (ICU's dictionary segmenter for Chinese, built into Bun), and
 * the salient terms of a text for themes and related keywords.
 */
import { recentMemo } from '../../core'
import { EN_SENTIMENT, EN_STOPWORDS, INTENSIFIERS, NEGATORS, ZH_SENTIMENT, ZH_STOPWORDS } from './lexicon'

const SEGMENTERS = { zh: new Intl.Segmenter('zh', { granularity: 'word' }), en: new Intl.Segmenter('en', { granularity: 'word' }) }

/** `#tag`, half- or full-width, with Xiaohongshu's closing `[话题]#` or `#` when present. */
export const HASHTAG = /[#＃]([\p{L}\p{N}_]+)(?:\[[^\]\n]{0,8}\][#＃]?|[#＃](?![\p{L}\p{N}_]))?/gu
const CJK = /\p{Script=Han}/u

/** Word-like tokens, Latin ones lower-cased. */
export function words(text: string, lang: 'zh' | 'en'): string[] {
  return clauseWords(text, lang).flat()
}

const CLAUSE_END = /[。！？!?；;，,、\n.]/u

/**
 * Texts segmented lately: an answer's themes and its sentiment read the same texts, and concurrent
 * answers on one keyword read the same posts (ICU segmentation was a tenth of a first answer's time).
 * Texts of 1.2 million characters in all: some 18,000 corpus posts, 8 concurrent answers of
 * TEXT_ANALYSIS_MAX_ITEMS each. With sentiment.ts's scores of them, about 25 MB (21 bytes per character).
 */
const SEGMENTED = recentMemo(1_200_000, (key) => segmentClauses(key.slice(2), key.slice(0, 2) as 'zh' | 'en'))

/**
 * Clauses as lists of word tokens, from one segmentation pass: a clause ends at sentence or clause
 * punctuation, so negation and contrast stay local. Shared results: read-only.
 */
export function clauseWords(text: string, lang: 'zh' | 'en'): readonly (readonly string[])[] {
  return SEGMENTED(lang + text)
}

function segmentClauses(text: string, lang: 'zh' | 'en'): string[][] {
  const out: string[][] = []
  let current: string[] = []
  for (const piece of SEGMENTERS[lang].segment(text)) {
    if (piece.isWordLike) current.push(piece.segment.toLowerCase())
    else if (CLAUSE_END.test(piece.segment) && current.length) {
      out.push(current)
      current = []
    }
  }
  if (current.length) out.push(current)
  return out
}

export function hashtags(text: string): string[] {
  return [...text.matchAll(HASHTAG)].map((m) => m[1]!.toLowerCase())
}

const isCjk = (w: string) => CJK.test(w)

/** A term worth counting: not a stop word, sentiment or degree word, number, or lone character. */
function salient(word: string): boolean {
  if (/^\d+$/.test(word) || NEGATORS.has(word) || word in INTENSIFIERS) return false
  if (isCjk(word)) return word.length >= 2 && !ZH_STOPWORDS.has(word) && !(word in ZH_SENTIMENT)
  return word.length >= 3 && !EN_STOPWORDS.has(word) && !(word in EN_SENTIMENT)
}

/**
 * The distinct salient terms of one text: its hashtags (`#tag`) and its words, minus the query's own
 * terms (they describe every item, so they are no theme).
 */
export function termsOf(text: string, lang: 'zh' | 'en', exclude: ReadonlySet<string>): Set<string> {
  const tags = hashtags(text)
  const body = text.replace(HASHTAG, ' ')
  const out = new Set<string>()
  for (const t of tags) if (!exclude.has(t) && t.length >= 2) out.add(`#${t}`)
  for (const clause of clauseWords(body, lang)) for (const w of clause) if (salient(w) && !exclude.has(w)) out.add(w)
  return out
}
