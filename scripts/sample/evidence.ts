/**
 * The sample evidence corpus behind evidence.parquet, written from the same world as the weekly
 * signals and the flights data, so every route agrees about who and what exists:
 *
 * - topic posts: per topic, platform and week, a Poisson draw of TOPIC_RATE x the week's posts in
 *   signal_topics, so a topic that rises in the weekly rankings rises in the corpus;
 * - brand posts: per brand, platform and week, BRAND_RATE x the week's mentions in signal_brands;
 * - destination posts: per destination and day, PLACE_RATE x the month's estimated passengers in the
 *   flights data (the latest month beyond its end), naming the city, often its country;
 * - open-web coverage (proxy evidence) of all three, WEB_SHARE of the native volume.
 *
 * Native posts are written by the weekly ranked creators of the category and platform (weighted by
 * their posts that week, with their engagement per post) or by long-tail accounts the rankings do not
 * cover. Tone follows the entity's disposition (./signals-vocabulary.ts). Brands and creators are
 * invented; every figure is synthetic. Deterministic: every row draws from its own seeded PRNG.
 */
import { SIGNAL_CATEGORIES, type SignalCategory } from '../../src/catalog/signal-categories'
import { PLATFORM_TOKENS, type Platform } from '../../src/catalog/platforms'
import { TERMS } from '../../src/data/glossary'
import { COUNTRIES, DESTINATIONS, ORIGIN_CITIES } from '../../src/data/sample-geography'
import {
  CATEGORY_WORDS,
  LONG_TAIL_HANDLES,
  NEUTRAL_WORDS,
  OPENERS,
  TONE_WORDS,
  TRIP_WORDS,
  WEB_AUTHORS,
  type Frame,
} from './evidence-vocabulary'
import type { Row } from './parquet'
import { between, rngFor, type Rng } from './random'
import { BRAND_DISPOSITION, DISPOSITION, TOPIC_DISPOSITION, TOPICS, type Disposition } from './signals-vocabulary'
import type { Week } from './signals'

export const EVIDENCE_END = '2026-11-15'

const TOPIC_RATE = 0.02
const BRAND_RATE = 0.03
/** Destination posts per estimated passenger of the month. */
const PLACE_RATE = 0.0005
const WEB_SHARE = 0.25
/** Share of native posts written by a ranked creator of the category (the rest: long-tail accounts). */
const RANKED_SHARE = 0.55
const EN_SHARE = { native: 0.08, web: 0.3 }
const LONG_TAIL_PER_POOL = 30
/** Share of posts that also use one of the category's glossary terms (src/data/glossary.ts). */
const TERM_SHARE = 0.35
/** Where destination posts are published. */
const PLACE_PLATFORMS: readonly [Platform, number][] = [
  ['xiaohongshu', 0.5],
  ['douyin', 0.35],
  ['wechat', 0.15],
]
/** What open-web coverage is about: a platform, or none in particular (''). */
const WEB_ABOUT: readonly [Platform | '', number][] = [
  ['xiaohongshu', 0.45],
  ['douyin', 0.2],
  ['wechat', 0.1],
  ['', 0.25],
]
const LIKE_RATE: Record<Platform, number> = { xiaohongshu: 0.05, douyin: 0.04, wechat: 0.012 }

const DAY_MS = 86_400_000
const PLATFORM_ZH: Record<Platform, string> = { xiaohongshu: '小红书', douyin: '抖音', wechat: '公众号' }
const PLATFORM_EN: Record<Platform, string> = { xiaohongshu: 'Xiaohongshu', douyin: 'Douyin', wechat: 'WeChat' }

type Tone = 'pos' | 'neg' | 'neu'
type Lang = 'zh' | 'en'

/** What a post is about, as it names it. */
interface Subject {
  /** For ids. */
  slug: string
  category: SignalCategory
  zh: string
  en: string
  /** Hashtag, Chinese posts. */
  tagZh: string
  disposition: Disposition
}

interface RankedCreator {
  handle: string
  followers: number
  posts: number
  viewsPerPost: number
  engagementRate: number
}

