/**
 * Live-mode buyer evaluation: questions a brand team, a travel company or an agent asks a seller whose
 * China routes run on live vendors, replayed through local servers answering as SearXNG, Bocha and
 * TikHub do (support/vendor-world.ts) over the sample world moved to today (./world.ts).
 *
 * Two sellers:
 * - `searxng`: a self-hosted SearXNG only, whose engines index the last 7 days and ignore the time range
 *   (what the issue found): no creators, and no window older than a week.
 * - `vendors`: TikHub for all three platforms (10 pages of 20 a window, creators looked up) and Bocha for
 *   the web (3 pages of 50, each window as a date range).
 *
 * Expectations were written from the world's definition and from what each vendor can reach, before any
 * answer was read: the topics that surge in the weekly data over the 30 days to the corpus end (quiet
 * luxury, smart driving, dopamine dressing: test/eval/questions.ts states their ratios) must never read
 * falling; brands' dispositions (praised, criticised) fix sentiment labels; things outside the world
 * (Nike, Tesla, Pop Mart, Starbucks, quantum computers) are a free 404; a KOL route needs creators, which
 * only TikHub gives (not for WeChat official accounts); a SearXNG that reaches a week cannot call a
 * direction for a window longer than half of that. The corpus was consulted only for whether a name has
 * evidence at all on a vendor (counts of posts naming it over the last 90 days), never for a direction or
 * a tone.
 */
export type Setup = 'searxng' | 'vendors'

export interface LiveQuestion {
  id: string
  setup: Setup
  route: 'china.trends' | 'china.trends.xiaohongshu' | 'china.trends.douyin' | 'china.trends.wechat' | 'china.sentiment' | 'china.kols' | 'capabilities.visibility' | 'capabilities.kol_shortlist'
  query: Record<string, string>
  lang: 'en' | 'zh'
  inWorld: boolean
  expect: {
    /** answered: 200; not_found: a free 404; refused: a free 422 native_provider_required */
    outcome: 'answered' | 'not_found' | 'refused'
    /** every cited excerpt names one of these (the off-topic check) */
    names?: string[]
    /** none: no direction may be stated (the vendor cannot reach the windows); not_falling: a surging topic */
    direction?: 'none' | 'not_falling'
    label?: 'positive' | 'negative'
    /** a shortlist of native creators with follower counts */
    creators?: boolean
    why: string
  }
}

const QUIET = ['Quiet luxury', '静奢风']
const SMART = ['Smart driving', '智能驾驶']
const DOPAMINE = ['Dopamine dressing', '多巴胺穿搭']
const TOKYO = ['Tokyo', '东京']
const CAMPING = ['Camping', '露营']
const DOWN = ['Down jacket', '羽绒服']
const surging = 'surges in the weekly data over the 30 days to the corpus end: never falling'

const trends = (id: string, setup: Setup, keyword: string, timeframe: string, lang: 'en' | 'zh', e: LiveQuestion['expect'], route: LiveQuestion['route'] = 'china.trends'): LiveQuestion =>
  ({ id, setup, route, query: { keyword, timeframe }, lang, inWorld: e.outcome !== 'not_found', expect: e })

