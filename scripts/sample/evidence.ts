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
 *
 * The authors are picked in ./evidence-authors.ts, the text written in ./evidence-text.ts.
 *
 * `scale` (generate-sample-data.ts --scale) multiplies every Poisson mean: the same world, weeks and
 * entities, N times the posts about each (scale 1 is the shipped sample, byte for byte). With `longTail`
 * (--long-tail) it multiplies only the head's: the topics, brands and destinations with the most posts
 * (HEAD_SHARE of each), as in a real corpus where a few entities are huge and most have tens of posts;
 * every other entity keeps its very posts of scale 1, so a rare one is as rare at 100x. Rows are
 * yielded one by one, so a corpus of millions is never held in memory.
 */
import { SIGNAL_CATEGORIES, type SignalCategory } from '../../src/catalog/signal-categories'
import type { Platform } from '../../src/catalog/platforms'
import { COUNTRIES, DESTINATIONS } from '../../src/data/sample-geography'
import { Authors } from './evidence-authors'
import { pick, poisson, weighted } from './evidence-draws'
import { compose, resetTones, toneOf, type Lang, type Subject } from './evidence-text'
import { CATEGORY_WORDS, TRIP_WORDS, WEB_AUTHORS } from './evidence-vocabulary'
import type { Row } from './parquet'
import { between, rngFor, type Rng } from './random'
import { BRAND_DISPOSITION, TOPIC_DISPOSITION, TOPICS } from './signals-vocabulary'
import type { Week } from './signals'

export const EVIDENCE_END = '2026-11-15'

const TOPIC_RATE = 0.02
const BRAND_RATE = 0.03
/** Destination posts per estimated passenger of the month. */
const PLACE_RATE = 0.0005
const WEB_SHARE = 0.25
/** The long tail's head: this share of each kind's entities (topics, brands, destinations), those with the most posts. */
export const HEAD_SHARE = 0.1
const EN_SHARE = { native: 0.08, web: 0.3 }
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

const DAY_MS = 86_400_000
const PLATFORM_ZH: Record<Platform, string> = { xiaohongshu: '小红书', douyin: '抖音', wechat: '公众号' }
const PLATFORM_EN: Record<Platform, string> = { xiaohongshu: 'Xiaohongshu', douyin: 'Douyin', wechat: 'WeChat' }

export type EvidenceRow = Row

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)

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