interface Author {
  handle: string
  followers: number
  city: string
  /** Views and engagement rate of one post, before noise. */
  views: (rng: Rng) => number
  rate: number
  /** Buys likes now and then (long tail only): spikes with few comments. */
  inflated: boolean
}

export type EvidenceRow = Row

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!
}

function weighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let r = rng() * items.reduce((s, [, w]) => s + w, 0)
  for (const [item, w] of items) if ((r -= w) < 0) return item
  return items.at(-1)![0]
}

/** Poisson draw (Knuth for small means, normal approximation above 30). */
function poisson(rng: Rng, lambda: number): number {
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * (rng() + rng() + rng() - 1.5) * 2))
  const limit = Math.exp(-lambda)
  let k = 0
  let p = rng()
  while (p > limit) {
    k++
    p *= rng()
  }
  return k
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)
const GATEWAYS = ORIGIN_CITIES.filter((c) => c.tier <= 2).map((c) => [c.name, c.tier === 1 ? 5 : 1] as const)
const cityOf = (handle: string) => weighted(rngFor('creator-city', handle), GATEWAYS)

// ---------------------------------------------------------------------------------------------
// Authors

/** Ranked creators by `<week_start>|<category>|<platform>`, from the signal_creators rows. */
function rankedCreators(rows: readonly Row[]): Map<string, RankedCreator[]> {
  const out = new Map<string, RankedCreator[]>()
  for (const r of rows) {
    const posts = Number(r.posts)
    if (posts === 0 || Number(r.views) === 0) continue
    const key = `${r.week_start}|${r.category}|${r.platform}`
    const list = out.get(key) ?? []
    list.push({
      handle: String(r.creator_handle),
      followers: Number(r.followers),
      posts,
      viewsPerPost: Number(r.views) / posts,
      engagementRate: Number(r.engagement) / Number(r.views),
    })
    out.set(key, list)
  }
  return out
}

/** Unranked accounts of a category and platform: KOCs and small creators. */
function longTail(category: SignalCategory, platform: Platform): Author[] {
  return Array.from({ length: LONG_TAIL_PER_POOL }, (_, i) => {
    const rng = rngFor('long-tail', category, platform, String(i))
    const handle = `${pick(rng, LONG_TAIL_HANDLES.first)}_${pick(rng, LONG_TAIL_HANDLES.second)}_${1000 + Math.floor(rng() * 9000)}`
    const followers = Math.round(Math.exp(between(rng, Math.log(200), Math.log(60_000))))
    return {
      handle,
      followers,
      city: cityOf(handle),
      views: (r: Rng) => Math.max(followers * between(r, 0.03, 0.25), between(r, 150, 2500)),
      rate: LIKE_RATE[platform] * between(rng, 0.5, 1.6) * 1.2,
      inflated: rng() < 0.1,
    }
  })
}

class Authors {
  private readonly ranked: Map<string, RankedCreator[]>
  private readonly tails = new Map<string, Author[]>()

  constructor(creatorRows: readonly Row[]) {
    this.ranked = rankedCreators(creatorRows)
  }

  pick(rng: Rng, week: string, category: SignalCategory, platform: Platform): Author {
    const ranked = this.ranked.get(`${week}|${category}|${platform}`)
    if (ranked?.length && rng() < RANKED_SHARE) {
      const c = weighted(
        rng,
        ranked.map((r) => [r, r.posts] as const),
      )
      return {
        handle: c.handle,
        followers: c.followers,
        city: cityOf(c.handle),
        views: (r) => c.viewsPerPost * Math.exp(0.3 * (r() + r() + r() - 1.5)),
        rate: c.engagementRate,
        inflated: false,
      }
    }
    const key = `${category}|${platform}`
    if (!this.tails.has(key)) this.tails.set(key, longTail(category, platform))
    return pick(rng, this.tails.get(key)!)
  }
}

// ---------------------------------------------------------------------------------------------
// Text

/**
 * Tones follow the disposition as shares of an entity's posts, not as independent draws: the k-th post
 * about an entity takes the golden-ratio sequence's k-th point, so any run of its posts (a 30-day
 * window) holds close to the disposition's shares. Independent draws left a criticised brand's 40 posts
 * a month reading "mixed" by chance.
 */
