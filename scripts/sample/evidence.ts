/**
 * The sample evidence corpus behind evidence.parquet: posts, notes, videos, articles and web coverage
 * about generic consumer topics (camping 露营, skincare 护肤, Tokyo travel 东京旅行, ...), in Chinese and
 * English, by fictional creators with follower counts and engagement. Brand names are invented.
 *
 * Each topic has a volume shape over time, so that some keywords clearly rise, some clearly fall and
 * some stay flat (the momentum tests rely on camping/citywalk rising and frisbee/fast fashion falling).
 * Deterministic: every day, stream and item draws from its own seeded PRNG (./random.ts).
 */
import { ORIGIN_CITIES } from '../../src/data/sample-geography'
import { between, rngFor, type Rng } from './random'

export const EVIDENCE_START = '2025-06-01'
export const EVIDENCE_END = '2026-11-15'

const DAY_MS = 86_400_000
const START_MS = Date.parse(`${EVIDENCE_START}T00:00:00Z`)
const DAYS = (Date.parse(`${EVIDENCE_END}T00:00:00Z`) - START_MS) / DAY_MS + 1

type Platform = 'xiaohongshu' | 'douyin' | 'wechat'
type Category = 'outdoor' | 'beauty' | 'travel' | 'lifestyle' | 'fashion' | 'pets'
type Tone = 'pos' | 'neg' | 'neu'
type Frame = 'price' | 'quality' | 'experience' | 'safety' | 'aesthetics' | 'general'

/** Volume over time relative to the topic's base: flat, or exponential change from a date on. */
type Shape = { kind: 'flat' } | { kind: 'change'; from: string; perDay: number }

interface Brand {
  zh: string
  en: string
  /** Probability of a positive / negative item when the brand is mentioned. */
  pos: number
  neg: number
}

interface Topic {
  slug: string
  category: Category
  zh: string
  en: string
  /** Items per day per stream at level 1 (multiplied by each stream's rate). */
  volume: number
  shape: Shape
  themesZh: readonly string[]
  themesEn: readonly string[]
  detailsZh: readonly string[]
  detailsEn: readonly string[]
  /** Tone probabilities before and after `toneShift.from` (when set). */
  pos: number
  neg: number
  toneShift?: { from: string; pos: number; neg: number }
  brand?: Brand
  /** Native Xiaohongshu notes exist for this topic (a first-party feed); otherwise only proxy coverage. */
  xhsNative?: boolean
}