function nativeRow(draw: Draw, platform: Platform, authors: Authors): Row {
  const rng = rngFor('evidence', draw.id)
  const lang: Lang = rng() < EN_SHARE.native ? 'en' : 'zh'
  const tone = toneOf(draw.subject)
  const { title, body } = compose(rng, draw.subject, draw.text[lang](rng), tone, lang)
  const author = authors.pick(rng, draw.week, draw.subject.category, platform)
  const views = Math.round(author.views(rng))
  const engagement = views * author.rate * between(rng, 0.7, 1.3)
  let likes = Math.round(engagement * 0.8)
  const comments = Math.round(engagement * between(rng, 0.05, 0.1))
  const shares = Math.round(engagement * between(rng, 0.06, 0.14))
  // Bought likes: a spike without the comments real attention brings.
  if (author.inflated && rng() < 0.25) likes = Math.round(likes * between(rng, 6, 15))
  const published = publishedAt(rng, draw.dayMs)
  return {
    id: draw.id,
    month: published.slice(0, 7),
    published_at: published,
    platform,
    about_platform: '',
    retrieval: 'native',
    source_kind: platform === 'douyin' ? 'video' : platform === 'wechat' ? 'article' : 'note',
    category: draw.subject.category,
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

function webRow(draw: Draw): Row {
  const rng = rngFor('evidence', draw.id)
  const lang: Lang = rng() < EN_SHARE.web ? 'en' : 'zh'
  const tone = toneOf(draw.subject)
  const subjectText = draw.text[lang](rng)
  const { body, aspect } = compose(rng, draw.subject, subjectText, tone, lang)
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
  const published = publishedAt(rng, draw.dayMs)
  return {
    id: draw.id,
    month: published.slice(0, 7),
    published_at: published,
    platform: 'web',
    about_platform: about,
    retrieval: 'proxy',
    source_kind: kind,
    category: draw.subject.category,
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

/**
 * The head of each kind: the keys (`<category>|<slug>`, or a destination's code) of the HEAD_SHARE of its
 * entities with the largest volume (ties by key, so the head is the same on every run).
 */
export function headOf(volumes: ReadonlyMap<string, number>): Set<string> {
  const ranked = [...volumes].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
  return new Set(ranked.slice(0, Math.ceil(ranked.length * HEAD_SHARE)).map(([key]) => key))
}

const sumBy = (rows: readonly Row[], key: (r: Row) => string, value: (r: Row) => number) => {
  const sums = new Map<string, number>()
  for (const r of rows) sums.set(key(r), (sums.get(key(r)) ?? 0) + value(r))
  return sums
}

/**
 * The head of the long tail: the keys (`<category>|<slug>`) of the topics and brands, and the codes of
 * the destinations, with the most posts (HEAD_SHARE of each kind). Rows summed per key are as good as
 * the weekly and monthly rows (bench-scale.ts reads the sums from a folder's files).
 */
export function longTailHead(world: Pick<WorldRows, 'topics' | 'brands' | 'flights'>): { subjects: Set<string>; places: Set<string> } {
  const topics = sumBy(
    world.topics,
    (r) => `${r.category}|${r.topic_slug}`,
    (r) => Number(r.posts) * TOPIC_RATE,
  )
  const brands = sumBy(
    world.brands,
    (r) => `${r.category}|${r.brand_slug}`,
    (r) => Number(r.mentions) * BRAND_RATE,
  )
  const places = sumBy(
    world.flights,
    (r) => String(r.destination_code),
    (r) => Number(r.estimated_passengers),
  )
  return { subjects: new Set([...headOf(topics), ...headOf(brands)]), places: headOf(places) }
}

/** Each entity's multiplier of its posts: `scale` for all, or with `longTail` for the head only (1 for the rest). */
function scalesOf(
  world: WorldRows,
  scale: number,
  longTail: boolean,
): { subject: (key: string) => number; place: (code: string) => number } {
  if (!longTail || scale === 1) return { subject: () => scale, place: () => scale }
  const head = longTailHead(world)
  return { subject: (key) => (head.subjects.has(key) ? scale : 1), place: (code) => (head.places.has(code) ? scale : 1) }
}

export function* generateEvidence(world: WorldRows, scale = 1, longTail = false): Generator<Row> {
  resetTones()
  const authors = new Authors(world.creators)
  const weekOf = new Map(world.weeks.map((w) => [w.start, w]))
  const scales = scalesOf(world, scale, longTail)
  // Native posts of one signals row, then its share of open-web coverage.
  function* emit(kind: string, row: Row, volume: number, rate: number, subject: Subject, text: Draw['text']): Generator<Row> {
    const week = weekOf.get(String(row.week_start))!
    const platform = row.platform as Platform
    const scale = scales.subject(`${subject.category}|${subject.slug}`)
    const rng = rngFor('evidence-count', kind, subject.category, subject.slug, platform, week.start)
    const days = daysOf(week)
    const posts = poisson(rng, volume * rate * scale)
    for (let k = 0; k < posts; k++) {
      yield nativeRow(
        {
          id: `${kind}-${platform}-${week.start}-${subject.category}-${subject.slug}-${k}`,
          dayMs: pick(rng, days),
          subject,
          text,
          week: week.start,
        },
        platform,
        authors,
      )
    }
    const web = poisson(rng, volume * rate * scale * WEB_SHARE)
    for (let k = 0; k < web; k++) {
      yield webRow({
        id: `${kind}-web-${platform}-${week.start}-${subject.category}-${subject.slug}-${k}`,
        dayMs: pick(rng, days),
        subject,
        text,
        week: week.start,
      })
    }
  }

  for (const topic of world.topics) {
    const subject = topicSubjects.get(`${topic.category}|${topic.topic_slug}`)!
    yield* emit('topic', topic, Number(topic.posts), TOPIC_RATE, subject, { zh: () => subject.zh, en: () => subject.en })
  }

  for (const brand of world.brands) {
    const name = String(brand.brand_name)
    const zh = String(brand.brand_name_zh)
    const category = brand.category as SignalCategory
    const subject: Subject = {
      slug: String(brand.brand_slug),
      category,
      zh,
      en: name,
      tagZh: zh,
      disposition: BRAND_DISPOSITION[name] ?? 'liked',
    }
    const products = CATEGORY_WORDS[category].products
    // Chinese posts often write a brand's English name beside its Chinese one.
    yield* emit('brand', brand, Number(brand.mentions), BRAND_RATE, subject, {
      zh: (rng) => `${rng() < 0.4 ? `${name} ` : ''}${zh}${pick(rng, products)[0]}`,
      en: (rng) => `${name} ${pick(rng, products)[1]}`,
    })
  }

  yield* placeRows(world, authors, scales.place)
}

/** Destination posts: daily volume from the month's estimated passengers; a third name the country too. */
function* placeRows(world: WorldRows, authors: Authors, scaleOf: (code: string) => number): Generator<Row> {
  const passengers = new Map<string, number>()
  for (const r of world.flights) {
    const key = `${r.month}|${r.destination_code}`
    passengers.set(key, (passengers.get(key) ?? 0) + Number(r.estimated_passengers))
  }
  const lastMonth = [...new Set(world.flights.map((r) => String(r.month)))].sort().at(-1)!
  const first = Date.parse(`${world.weeks[0]!.start}T00:00:00Z`)
  const last = Date.parse(`${EVIDENCE_END}T00:00:00Z`)
  const weekStart = (ms: number) => isoDay(ms - ((new Date(ms).getUTCDay() + 6) % 7) * DAY_MS)
  for (const destination of DESTINATIONS) {
    const scale = scaleOf(destination.code)
    const country = COUNTRIES.find((c) => c.code === destination.countryCode)!
    const subject: Subject = {
      slug: destination.code.toLowerCase(),
      category: 'travel',
      zh: destination.nameZh,
      en: destination.name,
      tagZh: `${destination.nameZh}旅行`,
      disposition: 'liked',
    }
    const text: Draw['text'] = {
      zh: (rng) => `${rng() < 0.35 ? country.nameZh : ''}${destination.nameZh}${pick(rng, TRIP_WORDS)[0]}`,
      en: (rng) => (rng() < 0.35 ? `${destination.name}, ${country.name}` : `${destination.name} ${pick(rng, TRIP_WORDS)[1]}`),
    }
    for (let day = first; day <= last; day += DAY_MS) {
      const date = isoDay(day)
      const month = date.slice(0, 7) > lastMonth ? lastMonth : date.slice(0, 7)
      const daysInMonth = new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).getUTCDate()
      const rng = rngFor('evidence-count', 'place', destination.code, date)
      const lambda = ((passengers.get(`${month}|${destination.code}`) ?? 0) / daysInMonth) * PLACE_RATE * scale
      const posts = poisson(rng, lambda)
      for (let k = 0; k < posts; k++) {
        const platform = weighted(rng, PLACE_PLATFORMS)
        yield nativeRow(
          { id: `place-${platform}-${date}-${destination.code}-${k}`, dayMs: day, subject, text, week: weekStart(day) },
          platform,
          authors,
        )
      }
      for (let k = 0, web = poisson(rng, lambda * WEB_SHARE); k < web; k++) {
        yield webRow({ id: `place-web-${date}-${destination.code}-${k}`, dayMs: day, subject, text, week: weekStart(day) })
      }
    }
  }
}