const GOLDEN = 0.6180339887498949
const toneAt = new Map<string, number>()
function toneOf(subject: Subject): Tone {
  const key = `${subject.category}|${subject.slug}`
  const k = toneAt.get(key) ?? 0
  toneAt.set(key, k + 1)
  const u = (rngFor('tone', key)() + k * GOLDEN) % 1
  const p = DISPOSITION[subject.disposition]
  return u < p.pos ? 'pos' : u < p.pos + p.neg ? 'neg' : 'neu'
}

function clause(rng: Rng, tone: Tone, category: SignalCategory, lang: Lang): string {
  const i = lang === 'zh' ? 0 : 1
  if (tone === 'neu') return pick(rng, NEUTRAL_WORDS)[i]
  const words = CATEGORY_WORDS[category]
  const frames = words.frames.filter((f): f is Frame =>
    f === 'safety' ? tone === 'neg' && Boolean(words.safety) : Boolean(TONE_WORDS[tone][f]),
  )
  const frame = pick(rng, frames)
  const bank = frame === 'safety' ? words.safety! : TONE_WORDS[tone][frame]!
  return pick(rng, bank)[i]
}

/** Title and body of a post: subject, aspect, a tone clause (sometimes turning on "but"), a detail, hashtags. */
function compose(rng: Rng, s: Subject, subjectText: string, tone: Tone, lang: Lang): { title: string; body: string; aspect: string } {
  const words = CATEGORY_WORDS[s.category]
  const [aspectZh, aspectEn] = pick(rng, words.aspects)
  let said = clause(rng, tone, s.category, lang)
  // One post in eight states the other side first and turns with "but": the turn decides the tone.
  if (tone !== 'neu' && rng() < 0.125) {
    const other = clause(rng, tone === 'pos' ? 'neg' : 'pos', s.category, lang)
    said = lang === 'zh' ? `虽然${other}，但是${said}` : `${other}, but ${said}`
  }
  const [detailZh, detailEn] = pick(rng, words.details)
  const terms = TERMS.filter((t) => t.category === s.category)
  const term = terms.length && rng() < TERM_SHARE ? pick(rng, terms) : null
  if (lang === 'zh') {
    const tags = [s.tagZh, aspectZh, ...(term ? [term.zh[0]!] : [])].map((t) => `#${t}`).join(' ')
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
    body: `${pick(rng, OPENERS.en)} ${subjectText} (${aspectEn}): ${said}. ${detailEn[0]!.toUpperCase()}${detailEn.slice(1)}.${also} #${s.en.replace(/[^A-Za-z0-9]/g, '')}`,
  }
}

// ---------------------------------------------------------------------------------------------
// Rows

interface Draw {
  id: string
  dayMs: number
  subject: Subject
  /** How the post writes the subject, per language. */
  text: { zh: (rng: Rng) => string; en: (rng: Rng) => string }
  week: string
}

function publishedAt(rng: Rng, dayMs: number): string {
  return new Date(dayMs + Math.floor(between(rng, 7 * 3600, 24 * 3600)) * 1000).toISOString().replace('.000Z', 'Z')
}

function nativeRow(d: Draw, platform: Platform, authors: Authors): Row {
  const rng = rngFor('evidence', d.id)
  const lang: Lang = rng() < EN_SHARE.native ? 'en' : 'zh'
  const tone = toneOf(d.subject)
  const { title, body } = compose(rng, d.subject, d.text[lang](rng), tone, lang)
  const author = authors.pick(rng, d.week, d.subject.category, platform)
  const views = Math.round(author.views(rng))
  const engagement = views * author.rate * between(rng, 0.7, 1.3)
  let likes = Math.round(engagement * 0.8)
  const comments = Math.round(engagement * between(rng, 0.05, 0.1))
  const shares = Math.round(engagement * between(rng, 0.06, 0.14))
  // Bought likes: a spike without the comments real attention brings.
  if (author.inflated && rng() < 0.25) likes = Math.round(likes * between(rng, 6, 15))
  const published = publishedAt(rng, d.dayMs)
  return {
    id: d.id,
    month: published.slice(0, 7),
    published_at: published,
    platform,
    about_platform: '',
    retrieval: 'native',
    source_kind: platform === 'douyin' ? 'video' : platform === 'wechat' ? 'article' : 'note',
    category: d.subject.category,
    language: lang,
    author: author.handle,
    author_followers: author.followers,
    author_city: author.city,
    title: platform === 'douyin' ? '' : title,
    text: body,
    likes,
    comments,
    shares,
    views,
  }
}