const TOPICS: readonly Topic[] = [
  {
    slug: 'camping', category: 'outdoor', zh: '露营', en: 'camping', volume: 1.0,
    shape: { kind: 'change', from: '2026-06-01', perDay: 0.012 },
    themesZh: ['精致露营', '露营装备', '亲子露营', '露营地推荐', '天幕搭建', '露营美食'],
    themesEn: ['glamping', 'camping gear', 'family camping', 'campsite picks', 'tarp setup', 'camp cooking'],
    detailsZh: ['离市区一小时车程', '带了全套装备', '营地有热水淋浴', '晚上降温很明显'],
    detailsEn: ['an hour from the city', 'brought the full kit', 'the site has hot showers', 'nights get cold'],
    pos: 0.55, neg: 0.2,
    brand: { zh: '风迹户外', en: 'Zephyr Trail', pos: 0.2, neg: 0.6 },
  },
  {
    slug: 'citywalk', category: 'lifestyle', zh: '城市漫步', en: 'citywalk', volume: 0.9,
    shape: { kind: 'change', from: '2026-05-01', perDay: 0.01 },
    themesZh: ['老街探店', '城市漫步路线', '梧桐区', '街拍打卡', '博物馆周末'],
    themesEn: ['old-street cafes', 'walking routes', 'plane-tree districts', 'street photography', 'museum weekends'],
    detailsZh: ['全程大约五公里', '建议早上出发', '沿途有很多小店', '地铁可以直达'],
    detailsEn: ['about five kilometres in all', 'start in the morning', 'lots of small shops on the way', 'reachable by metro'],
    pos: 0.6, neg: 0.15,
  },
  {
    slug: 'frisbee', category: 'outdoor', zh: '飞盘', en: 'frisbee', volume: 8,
    shape: { kind: 'change', from: '2026-07-01', perDay: -0.015 },
    themesZh: ['飞盘社交', '飞盘入门', '草坪场地', '飞盘装备', '周末局'],
    themesEn: ['social frisbee', 'frisbee basics', 'lawn access', 'frisbee kit', 'weekend games'],
    detailsZh: ['一场大概两小时', '新手也能很快上手', '需要提前约场地', '一般十几个人一起'],
    detailsEn: ['a game runs about two hours', 'beginners pick it up fast', 'book the pitch ahead', 'usually a dozen players'],
    pos: 0.5, neg: 0.2,
    toneShift: { from: '2026-03-01', pos: 0.3, neg: 0.42 },
  },
  {
    slug: 'fast-fashion', category: 'fashion', zh: '快时尚', en: 'fast fashion', volume: 4,
    shape: { kind: 'change', from: '2026-06-15', perDay: -0.012 },
    themesZh: ['快时尚穿搭', '平价衣橱', '面料质量', '换季清仓', '可持续时尚'],
    themesEn: ['fast-fashion outfits', 'budget wardrobe', 'fabric quality', 'seasonal clearance', 'sustainable fashion'],
    detailsZh: ['一共花了三百多', '尺码偏大一码', '洗了一次就起球', '门店款式更多'],
    detailsEn: ['spent about 300 yuan', 'sizes run large', 'pilled after one wash', 'stores carry more styles'],
    pos: 0.3, neg: 0.45,
  },
  {
    slug: 'skincare', category: 'beauty', zh: '护肤', en: 'skincare', volume: 1.1,
    shape: { kind: 'flat' },
    themesZh: ['早C晚A', '敏感肌护肤', '防晒测评', '成分党', '平价护肤'],
    themesEn: ['vitamin C and retinol', 'sensitive-skin routines', 'sunscreen reviews', 'ingredient-first buying', 'budget skincare'],
    detailsZh: ['坚持用了四周', '混油皮', '搭配保湿一起用', '空瓶记录'],
    detailsEn: ['used it for four weeks', 'combination skin', 'paired with a moisturiser', 'finished the bottle'],
    pos: 0.5, neg: 0.25,
    brand: { zh: '极光肌', en: 'Aurora Skin', pos: 0.72, neg: 0.1 },
    xhsNative: true,
  },
  {
    slug: 'specialty-coffee', category: 'lifestyle', zh: '精品咖啡', en: 'specialty coffee', volume: 0.8,
    shape: { kind: 'flat' },
    themesZh: ['手冲咖啡', '咖啡探店', '豆子推荐', '社区咖啡馆', '冷萃'],
    themesEn: ['pour-over', 'cafe hopping', 'bean picks', 'neighbourhood cafes', 'cold brew'],
    detailsZh: ['一杯三十多块', '店里可以办公', '豆子是浅烘', '周末人比较多'],
    detailsEn: ['about 30 yuan a cup', 'laptop-friendly', 'light roast beans', 'busy at weekends'],
    pos: 0.55, neg: 0.2,
    brand: { zh: '苔豆咖啡', en: 'Mossbean Coffee', pos: 0.45, neg: 0.35 },
  },
  {
    slug: 'tokyo-travel', category: 'travel', zh: '东京旅行', en: 'Tokyo travel', volume: 1.0,
    shape: { kind: 'flat' },
    themesZh: ['东京自由行', '签证攻略', '东京美食', '购物退税', '东京住宿'],
    themesEn: ['independent Tokyo trips', 'visa tips', 'Tokyo food', 'tax-free shopping', 'where to stay in Tokyo'],
    detailsZh: ['一共五天四晚', '住在新宿附近', '地铁换乘有点复杂', '机票提前一个月订的'],
    detailsEn: ['five days, four nights', 'stayed near Shinjuku', 'metro transfers are tricky', 'booked flights a month ahead'],
    pos: 0.55, neg: 0.15,
    toneShift: { from: '2025-11-15', pos: 0.3, neg: 0.4 },
  },
  {
    slug: 'cat-food', category: 'pets', zh: '猫粮', en: 'cat food', volume: 0.12,
    shape: { kind: 'flat' },
    themesZh: ['猫粮测评', '主食罐', '换粮过渡', '成分配比'],
    themesEn: ['cat food reviews', 'wet food', 'switching food', 'ingredient ratios'],
    detailsZh: ['家里两只猫', '七天换粮', '一袋吃一个月'],
    detailsEn: ['two cats at home', 'switched over seven days', 'a bag lasts a month'],
    pos: 0.5, neg: 0.25,
  },
]

