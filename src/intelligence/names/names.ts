/**
 * Names as buyers type them: the comparison keys the entity resolver looks names up by, the intent words
 * around a name that do not change what it names, and how near a mistyped name is to a known one.
 *
 * - `nameKey`: full-width forms folded (ＡＵＲＯＲＡ, ３Ｃ), diacritics dropped (Kyōto), lower case, `&`
 *   and `+` written as `and`, punctuation a space, spaces collapsed: `Kite & Pine`, `kite and pine`,
 *   `KITE+PINE` and `Kite-and-Pine` are one key.
 * - `joinedKey`: the same without spaces, for names written as one word (AuroraSkin, citywalk).
 * - `isCode`: two or three Latin capitals (TYO, JP, UK): a code only as written; `pen` is a word, not
 *   Penang's PEN.
 * - `withoutIntent`: the name left when intent words are taken off its ends (日本旅游 -> 日本, `Aurora Skin
 *   review` -> `Aurora Skin`), one at a time, outermost first.
 * - `nameKey` drops accents of Latin letters only: kana and other scripts keep their marks.
 * - `distance`: Damerau-Levenshtein edit distance, stopping early once past a bound.
 */

/** Code-like: two or three Latin letters. Written in capitals it is a code; otherwise a word. */
const CODE_LIKE = /^[A-Za-z]{2,3}$/

export const isCode = (s: string): boolean => CODE_LIKE.test(s) && s === s.toUpperCase()
export const looksLikeCode = (s: string): boolean => CODE_LIKE.test(s)

export function nameKey(name: string): string {
  return (
    name
      .normalize('NFKC')
      .normalize('NFKD')
      // Accents off Latin letters only (Kyōto, München); kana keep their voicing marks (が is not か).
      .replace(/(\p{Script=Latin})\p{M}+/gu, '$1')
      .normalize('NFC')
      .toLowerCase()
      .replace(/[&+]/g, ' and ')
      .replace(/[^\p{L}\p{N}]+/gu, ' ')
      .trim()
  )
}

export const joinedKey = (s: string): string => nameKey(s).replace(/ /g, '')

/** The intent words that ask who talks about something (WHO_WORDS). */
const WHO = {
  zh: ['品牌', '博主', '达人', '网红', '红人', 'kol'],
  en: ['kol', 'kols', 'brand', 'brands', 'blogger', 'bloggers', 'influencer', 'influencers', 'creator', 'creators'],
} as const

/**
 * Words that say what a buyer wants to know about a name, not which thing it is: travel and tourism,
 * guides, reviews and word of mouth, recommendations, "how is it", and who talks about it (博主, KOLs,
 * influencers). Chinese ones are written onto the name (日本旅游, 美妆KOL); English ones are separate
 * words (Japan travel). Taken off one at a time, so 东京旅行攻略 is the topic 东京旅行 before the city 东京.
 */
export const INTENT_WORDS = {
  zh: [
    '自由行',
    '旅游',
    '旅行',
    '出游',
    '游玩',
    '攻略',
    '口碑',
    '推荐',
    '测评',
    '评测',
    '评价',
    '怎么样',
    '好不好',
    '好用吗',
    '值得买吗',
    '值不值得买',
    '种草',
    '测试',
    '趋势',
    '热度',
    ...WHO.zh,
  ],
  en: [
    'travel',
    'travels',
    'trip',
    'trips',
    'tourism',
    'tour',
    'tours',
    'holiday',
    'holidays',
    'vacation',
    'guide',
    'guides',
    'review',
    'reviews',
    'rating',
    'ratings',
    'reputation',
    'recommendation',
    'recommendations',
    'trend',
    'trends',
    'trending',
    'sentiment',
    'buzz',
    'best',
    'top',
    'popular',
    ...WHO.en,
  ],
} as const

const ZH_INTENT = [...INTENT_WORDS.zh].sort((a, b) => b.length - a.length)
const EN_INTENT = new Set<string>(INTENT_WORDS.en)