function webRow(d: Draw): Row {
  const rng = rngFor('evidence', d.id)
  const lang: Lang = rng() < EN_SHARE.web ? 'en' : 'zh'
  const tone = toneOf(d.subject)
  const subjectText = d.text[lang](rng)
  const { body, aspect } = compose(rng, d.subject, subjectText, tone, lang)
  const about = weighted(rng, WEB_ABOUT)
  const kind = pick(rng, ['web_page', 'web_page', 'report', 'news'] as const)
  let title: string
  let text: string
  if (lang === 'zh') {
    const where = about ? `${PLATFORM_ZH[about]}上` : '社交平台上'
    title =
      kind === 'report'
        ? `${subjectText}趋势报告：${aspect}`
        : kind === 'news'
          ? `${subjectText}热度观察：${aspect}`
          : `${where}的${subjectText}讨论：${aspect}`
    text = `据${where}相关内容整理。${body}`
  } else {
    const where = about ? `on ${PLATFORM_EN[about]}` : 'on Chinese social platforms'
    title =
      kind === 'report'
        ? `${subjectText} trend report: ${aspect}`
        : kind === 'news'
          ? `${subjectText} in focus: ${aspect}`
          : `What people say about ${subjectText} ${where}`
    text = `Compiled from posts ${where}. ${body}`
  }
  const published = publishedAt(rng, d.dayMs)
  return {
    id: d.id,
    month: published.slice(0, 7),
    published_at: published,
    platform: 'web',
    about_platform: about,
    retrieval: 'proxy',
    source_kind: kind,
    category: d.subject.category,
    language: lang,
    author: pick(rng, WEB_AUTHORS[lang]),
    author_followers: 0,
    author_city: '',
    title,
    text,
    likes: 0,
    comments: 0,
    shares: 0,
    views: 0,
  }
}

const topicSubjects = new Map<string, Subject>(
  SIGNAL_CATEGORIES.flatMap((c) =>
    TOPICS[c.slug].map((t): [string, Subject] => [
      `${c.slug}|${t.slug}`,
      { slug: t.slug, category: c.slug, zh: t.zh, en: t.name, tagZh: t.zh, disposition: TOPIC_DISPOSITION[t.slug] ?? 'liked' },
    ]),
  ),
)

/** Days of a week, as epoch ms. */
const daysOf = (w: Week) => w.days.map((d) => Date.parse(`${d}T00:00:00Z`))

export interface WorldRows {
  weeks: readonly Week[]
  topics: readonly Row[]
  brands: readonly Row[]
  creators: readonly Row[]
  flights: readonly Row[]
}