/**
 * Generation streams: where an item is published, how it is retrieved, and how often (items per day
 * at level 1, times the topic volume). Web coverage is the proxy evidence of the platform it covers.
 */
interface Stream {
  key: string
  platform: Platform | 'web'
  about: Platform | ''
  retrieval: 'native' | 'proxy'
  rate: number
  kinds: readonly string[]
  /** Share of English items. */
  en: number
  xhsNativeOnly?: boolean
}

const STREAMS: readonly Stream[] = [
  { key: 'douyin', platform: 'douyin', about: '', retrieval: 'native', rate: 1.0, kinds: ['video'], en: 0.05 },
  { key: 'wechat', platform: 'wechat', about: '', retrieval: 'native', rate: 0.45, kinds: ['article'], en: 0.03 },
  { key: 'xiaohongshu', platform: 'xiaohongshu', about: '', retrieval: 'native', rate: 1.2, kinds: ['note'], en: 0.05, xhsNativeOnly: true },
  { key: 'web-xhs', platform: 'web', about: 'xiaohongshu', retrieval: 'proxy', rate: 0.7, kinds: ['web_page', 'web_page', 'report', 'news'], en: 0.25 },
  { key: 'web-douyin', platform: 'web', about: 'douyin', retrieval: 'proxy', rate: 0.12, kinds: ['web_page', 'news'], en: 0.25 },
  { key: 'web-wechat', platform: 'web', about: 'wechat', retrieval: 'proxy', rate: 0.08, kinds: ['web_page', 'news'], en: 0.2 },
  { key: 'web', platform: 'web', about: '', retrieval: 'proxy', rate: 0.35, kinds: ['news', 'report', 'web_page'], en: 0.45 },
]

const PLATFORM_ZH: Record<Platform, string> = { xiaohongshu: '小红书', douyin: '抖音', wechat: '公众号' }
const PLATFORM_EN: Record<Platform, string> = { xiaohongshu: 'Xiaohongshu', douyin: 'Douyin', wechat: 'WeChat' }

// ---------------------------------------------------------------------------------------------
// Phrases. Tone phrases carry the frames (price, quality, ...) a reader would recognise.

const TONE_ZH: Record<Exclude<Tone, 'neu'>, Partial<Record<Frame, readonly string[]>>> = {
  pos: {
    price: ['性价比很高', '价格很划算', '这个价位真的值'],
    quality: ['质量很好', '效果很明显', '做工很扎实'],
    experience: ['体验超棒', '服务很贴心', '整个过程很舒服'],
    aesthetics: ['出片率很高', '拍照超好看', '氛围感满满'],
    general: ['强烈推荐', '真的很喜欢', '已经回购了'],
  },
  neg: {
    price: ['价格太贵了', '感觉是智商税', '性价比很低'],
    quality: ['质量一般', '用了两次就坏了', '有点失望'],
    experience: ['人太多了', '排队两小时', '服务态度很差'],
    safety: ['用完过敏了', '担心买到假货', '安全隐患不小'],
    general: ['踩雷了', '不推荐', '后悔了'],
  },
}
const NEUTRAL_ZH = ['记录一下', '整理了一份清单', '大家怎么看', '做个对比', '附上攻略']

const TONE_EN: Record<Exclude<Tone, 'neu'>, Partial<Record<Frame, readonly string[]>>> = {
  pos: {
    price: ['great value for money', 'worth every penny'],
    quality: ['really good quality', 'works really well'],
    experience: ['an amazing experience', 'super friendly staff'],
    aesthetics: ['so photogenic', 'lovely atmosphere'],
    general: ['highly recommend', 'absolutely love it'],
  },
  neg: {
    price: ['way too expensive', 'a total rip-off'],
    quality: ['poor quality', 'broke after two uses'],
    experience: ['far too crowded', 'queued for two hours'],
    safety: ['it gave me a rash', 'worried about fakes'],
    general: ['really disappointed', 'would not recommend'],
  },
}
const NEUTRAL_EN = ['sharing my notes', 'a quick comparison', 'full guide below', 'what do you think']