/** Every intent word by its key: never itself a name a keyword is "near" (冰岛旅游 is not near Travel). */
export const INTENT_KEYS: ReadonlySet<string> = new Set([...INTENT_WORDS.zh, ...INTENT_WORDS.en].map((w) => nameKey(w)))

/**
 * Intent words that ask who talks about something (brands, bloggers, KOLs): they change the question
 * about a place (日本品牌 is not Japan, 韩国博主 not Korea), so they are taken off only other names.
 */
export const WHO_WORDS: ReadonlySet<string> = new Set([...WHO.zh, ...WHO.en])

/**
 * Each shorter name left by taking one intent word off an end, with the words taken, outermost first:
 * `东京旅游攻略` -> [东京旅游 (攻略)] ... as far as intent words go. Empty when there is none.
 */
export function withoutIntent(input: string): { name: string; stripped: string[] }[] {
  const out: { name: string; stripped: string[] }[] = []
  let name = input.normalize('NFKC').trim().replace(/\s+/g, ' ')
  const stripped: string[] = []
  for (let guard = 0; guard < 4; guard++) {
    const words = name.split(' ')
    let next: string | null = null
    let word = ''
    if (words.length > 1 && EN_INTENT.has(words.at(-1)!.toLowerCase())) [next, word] = [words.slice(0, -1).join(' '), words.at(-1)!]
    else if (words.length > 1 && EN_INTENT.has(words[0]!.toLowerCase())) [next, word] = [words.slice(1).join(' '), words[0]!]
    else {
      const lower = name.toLowerCase()
      // Written onto the name (Tokyo旅游, 美妆KOL), but a Latin one is never cut out of a Latin word (Nikol).
      const onto = (w: string, next: string | undefined) => !/^[a-z]/.test(w) || !next || !/[a-z]/i.test(next)
      // The end first: intent words mostly follow the name (旅行博主 is 旅行 + 博主, not 旅行 before 博主).
      const end = ZH_INTENT.find((w) => name.length > w.length && lower.endsWith(w) && onto(w, lower.at(-w.length - 1)))
      const start = end ? undefined : ZH_INTENT.find((w) => name.length > w.length && lower.startsWith(w) && onto(w, lower[w.length]))
      if (end) [next, word] = [name.slice(0, -end.length).trim(), name.slice(-end.length)]
      else if (start) [next, word] = [name.slice(start.length).trim(), name.slice(0, start.length)]
    }
    if (!next) break
    name = next.replace(/^(的|之)|(的|之)$/g, '').trim()
    stripped.push(word)
    if (name) out.push({ name, stripped: [...stripped] })
  }
  return out
}

/**
 * Damerau-Levenshtein distance of `left` and `right` (a swap of two neighbours is one edit; without
 * `swaps`, plain Levenshtein: two), or `max + 1` once it is certainly above `max`.
 */
export function distance(left: string, right: string, max: number, swaps = true): number {
  if (Math.abs(left.length - right.length) > max) return max + 1
  const leftChars = [...left]
  const rightChars = [...right]
  let prev2: number[] = []
  let prev = Array.from({ length: rightChars.length + 1 }, (_, j) => j)
  for (let i = 1; i <= leftChars.length; i++) {
    const cur = [i]
    let best = i
    for (let j = 1; j <= rightChars.length; j++) {
      const cost = leftChars[i - 1] === rightChars[j - 1] ? 0 : 1
      let edits = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost)
      if (swaps && i > 1 && j > 1 && leftChars[i - 1] === rightChars[j - 2] && leftChars[i - 2] === rightChars[j - 1])
        edits = Math.min(edits, prev2[j - 2]! + 1)
      cur.push(edits)
      best = Math.min(best, edits)
    }
    if (best > max) return max + 1
    prev2 = prev
    prev = cur
  }
  return prev[rightChars.length]!
}