export function generateEvidence(world: WorldRows): Row[] {
  toneAt.clear()
  const authors = new Authors(world.creators)
  const rows: Row[] = []
  const weekOf = new Map(world.weeks.map((w) => [w.start, w]))
  // Native posts of one signals row, then its share of open-web coverage.
  const emit = (kind: string, row: Row, volume: number, rate: number, subject: Subject, text: Draw['text']) => {
    const w = weekOf.get(String(row.week_start))!
    const platform = row.platform as Platform
    const rng = rngFor('evidence-count', kind, subject.category, subject.slug, platform, w.start)
    const days = daysOf(w)
    const n = poisson(rng, volume * rate)
    for (let k = 0; k < n; k++) {
      rows.push(
        nativeRow(
          {
            id: `${kind}-${platform}-${w.start}-${subject.category}-${subject.slug}-${k}`,
            dayMs: pick(rng, days),
            subject,
            text,
            week: w.start,
          },
          platform,
          authors,
        ),
      )
    }
    const web = poisson(rng, volume * rate * WEB_SHARE)
    for (let k = 0; k < web; k++) {
      rows.push(
        webRow({
          id: `${kind}-web-${platform}-${w.start}-${subject.category}-${subject.slug}-${k}`,
          dayMs: pick(rng, days),
          subject,
          text,
          week: w.start,
        }),
      )
    }
  }

  for (const r of world.topics) {
    const s = topicSubjects.get(`${r.category}|${r.topic_slug}`)!
    emit('topic', r, Number(r.posts), TOPIC_RATE, s, { zh: () => s.zh, en: () => s.en })
  }

  for (const r of world.brands) {
    const name = String(r.brand_name)
    const zh = String(r.brand_name_zh)
    const category = r.category as SignalCategory
    const s: Subject = { slug: String(r.brand_slug), category, zh, en: name, tagZh: zh, disposition: BRAND_DISPOSITION[name] ?? 'liked' }
    const products = CATEGORY_WORDS[category].products
    // Chinese posts often write a brand's English name beside its Chinese one.
    emit('brand', r, Number(r.mentions), BRAND_RATE, s, {
      zh: (rng) => `${rng() < 0.4 ? `${name} ` : ''}${zh}${pick(rng, products)[0]}`,
      en: (rng) => `${name} ${pick(rng, products)[1]}`,
    })
  }

  rows.push(...placeRows(world, authors))
  return rows
}

/** Destination posts: daily volume from the month's estimated passengers; a third name the country too. */
function placeRows(world: WorldRows, authors: Authors): Row[] {
  const passengers = new Map<string, number>()
  for (const r of world.flights) {
    const key = `${r.month}|${r.destination_code}`
    passengers.set(key, (passengers.get(key) ?? 0) + Number(r.estimated_passengers))
  }
  const lastMonth = [...new Set(world.flights.map((r) => String(r.month)))].sort().at(-1)!
  const first = Date.parse(`${world.weeks[0]!.start}T00:00:00Z`)
  const last = Date.parse(`${EVIDENCE_END}T00:00:00Z`)
  const weekStart = (ms: number) => isoDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS)
  const rows: Row[] = []
  for (const d of DESTINATIONS) {
    const country = COUNTRIES.find((c) => c.code === d.countryCode)!
    const s: Subject = {
      slug: d.code.toLowerCase(),
      category: 'travel',
      zh: d.nameZh,
      en: d.name,
      tagZh: `${d.nameZh}旅行`,
      disposition: 'liked',
    }
    const text: Draw['text'] = {
      zh: (rng) => `${rng() < 0.35 ? country.nameZh : ''}${d.nameZh}${pick(rng, TRIP_WORDS)[0]}`,
      en: (rng) => (rng() < 0.35 ? `${d.name}, ${country.name}` : `${d.name} ${pick(rng, TRIP_WORDS)[1]}`),
    }
    for (let day = first; day <= last; day += DAY_MS) {
      const date = isoDay(day)
      const month = date.slice(0, 7) > lastMonth ? lastMonth : date.slice(0, 7)
      const daysInMonth = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()
      const rng = rngFor('evidence-count', 'place', d.code, date)
      const lambda = ((passengers.get(`${month}|${d.code}`) ?? 0) / daysInMonth) * PLACE_RATE
      const n = poisson(rng, lambda)
      for (let k = 0; k < n; k++) {
        const platform = weighted(rng, PLACE_PLATFORMS)
        rows.push(
          nativeRow(
            { id: `place-${platform}-${date}-${d.code}-${k}`, dayMs: day, subject: s, text, week: weekStart(day) },
            platform,
            authors,
          ),
        )
      }
      for (let k = 0, web = poisson(rng, lambda * WEB_SHARE); k < web; k++) {
        rows.push(webRow({ id: `place-web-${date}-${d.code}-${k}`, dayMs: day, subject: s, text, week: weekStart(day) }))
      }
    }
  }
  return rows
}