const OPENERS_ZH = ['今天', '周末', '第一次', '终于', '来聊聊', '实测', '被问了很多次的']
const OPENERS_EN = ['Finally tried', 'Weekend notes on', 'First time with', 'Honest take on', 'Trying out']
const WEB_AUTHORS_ZH = ['新消费观察', '生活方式研究室', '城市周刊', '趋势情报站', '消费洞察日报']
const WEB_AUTHORS_EN = ['Consumer Pulse Review', 'Lifestyle Trends Weekly', 'China Retail Notes', 'Trend Desk Digest']

// ---------------------------------------------------------------------------------------------
// Creators: fictional handles, tiered followers, home cities, and an engagement temperament.

interface Creator {
  handle: string
  platform: Platform
  category: Category
  followers: number
  city: string
  /** Multiplier on the platform's like rate. */
  quality: number
  /** Buys likes now and then: occasional spikes with few comments. */
  inflated: boolean
}

const CATEGORIES: readonly Category[] = ['outdoor', 'beauty', 'travel', 'lifestyle', 'fashion', 'pets']
const CREATORS_PER_POOL = 10
const HANDLE_A = ['山野', '慢慢', '小满', '橘子', '阿杰', '半糖', '森林', '晴天', '北北', '七七', '白桃', '鹿鸣', '青柠', '阿喵']
const HANDLE_B = ['日记', '研究所', '笔记', '同学', '酱', '小馆', '的日常', 'Vlog', '频道', '手帐', '在路上']
/** Followers range of each tier, [min, max); drawn log-uniformly. Weights: how common each tier is. */
const TIERS = [
  { min: 5_000_000, max: 12_000_000, weight: 0.05 },
  { min: 1_000_000, max: 5_000_000, weight: 0.1 },
  { min: 100_000, max: 1_000_000, weight: 0.25 },
  { min: 10_000, max: 100_000, weight: 0.3 },
  { min: 1_000, max: 10_000, weight: 0.18 },
  { min: 200, max: 1_000, weight: 0.12 },
] as const
/** Likes per view on each platform (reads for WeChat articles). */
const LIKE_RATE: Record<Platform, number> = { xiaohongshu: 0.05, douyin: 0.04, wechat: 0.012 }

function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!
}

function weighted<T extends { weight: number }>(rng: Rng, items: readonly T[]): T {
  let r = rng() * items.reduce((s, i) => s + i.weight, 0)
  for (const item of items) if ((r -= item.weight) < 0) return item
  return items.at(-1)!
}

function buildCreators(): Map<string, Creator[]> {
  const pools = new Map<string, Creator[]>()
  // Creators cluster in the gateway cities.
  const cities = ORIGIN_CITIES.filter((c) => c.tier <= 2).map((c) => ({ name: c.name, weight: c.tier === 1 ? 5 : 1 }))
  for (const platform of ['xiaohongshu', 'douyin', 'wechat'] as const) {
    for (const category of CATEGORIES) {
      const pool: Creator[] = []
      for (let i = 0; i < CREATORS_PER_POOL; i++) {
        const rng = rngFor('creator', platform, category, String(i))
        const tier = weighted(rng, TIERS)
        const followers = Math.round(Math.exp(between(rng, Math.log(tier.min), Math.log(tier.max))))
        const suffix = String(1000 + Math.floor(rng() * 9000))
        pool.push({
          handle: `${pick(rng, HANDLE_A)}${pick(rng, HANDLE_B)}_${suffix}`,
          platform,
          category,
          followers,
          city: weighted(rng, cities).name,
          quality: between(rng, 0.5, 1.6),
          inflated: rng() < 0.12,
        })
      }
      pools.set(`${platform}|${category}`, pool)
    }
  }
  return pools
}

// ---------------------------------------------------------------------------------------------
// Rows

