/** What the sample evidence posts say: their tone, from the subject's disposition, and their title and body. */
import type { SignalCategory } from '../../src/catalog/signal-categories'
import { TERMS } from '../../src/data/glossary'
import { pick } from './evidence-draws'
import { CATEGORY_WORDS, NEUTRAL_WORDS, OPENERS, TONE_WORDS, type Frame } from './evidence-vocabulary'
import { rngFor, type Rng } from './random'
import { DISPOSITION, type Disposition } from './signals-vocabulary'

/** Share of posts that also use one of the category's glossary terms (src/data/glossary.ts). */
const TERM_SHARE = 0.35

export type Tone = 'pos' | 'neg' | 'neu'
export type Lang = 'zh' | 'en'

/** What a post is about, as it names it. */
export interface Subject {
  /** For ids. */
  slug: string
  category: SignalCategory
  zh: string
  en: string
  /** Hashtag, Chinese posts. */
  tagZh: string
  disposition: Disposition
}

/**
 * Tones follow the disposition as shares of an entity's posts, not as independent draws: the k-th post
 * about an entity takes the golden-ratio sequence's k-th point, so any run of its posts (a 30-day
 * window) holds close to the disposition's shares. Independent draws left a criticised brand's 40 posts
 * a month reading "mixed" by chance.
 */
const GOLDEN = 0.6180339887498949
const toneAt = new Map<string, number>()
export function toneOf(subject: Subject): Tone {
  const key = `${subject.category}|${subject.slug}`
  const drawn = toneAt.get(key) ?? 0
  toneAt.set(key, drawn + 1)
  const roll = (rngFor('tone', key)() + drawn * GOLDEN) % 1
  const odds = DISPOSITION[subject.disposition]
  return roll < odds.pos ? 'pos' : roll < odds.pos + odds.neg ? 'neg' : 'neu'
}

/** Starts every subject's tone sequence afresh: one generation run gives the same tones as the next. */
export function resetTones(): void {
  toneAt.clear()
}

function clause(rng: Rng, tone: Tone, category: SignalCategory, lang: Lang): string {
  const langIndex = lang === 'zh' ? 0 : 1
  if (tone === 'neu') return pick(rng, NEUTRAL_WORDS)[langIndex]
  const words = CATEGORY_WORDS[category]
  const frames = words.frames.filter((f): f is Frame =>
    f === 'safety' ? tone === 'neg' && Boolean(words.safety) : Boolean(TONE_WORDS[tone][f]),
  )
  const frame = pick(rng, frames)
  const bank = frame === 'safety' ? words.safety! : TONE_WORDS[tone][frame]!
  return pick(rng, bank)[langIndex]
}

/** Title and body of a post: subject, aspect, a tone clause (sometimes turning on "but"), a detail, hashtags. */
export function compose(
  rng: Rng,
  subject: Subject,
  subjectText: string,
  tone: Tone,
  lang: Lang,
): { title: string; body: string; aspect: string } {
  const words = CATEGORY_WORDS[subject.category]
  const [aspectZh, aspectEn] = pick(rng, words.aspects)
  let said = clause(rng, tone, subject.category, lang)
  // One post in eight states the other side first and turns with "but": the turn decides the tone.
  if (tone !== 'neu' && rng() < 0.125) {
    const other = clause(rng, tone === 'pos' ? 'neg' : 'pos', subject.category, lang)
    said = lang === 'zh' ? `虽然${other}，但是${said}` : `${other}, but ${said}`
  }
  const [detailZh, detailEn] = pick(rng, words.details)
  const terms = TERMS.filter((t) => t.category === subject.category)
  const term = terms.length && rng() < TERM_SHARE ? pick(rng, terms) : null
  if (lang === 'zh') {
    const tags = [subject.tagZh, aspectZh, ...(term ? [term.zh[0]!] : [])].map((t) => `#${t}`).join(' ')
    return {
      title: `${subjectText}｜${aspectZh}`,
      aspect: aspectZh,
      body: `${pick(rng, OPENERS.zh)}${subjectText}，${aspectZh}：${said}。${detailZh}。${tags}`,
    }
  }
  const also = term ? ` Includes notes on ${term.en[0]}.` : ''
  return {
    title: `${subjectText}: ${aspectEn}`,
    aspect: aspectEn,
    body: `${pick(rng, OPENERS.en)} ${subjectText} (${aspectEn}): ${said}. ${detailEn[0]!.toUpperCase()}${detailEn.slice(1)}.${also} #${subject.en.replace(/[^A-Za-z0-9]/g, '')}`,
  }
}
