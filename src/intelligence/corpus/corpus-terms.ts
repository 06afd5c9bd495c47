/**
 * The terms the corpus index holds of a text, and the phrases a name or a free-text term is found by,
 * as search engines index CJK: Latin words whole, Chinese as overlapping character bigrams. A text is
 * read as relevance reads it (normalizeText: NFKC, lower case), so that every post relevance would keep
 * is among the rows a phrase finds:
 *
 * - a word is a run of Latin letters, digits and `_` (relevance's word characters);
 * - a run of Chinese characters is its bigrams (东京塔: 东京 京塔), one character standing alone itself;
 *   so is a run of another script's letters (kana, Hangul, Cyrillic), which relevance also finds inside
 *   longer runs;
 * - anything else separates terms. Terms are numbered in the order they occur: a phrase is terms that
 *   follow each other.
 */
import { normalizeText } from '../analysis/relevance'

const HAN = /\p{Script=Han}/u
const LATIN_WORD = /[\p{Script=Latin}\p{N}_]/u
const LETTER = /\p{L}/u

/** Latin words are terms whole; Chinese and other letters by bigrams. */
type Kind = 'word' | 'han' | 'other'
const kindOf = (char: string): Kind | null => (HAN.test(char) ? 'han' : LATIN_WORD.test(char) ? 'word' : LETTER.test(char) ? 'other' : null)

interface Run {
  kind: Kind
  chars: string[]
}

/** A normalised text as runs of one kind each (white space and punctuation dropped). */
function runsOf(text: string): Run[] {
  const runs: Run[] = []
  let open = false
  for (const char of text) {
    const kind = kindOf(char)
    const last = runs.at(-1)
    if (kind === null) open = false
    else if (open && last?.kind === kind) last.chars.push(char)
    else {
      runs.push({ kind, chars: [char] })
      open = true
    }
  }
  return runs
}

const termsOfRun = (run: Run): string[] =>
  run.kind === 'word' || run.chars.length === 1 ? [run.chars.join('')] : run.chars.slice(1).map((char, i) => `${run.chars[i]}${char}`)

/** The terms of a text (title and text joined), in order, as the index numbers them. */
export function termsOf(text: string): string[] {
  const terms: string[] = []
  for (const run of runsOf(normalizeText(text))) for (const term of termsOfRun(run)) terms.push(term)
  return terms
}

/** Phrases (each a list of terms that follow each other) a row must all match; a name's alternatives (plurals) are any of several such lists. */
export type Lookup = { anyOf: string[][][] }

/**
 * What finds the rows holding a name: every row whose text holds it matches every phrase of one of the
 * alternatives, and few others do. Null when the index cannot find it (a lone Chinese character at the
 * edge of a name, which a longer run of characters may hold, or no letters at all): such a name is
 * found by a scan of the texts.
 *
 * - Latin words only (whole words, with a plural: relevance's rule): the phrase of its words, the last
 *   also with `s` and `es` (relevance also takes `'s`, which the index reads as the word and an `s`).
 * - Chinese (as written): the phrase of its bigrams, which holds wherever it stands in a run of
 *   Chinese characters.
 * - Mixed (AI电脑, 早c晚a): a text holding it as written need not hold its first or last word whole
 *   (openai电脑), so its runs of two characters and more, and its runs between two others (whole
 *   there, since something else bounds them), each a phrase of its own.
 */
export function phrasesOfName(name: string): Lookup | null {
  const runs = runsOf(normalizeText(name).trim())
  if (runs.length === 0) return null
  if (runs.every((run) => run.kind === 'word')) {
    const words = runs.map((run) => run.chars.join(''))
    const [stem, last] = [words.slice(0, -1), words.at(-1)!]
    return { anyOf: [last, `${last}s`, `${last}es`].map((word) => [[...stem, word]]) }
  }
  const parts = runs.flatMap((run, i) =>
    (run.kind !== 'word' && run.chars.length >= 2) || (i > 0 && i < runs.length - 1) ? [termsOfRun(run)] : [],
  )
  return parts.length ? { anyOf: [parts] } : null
}

/**
 * What finds the rows holding a free-text term: as a name, except that one Chinese character is a
 * term only standing alone (relevance: 美 is not in 美妆), which the index holds as a term of its own.
 */
export function phrasesOfTerm(term: string): Lookup | null {
  const runs = runsOf(normalizeText(term).trim())
  const [only] = runs
  if (runs.length === 1 && only!.kind === 'han' && only!.chars.length === 1) return { anyOf: [[only!.chars]] }
  return phrasesOfName(term)
}