export type EvidenceRow = {
  id: string
  month: string
  published_at: string
  platform: string
  about_platform: string
  retrieval: string
  source_kind: string
  category: string
  language: string
  author: string
  author_followers: number
  author_city: string
  title: string
  text: string
  likes: number
  comments: number
  shares: number
  views: number
}

const dayIndexOf = (date: string) => (Date.parse(`${date}T00:00:00Z`) - START_MS) / DAY_MS

function level(topic: Topic, day: number): number {
  if (topic.shape.kind === 'flat') return 1
  const from = dayIndexOf(topic.shape.from)
  return day < from ? 1 : Math.exp(topic.shape.perDay * (day - from))
}

/** Poisson draw (Knuth); the rates here stay small. */
function poisson(rng: Rng, lambda: number): number {
  const limit = Math.exp(-lambda)
  let k = 0
  let p = rng()
  while (p > limit) {
    k++
    p *= rng()
  }
  return k
}

function tone(topic: Topic, day: number, rng: Rng, brand: boolean): Tone {
  const shifted = topic.toneShift && day >= dayIndexOf(topic.toneShift.from) ? topic.toneShift : topic
  const p = brand && topic.brand ? topic.brand : shifted
  const r = rng()
  return r < p.pos ? 'pos' : r < p.pos + p.neg ? 'neg' : 'neu'
}

function tonePhrase(rng: Rng, t: Tone, lang: 'zh' | 'en'): string {
  if (t === 'neu') return pick(rng, lang === 'zh' ? NEUTRAL_ZH : NEUTRAL_EN)
  const byFrame = (lang === 'zh' ? TONE_ZH : TONE_EN)[t]
  return pick(rng, pick(rng, Object.values(byFrame)))
}

/** Body text: subject, theme, a tone clause (sometimes a contrast), a neutral detail, hashtags. */
function compose(rng: Rng, topic: Topic, t: Tone, lang: 'zh' | 'en', brand: boolean): { theme: string; body: string } {
  const i = Math.floor(rng() * topic.themesZh.length)
  const theme = lang === 'zh' ? topic.themesZh[i]! : topic.themesEn[i]!
  // Chinese posts often write a brand's English name beside its Chinese one.
  const zhBrand = (b: Brand) => (rng() < 0.6 ? `${b.en} ${b.zh}` : b.zh)
  const subject = brand && topic.brand ? (lang === 'zh' ? `${zhBrand(topic.brand)}${topic.zh}` : `${topic.brand.en} ${topic.en}`) : lang === 'zh' ? topic.zh : topic.en
  let clause = tonePhrase(rng, t, lang)
  // One item in eight states the opposite first and turns with "but": the turn decides the tone.
  if (t !== 'neu' && rng() < 0.125) {
    const other = tonePhrase(rng, t === 'pos' ? 'neg' : 'pos', lang)
    clause = lang === 'zh' ? `虽然${other}，但是${clause}` : `${other}, but ${clause}`
  }
  const detail = pick(rng, lang === 'zh' ? topic.detailsZh : topic.detailsEn)
  if (lang === 'zh') {
    const tags = [`#${topic.zh}`, `#${theme}`, ...(rng() < 0.4 ? [`#${topic.en.replaceAll(' ', '')}`] : [])]
    return { theme, body: `${pick(rng, OPENERS_ZH)}${subject}｜${theme}，${clause}。${detail}。${tags.join(' ')}` }
  }
  return { theme, body: `${pick(rng, OPENERS_EN)} ${subject} (${theme}): ${clause}. ${detail[0]!.toUpperCase()}${detail.slice(1)}. #${topic.en.replaceAll(' ', '')}` }
}

function webText(rng: Rng, topic: Topic, stream: Stream, kind: string, t: Tone, lang: 'zh' | 'en', brand: boolean): { title: string; text: string } {
  const { theme, body } = compose(rng, topic, t, lang, brand)
  const about = stream.about
  if (lang === 'zh') {
    const where = about ? `${PLATFORM_ZH[about]}上` : '社交平台上'
    const title = kind === 'report' ? `${topic.zh}趋势报告：${theme}` : kind === 'news' ? `${topic.zh}热度观察：${theme}受关注` : `${where}的${topic.zh}讨论：${theme}`
    return { title, text: `据${where}相关内容整理，${body}` }
  }
  const where = about ? `on ${PLATFORM_EN[about]}` : 'on Chinese social platforms'
  const title = kind === 'report' ? `${topic.en} trend report: ${theme}` : kind === 'news' ? `${topic.en} in focus: ${theme}` : `What people say about ${topic.en} ${where}`
  return { title, text: `Compiled from posts ${where}. ${body}` }
}