export const LIVE_QUESTIONS: LiveQuestion[] = [
  // ---- TikHub + Bocha: trends ----
  trends('v-trends-quiet-30-en', 'vendors', 'quiet luxury', '30d', 'en', { outcome: 'answered', names: QUIET, direction: 'not_falling', why: `quiet luxury ${surging}` }),
  trends('v-trends-quiet-30-zh', 'vendors', '静奢风', '30d', 'zh', { outcome: 'answered', names: QUIET, direction: 'not_falling', why: `静奢风 ${surging}` }),
  trends('v-trends-quiet-7-zh', 'vendors', '静奢风', '7d', 'zh', { outcome: 'answered', names: QUIET, direction: 'not_falling', why: 'the surge is in the last weeks: the last 7 days do not fall' }),
  trends('v-trends-smart-30-en', 'vendors', 'smart driving', '30d', 'en', { outcome: 'answered', names: SMART, direction: 'not_falling', why: `smart driving ${surging}` }),
  trends('v-trends-smart-30-zh', 'vendors', '智能驾驶', '30d', 'zh', { outcome: 'answered', names: SMART, direction: 'not_falling', why: `智能驾驶 ${surging}` }),
  trends('v-trends-smart-14-zh', 'vendors', '智能驾驶', '14d', 'zh', { outcome: 'answered', names: SMART, direction: 'not_falling', why: 'inside the surge' }),
  trends('v-trends-dopamine-30-en', 'vendors', 'dopamine dressing', '30d', 'en', { outcome: 'answered', names: DOPAMINE, direction: 'not_falling', why: `dopamine dressing ${surging}` }),
  trends('v-trends-dopamine-30-zh', 'vendors', '多巴胺穿搭', '30d', 'zh', { outcome: 'answered', names: DOPAMINE, direction: 'not_falling', why: `多巴胺穿搭 ${surging}` }),
  trends('v-trends-down-14-en', 'vendors', 'down jackets', '14d', 'en', { outcome: 'answered', names: DOWN, why: 'a fashion topic with posts on every platform' }),
  trends('v-trends-down-14-zh', 'vendors', '羽绒服', '14d', 'zh', { outcome: 'answered', names: DOWN, why: 'a fashion topic with posts on every platform' }),
  trends('v-trends-tokyo-30-en', 'vendors', 'Tokyo', '30d', 'en', { outcome: 'answered', names: TOKYO, why: 'a destination of the flights data with posts on every platform' }),
  trends('v-trends-tokyo-30-zh', 'vendors', '东京', '30d', 'zh', { outcome: 'answered', names: TOKYO, why: 'a destination of the flights data with posts on every platform' }),
  trends('v-trends-camping-90-zh', 'vendors', '露营', '90d', 'zh', { outcome: 'answered', names: CAMPING, why: 'an outdoor topic with posts on every platform' }),
  trends('v-trends-smart-douyin', 'vendors', '智能驾驶', '14d', 'zh', { outcome: 'answered', names: SMART, direction: 'not_falling', why: 'Douyin holds the most smart-driving posts' }, 'china.trends.douyin'),
  trends('v-trends-quiet-xhs', 'vendors', '静奢风', '14d', 'zh', { outcome: 'answered', names: QUIET, direction: 'not_falling', why: 'Xiaohongshu holds the most quiet-luxury notes' }, 'china.trends.xiaohongshu'),
  trends('v-trends-tokyo-wechat', 'vendors', '东京', '30d', 'zh', { outcome: 'answered', names: TOKYO, why: 'WeChat articles about Tokyo exist' }, 'china.trends.wechat'),
  trends('v-trends-camping-wechat', 'vendors', 'camping', '30d', 'en', { outcome: 'answered', names: CAMPING, why: 'WeChat articles about camping exist' }, 'china.trends.wechat'),
  trends('v-absent-nike-en', 'vendors', 'Nike', '30d', 'en', { outcome: 'not_found', why: 'not a brand of the world: no vendor holds a post about it' }),
  trends('v-absent-nike-zh', 'vendors', '耐克', '30d', 'zh', { outcome: 'not_found', why: 'not a brand of the world' }),
  trends('v-absent-tesla-zh', 'vendors', '特斯拉', '30d', 'zh', { outcome: 'not_found', why: 'not a brand of the world' }),
  trends('v-absent-popmart-zh', 'vendors', '泡泡玛特', '30d', 'zh', { outcome: 'not_found', why: 'not a brand of the world' }),
  trends('v-absent-quantum-zh', 'vendors', '量子计算机', '30d', 'zh', { outcome: 'not_found', why: 'nothing of the world' }),
  trends('v-absent-quantum-en', 'vendors', 'quantum computer', '7d', 'en', { outcome: 'not_found', why: 'nothing of the world' }),

  // ---- TikHub + Bocha: sentiment ----
  ...([
    ['aurora', 'Aurora Skin', '极光肌', 'positive'],
    ['velvet', 'Velvet Moth', '绒蛾', 'negative'],
    ['nimbus', 'Nimbus Audio', '云雨声学', 'positive'],
    ['litterly', 'Litterly', '砂砂', 'negative'],
    ['tundra', 'Tundra Motors', '冻原汽车', 'negative'],
  ] as const).flatMap(([id, en, zh, label]): LiveQuestion[] => [
    { id: `v-sentiment-${id}-en`, setup: 'vendors', route: 'china.sentiment', query: { entity: en, timeframe: '90d' }, lang: 'en', inWorld: true, expect: { outcome: 'answered', names: [en, zh], label, why: `${en}: ${label === 'positive' ? 'praised' : 'criticised'} in the world (BRAND_DISPOSITION); its posts name it in Chinese` } },
    { id: `v-sentiment-${id}-zh`, setup: 'vendors', route: 'china.sentiment', query: { entity: zh, timeframe: '90d', lang: 'zh' }, lang: 'zh', inWorld: true, expect: { outcome: 'answered', names: [en, zh], label, why: `${zh}: ${label === 'positive' ? 'praised' : 'criticised'} in the world` } },
  ]),
  { id: 'v-sentiment-absent-starbucks', setup: 'vendors', route: 'china.sentiment', query: { entity: '星巴克', timeframe: '30d' }, lang: 'zh', inWorld: false, expect: { outcome: 'not_found', why: 'not a brand of the world' } },
  { id: 'v-sentiment-tokyo', setup: 'vendors', route: 'china.sentiment', query: { entity: '东京', timeframe: '30d', lang: 'zh' }, lang: 'zh', inWorld: true, expect: { outcome: 'answered', names: TOKYO, why: 'a destination with posts' } },

  // ---- TikHub + Bocha: KOLs ----
  ...([
    ['camping', '露营', undefined],
    ['camping-douyin', '露营', 'douyin'],
    ['camping-xhs', 'camping', 'xiaohongshu'],
    ['quiet-douyin', '静奢风', 'douyin'],
    ['quiet-xhs', 'quiet luxury', 'xiaohongshu'],
    ['smart', '智能驾驶', undefined],
    ['smart-xhs', '智能驾驶', 'xiaohongshu'],
    ['tokyo', '东京', undefined],
    ['down', '羽绒服', 'douyin'],
    ['dopamine', '多巴胺穿搭', 'xiaohongshu'],
  ] as const).map(([id, category, platform]): LiveQuestion => ({
    id: `v-kols-${id}`, setup: 'vendors', route: 'china.kols', query: { category, ...(platform ? { platform } : {}) }, lang: /[a-z]/.test(category) ? 'en' : 'zh', inWorld: true,
    expect: { outcome: 'answered', creators: true, why: `creators post about ${category}${platform ? ` on ${platform}` : ''}; TikHub gives them with followers (looked up where search lacks them)` },
  })),
  { id: 'v-kols-camping-wechat', setup: 'vendors', route: 'china.kols', query: { category: '露营', platform: 'wechat' }, lang: 'zh', inWorld: true, expect: { outcome: 'refused', why: 'official accounts have no follower counts: no WeChat creators to shortlist' } },
  { id: 'v-kols-absent-tesla', setup: 'vendors', route: 'china.kols', query: { category: '特斯拉' }, lang: 'zh', inWorld: false, expect: { outcome: 'not_found', why: 'no creator posts about it' } },
  { id: 'v-kols-absent-nike', setup: 'vendors', route: 'china.kols', query: { category: 'Nike', platform: 'douyin' }, lang: 'en', inWorld: false, expect: { outcome: 'not_found', why: 'no creator posts about it' } },

  // ---- TikHub + Bocha: wrappers ----
  { id: 'v-visibility-aurora', setup: 'vendors', route: 'capabilities.visibility', query: { brand_name: 'Aurora Skin' }, lang: 'en', inWorld: true, expect: { outcome: 'answered', why: 'a praised beauty brand with posts on every platform' } },
  { id: 'v-visibility-velvet', setup: 'vendors', route: 'capabilities.visibility', query: { brand_name: '绒蛾' }, lang: 'zh', inWorld: true, expect: { outcome: 'answered', why: 'a criticised brand with posts' } },
  { id: 'v-shortlist-camping', setup: 'vendors', route: 'capabilities.kol_shortlist', query: { brand_name: 'Aurora Skin', category: '露营' }, lang: 'zh', inWorld: true, expect: { outcome: 'answered', creators: true, why: 'camping creators exist on Douyin and Xiaohongshu' } },
  { id: 'v-shortlist-beauty', setup: 'vendors', route: 'capabilities.kol_shortlist', query: { brand_name: 'Aurora Skin', category: 'beauty' }, lang: 'en', inWorld: true, expect: { outcome: 'answered', creators: true, why: 'beauty is a category of the world whose creators write about skincare (护肤) on every platform' } },

  // ---- SearXNG only ----
  trends('s-trends-quiet-30-zh', 'searxng', '静奢风', '30d', 'zh', { outcome: 'answered', names: QUIET, direction: 'none', why: 'the engines reach 7 days back: no 30-day window is covered' }),
  trends('s-trends-quiet-90-en', 'searxng', 'quiet luxury', '90d', 'en', { outcome: 'answered', names: QUIET, direction: 'none', why: 'the issue’s case: 90 days from a week of pages' }),
  trends('s-trends-smart-30-zh', 'searxng', '智能驾驶', '30d', 'zh', { outcome: 'answered', names: SMART, direction: 'none', why: 'a week of pages cannot compare 30-day windows' }),
  trends('s-trends-smart-7-en', 'searxng', 'smart driving', '7d', 'en', { outcome: 'answered', names: SMART, direction: 'none', why: 'the prior 7-day window lies beyond the week the engines index' }),
  trends('s-trends-tokyo-14-zh', 'searxng', '东京', '14d', 'zh', { outcome: 'answered', names: TOKYO, direction: 'none', why: 'two 14-day windows from a week of pages' }),
  trends('s-trends-tokyo-30-en', 'searxng', 'Tokyo', '30d', 'en', { outcome: 'answered', names: TOKYO, direction: 'none', why: 'a week of pages' }),
  trends('s-trends-travel-30-zh', 'searxng', '旅行', '30d', 'zh', { outcome: 'answered', names: ['travel', 'trip', '旅行', '旅游'], direction: 'none', why: 'a week of pages' }),
  trends('s-trends-down-7-zh', 'searxng', '羽绒服', '7d', 'zh', { outcome: 'answered', names: DOWN, direction: 'none', why: 'the prior window lies beyond the index' }),
  trends('s-trends-smart-3-zh', 'searxng', '智能驾驶', '3d', 'zh', { outcome: 'answered', names: SMART, why: 'two 3-day windows lie inside the week indexed: a direction may be called' }),
  trends('s-trends-tokyo-3-zh', 'searxng', '东京', '3d', 'zh', { outcome: 'answered', names: TOKYO, why: 'inside the indexed week' }),
  trends('s-trends-smart-xhs-30', 'searxng', '智能驾驶', '30d', 'zh', { outcome: 'answered', names: SMART, direction: 'none', why: 'a proxy read of a week of pages' }, 'china.trends.xiaohongshu'),
  trends('s-absent-nike-zh', 'searxng', '耐克', '30d', 'zh', { outcome: 'not_found', why: 'no page about it' }),
  trends('s-absent-starbucks-en', 'searxng', 'Starbucks', '7d', 'en', { outcome: 'not_found', why: 'no page about it' }),
  { id: 's-sentiment-smart', setup: 'searxng', route: 'china.sentiment', query: { entity: '智能驾驶', timeframe: '30d' }, lang: 'zh', inWorld: true, expect: { outcome: 'answered', names: SMART, why: 'web pages about smart driving in the last week' } },
  { id: 's-sentiment-tokyo-en', setup: 'searxng', route: 'china.sentiment', query: { entity: 'Tokyo', timeframe: '7d' }, lang: 'en', inWorld: true, expect: { outcome: 'answered', names: TOKYO, why: 'web pages about Tokyo in the last week' } },
  { id: 's-kols-camping', setup: 'searxng', route: 'china.kols', query: { category: '露营' }, lang: 'zh', inWorld: true, expect: { outcome: 'refused', why: 'web search names no creators: a native provider is needed' } },
  { id: 's-kols-beauty-douyin', setup: 'searxng', route: 'china.kols', query: { category: 'beauty', platform: 'douyin' }, lang: 'en', inWorld: true, expect: { outcome: 'refused', why: 'web search names no creators' } },
  { id: 's-shortlist-aurora', setup: 'searxng', route: 'capabilities.kol_shortlist', query: { brand_name: 'Aurora Skin', category: 'beauty' }, lang: 'en', inWorld: true, expect: { outcome: 'refused', why: 'its required leg needs creators' } },
]