function isoDay(day: number): string {
  return new Date(START_MS + day * DAY_MS).toISOString().slice(0, 10)
}

function nativeRow(rng: Rng, base: Omit<EvidenceRow, 'author' | 'author_followers' | 'author_city' | 'title' | 'text' | 'likes' | 'comments' | 'shares' | 'views'>, topic: Topic, creator: Creator, heat: number, t: Tone, lang: 'zh' | 'en', brand: boolean): EvidenceRow {
  const { theme, body } = compose(rng, topic, t, lang, brand)
  // Platforms push content beyond followers: even a small account reaches a few hundred viewers.
  const views = Math.round(Math.max(creator.followers * between(rng, 0.03, 0.25), between(rng, 150, 2500)) * heat)
  let likes = Math.round(views * LIKE_RATE[creator.platform] * creator.quality * between(rng, 0.6, 1.4))
  const comments = Math.round(likes * between(rng, 0.04, 0.12))
  const shares = Math.round(likes * between(rng, 0.05, 0.2))
  // Bought likes: a spike without the comments real attention brings.
  if (creator.inflated && rng() < 0.25) likes = Math.round(likes * between(rng, 6, 15))
  const title = creator.platform === 'douyin' ? '' : lang === 'zh' ? `${topic.zh}｜${theme}` : `${topic.en}: ${theme}`
  return { ...base, author: creator.handle, author_followers: creator.followers, author_city: creator.city, title, text: body, likes, comments, shares, views }
}

export function generateEvidence(): EvidenceRow[] {
  const creators = buildCreators()
  const rows: EvidenceRow[] = []
  for (const topic of TOPICS) {
    for (let day = 0; day < DAYS; day++) {
      const date = isoDay(day)
      const weekend = [0, 6].includes(new Date(START_MS + day * DAY_MS).getUTCDay())
      const lvl = level(topic, day)
      // Attention per item moves with the topic: a cooling topic gets fewer likes per post too.
      const heat = lvl ** 0.3
      for (const stream of STREAMS) {
        if (stream.xhsNativeOnly && !topic.xhsNative) continue
        const n = poisson(rngFor('evidence-count', topic.slug, stream.key, date), stream.rate * topic.volume * lvl * (weekend ? 1.15 : 1))
        for (let k = 0; k < n; k++) {
          const id = `${stream.key}-${date.replaceAll('-', '')}-${topic.slug}-${k}`
          const rng = rngFor('evidence-item', id)
          const lang = rng() < stream.en ? 'en' : 'zh'
          const brand = Boolean(topic.brand) && rng() < 0.3
          const t = tone(topic, day, rng, brand)
          const seconds = Math.floor(between(rng, 7 * 3600, 24 * 3600))
          const published = new Date(START_MS + day * DAY_MS + seconds * 1000).toISOString().replace('.000Z', 'Z')
          const kind = pick(rng, stream.kinds)
          const base = {
            id, month: date.slice(0, 7), published_at: published, platform: stream.platform, about_platform: stream.about,
            retrieval: stream.retrieval, source_kind: kind, category: topic.category, language: lang,
          }
          if (stream.platform === 'web') {
            const { title, text } = webText(rng, topic, stream, kind, t, lang, brand)
            const author = pick(rng, lang === 'zh' ? WEB_AUTHORS_ZH : WEB_AUTHORS_EN)
            rows.push({ ...base, author, author_followers: 0, author_city: '', title, text, likes: 0, comments: 0, shares: 0, views: 0 })
          } else {
            const pool = creators.get(`${stream.platform}|${topic.category}`)!
            rows.push(nativeRow(rng, base, topic, pick(rng, pool), heat, t, lang, brand))
          }
        }
      }
    }
  }
  return rows
}
