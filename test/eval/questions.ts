/**
 * Buyer evaluation set of the China intelligence routes and the wrappers: ordinary questions a brand
 * team, a travel company or an AI agent asks, in English and Chinese (and codes such as TYO or JP),
 * about things of the sample world and things outside it. Every expectation was derived from the
 * world's definition and its data, never from an answer of the API (whose answering code was neither
 * read nor run): entities, names and dispositions from src/catalog/signal-categories.ts,
 * src/data/glossary.ts, src/data/sample-geography.ts and scripts/sample/signals-vocabulary.ts; the
 * glossary terms are things of the world too (the sample generator writes a category's terms into about
 * a third of its posts), asked about in English and Chinese and expected to resolve to the term.
 * Momentum only where signal_topics (posts) or signal_brands (mentions, all categories of a brand
 * together) fix it, all platforms together: the last 4 published weeks (2026-10-19..2026-11-15) against
 * the 4 weeks before, rising at a ratio >= 1.6 and falling at <= 0.6 with >= 3000 posts over the two
 * periods, and, to stay clear of count noise, the same threshold met over the 30-day windows of as_of
 * 2026-11-16 (weekly figures spread over their days); stable only for flat series of the same volume
 * (ratio within 0.95-1.05, both ways of counting). The topics that surge or fade in the last weeks
 * (TOPIC_TREND) get a direction only where they pass that rule: no topic or brand falls by it (esports
 * fades to 0.601, just short), and handheld-consoles rises to only 1.55 over 4 weeks. Sentiment labels
 * only for praised (positive) and criticised (negative) entities, over 90 days where a brand has only a
 * few posts a month. KOL expectations name the weekly top creators of the last published week
 * (engagement + views/10 in signal_creators; a creator's city as its posts give it). The evidence corpus
 * was consulted only for whether an entity has evidence at all (every answered question with names has
 * posts naming it), never for its direction or tone. Absent things were checked to occur neither as a
 * whole word or name of the world's vocabulary nor in the evidence corpus (single Chinese characters
 * occur there only inside longer words). Questions with the same `pair` must get identical answers
 * apart from the echoed input.
 */
export interface Question {
  id: string
  route: 'china.trends' | 'china.sentiment' | 'china.kols' | 'capabilities.visibility' | 'capabilities.kol_shortlist' | 'capabilities.destination_demand'
  query: Record<string, string>
  lang: 'en' | 'zh' | 'code'
  /** true: the asked thing exists in the sample world */
  inWorld: boolean
  /** questions with the same pair id must get identical answers apart from echoed input */
  pair?: string
  expect: {
    outcome: 'answered' | 'not_found'
    /** the entity the answer must be about (data.resolved.id), when answered and the route resolves one */
    about?: string
    /** any of these names (case-insensitive) must occur in every cited evidence excerpt: the off-topic check */
    names?: string[]
    momentum?: 'rising' | 'stable' | 'falling'
    label?: 'positive' | 'negative'
    notAction?: string
    anyCreatorOf?: string[]
    /** one line: what a buyer expects and which fact of the world fixes it */
    why?: string
  }
}

export const QUESTIONS: readonly Question[] = [
  {
    id: 'trends-cat-beauty-en', route: 'china.trends', query: { keyword: 'beauty', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-beauty',
    expect: { outcome: 'answered', about: 'category:beauty', why: 'a category of the weekly world: the slug and the Chinese name of the category (signal-categories.ts)' },
  },
  {
    id: 'trends-cat-beauty-zh', route: 'china.trends', query: { keyword: '美妆护肤', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-beauty',
    expect: { outcome: 'answered', about: 'category:beauty', why: 'a category of the weekly world: the slug and the Chinese name of the category (signal-categories.ts)' },
  },
  {
    id: 'trends-cat-travel-en', route: 'china.trends', query: { keyword: 'travel', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-travel',
    expect: { outcome: 'answered', about: 'category:travel', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-travel-zh', route: 'china.trends', query: { keyword: '旅行', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-travel',
    expect: { outcome: 'answered', about: 'category:travel', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-outdoor-en', route: 'china.trends', query: { keyword: 'outdoor', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-outdoor',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', why: 'a category of the weekly world: glossary synonyms of outdoor-sports' },
  },
  {
    id: 'trends-cat-outdoor-zh', route: 'china.trends', query: { keyword: '户外', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-outdoor',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', why: 'a category of the weekly world: glossary synonyms of outdoor-sports' },
  },
  {
    id: 'trends-cat-pets-en', route: 'china.trends', query: { keyword: 'pets', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-pets',
    expect: { outcome: 'answered', about: 'category:pets', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-pets-zh', route: 'china.trends', query: { keyword: '萌宠', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-pets',
    expect: { outcome: 'answered', about: 'category:pets', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-food-en', route: 'china.trends', query: { keyword: 'food', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-food',
    expect: { outcome: 'answered', about: 'category:food-beverage', why: 'a category of the weekly world: glossary synonyms and the F&B alias of food-beverage' },
  },
  {
    id: 'trends-cat-food-zh', route: 'china.trends', query: { keyword: '美食', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-food',
    expect: { outcome: 'answered', about: 'category:food-beverage', why: 'a category of the weekly world: glossary synonyms and the F&B alias of food-beverage' },
  },
  {
    id: 'trends-cat-food-code', route: 'china.trends', query: { keyword: 'F&B', timeframe: '30d' }, lang: 'code', inWorld: true, pair: 'trends-cat-food',
    expect: { outcome: 'answered', about: 'category:food-beverage', why: 'a category of the weekly world: glossary synonyms and the F&B alias of food-beverage' },
  },
  {
    id: 'trends-cat-electronics-en', route: 'china.trends', query: { keyword: 'consumer electronics', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-electronics',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', why: 'a category of the weekly world: glossary synonyms and the 3C alias of consumer-electronics' },
  },
  {
    id: 'trends-cat-electronics-zh', route: 'china.trends', query: { keyword: '数码', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-electronics',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', why: 'a category of the weekly world: glossary synonyms and the 3C alias of consumer-electronics' },
  },
  {
    id: 'trends-cat-electronics-code', route: 'china.trends', query: { keyword: '3C', timeframe: '30d' }, lang: 'code', inWorld: true, pair: 'trends-cat-electronics',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', why: 'a category of the weekly world: glossary synonyms and the 3C alias of consumer-electronics' },
  },
  {
    id: 'trends-cat-gaming-en', route: 'china.trends', query: { keyword: 'gaming', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-gaming',
    expect: { outcome: 'answered', about: 'category:gaming', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-gaming-zh', route: 'china.trends', query: { keyword: '游戏', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-gaming',
    expect: { outcome: 'answered', about: 'category:gaming', why: 'a category of the weekly world: the slug and the Chinese name of the category' },
  },
  {
    id: 'trends-cat-cars-en', route: 'china.trends', query: { keyword: 'cars', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cat-cars',
    expect: { outcome: 'answered', about: 'category:automotive', why: 'a category of the weekly world: glossary synonym (cars) and the Chinese name of automotive' },
  },
  {
    id: 'trends-cat-cars-zh', route: 'china.trends', query: { keyword: '汽车', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cat-cars',
    expect: { outcome: 'answered', about: 'category:automotive', why: 'a category of the weekly world: glossary synonym (cars) and the Chinese name of automotive' },
  },
  {
    id: 'trends-cat-skincare-en', route: 'china.trends', query: { keyword: 'skincare', timeframe: '30d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'category:beauty', why: 'skincare is a glossary synonym of beauty; a buyer means the beauty category, not the "Men\'s skincare" topic' },
  },
  {
    id: 'trends-sunscreen-en', route: 'china.trends', query: { keyword: 'sunscreen', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-sunscreen',
    expect: { outcome: 'answered', about: 'topic:sunscreen', names: ['Sunscreen', '防晒'], why: 'topic sunscreen: a beauty topic of the weekly data' },
  },
  {
    id: 'trends-sunscreen-zh', route: 'china.trends', query: { keyword: '防晒', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-sunscreen',
    expect: { outcome: 'answered', about: 'topic:sunscreen', names: ['Sunscreen', '防晒'], why: 'topic sunscreen by its Chinese name: a beauty topic of the weekly data' },
  },
  {
    id: 'trends-down-jackets-en', route: 'china.trends', query: { keyword: 'down jackets', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-down-jackets',
    expect: { outcome: 'answered', about: 'topic:down-jackets', names: ['Down jacket', '羽绒服'], why: 'topic down-jackets: a fashion topic (9.3k posts over 8 weeks) that fades in the last weeks, but only to ratio 0.83: no direction' },
  },
  {
    id: 'trends-down-jackets-zh', route: 'china.trends', query: { keyword: '羽绒服', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-down-jackets',
    expect: { outcome: 'answered', about: 'topic:down-jackets', names: ['Down jacket', '羽绒服'], why: 'topic down-jackets by its Chinese name: a fashion topic (9.3k posts over 8 weeks) that fades in the last weeks, but only to ratio 0.83: no direction' },
  },
  {
    id: 'trends-quiet-luxury-en', route: 'china.trends', query: { keyword: 'quiet luxury', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-quiet-luxury',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', names: ['Quiet luxury', '静奢风'], momentum: 'rising', why: 'topic quiet-luxury Expect rising: the luxury topic that surges in the last weeks: weekly posts 42048 (last 4 weeks) vs 17632 (4 weeks before): ratio 2.38; 30-day windows 2.51' },
  },
  {
    id: 'trends-quiet-luxury-zh', route: 'china.trends', query: { keyword: '静奢风', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-quiet-luxury',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', names: ['Quiet luxury', '静奢风'], momentum: 'rising', why: 'topic quiet-luxury by its Chinese name Expect rising: the luxury topic that surges in the last weeks: weekly posts 42048 (last 4 weeks) vs 17632 (4 weeks before): ratio 2.38; 30-day windows 2.51' },
  },
  {
    id: 'trends-smart-litter-boxes-en', route: 'china.trends', query: { keyword: 'smart litter boxes', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-smart-litter-boxes',
    expect: { outcome: 'answered', about: 'topic:smart-litter-boxes', names: ['Smart litter box', '智能猫砂盆'], why: 'topic smart-litter-boxes: the largest pets topic' },
  },
  {
    id: 'trends-smart-litter-boxes-zh', route: 'china.trends', query: { keyword: '智能猫砂盆', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-smart-litter-boxes',
    expect: { outcome: 'answered', about: 'topic:smart-litter-boxes', names: ['Smart litter box', '智能猫砂盆'], why: 'topic smart-litter-boxes by its Chinese name: the largest pets topic' },
  },
  {
    id: 'trends-tokyo-travel-en', route: 'china.trends', query: { keyword: 'Tokyo travel', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-tokyo-travel',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', names: ['Tokyo travel', '东京旅行'], why: 'topic tokyo-travel: a travel topic; the two-word name is the topic, not the city (ratio 0.78: no direction)' },
  },
  {
    id: 'trends-tokyo-travel-zh', route: 'china.trends', query: { keyword: '东京旅行', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-tokyo-travel',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', names: ['Tokyo travel', '东京旅行'], why: 'topic tokyo-travel by its Chinese name: a travel topic; the two-word name is the topic, not the city (ratio 0.78: no direction)' },
  },
  {
    id: 'trends-visa-free-trips-en', route: 'china.trends', query: { keyword: 'visa-free trips', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-visa-free-trips',
    expect: { outcome: 'answered', about: 'topic:visa-free-trips', names: ['Visa-free trip', '免签游'], why: 'topic visa-free-trips: a travel topic (ratio 0.79: no direction)' },
  },
  {
    id: 'trends-visa-free-trips-zh', route: 'china.trends', query: { keyword: '免签游', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-visa-free-trips',
    expect: { outcome: 'answered', about: 'topic:visa-free-trips', names: ['Visa-free trip', '免签游'], why: 'topic visa-free-trips by its Chinese name: a travel topic (ratio 0.79: no direction)' },
  },
  {
    id: 'trends-cream-style-en', route: 'china.trends', query: { keyword: 'cream-style interiors', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-cream-style',
    expect: { outcome: 'answered', about: 'topic:cream-style', names: ['Cream-style', '奶油风'], why: 'topic cream-style: a home-living topic that fades in the last weeks, but only to ratio 0.88: no direction' },
  },
  {
    id: 'trends-cream-style-zh', route: 'china.trends', query: { keyword: '奶油风', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-cream-style',
    expect: { outcome: 'answered', about: 'topic:cream-style', names: ['Cream-style', '奶油风'], why: 'topic cream-style by its Chinese name: a home-living topic that fades in the last weeks, but only to ratio 0.88: no direction' },
  },
  {
    id: 'trends-smart-driving-en', route: 'china.trends', query: { keyword: 'smart driving', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-smart-driving',
    expect: { outcome: 'answered', about: 'topic:smart-driving', names: ['Smart driving', '智能驾驶'], momentum: 'rising', why: 'topic smart-driving Expect rising: the automotive topic that surges in the last weeks: weekly posts 32665 (last 4 weeks) vs 18165 (4 weeks before): ratio 1.80; 30-day windows 1.88' },
  },
  {
    id: 'trends-smart-driving-zh', route: 'china.trends', query: { keyword: '智能驾驶', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-smart-driving',
    expect: { outcome: 'answered', about: 'topic:smart-driving', names: ['Smart driving', '智能驾驶'], momentum: 'rising', why: 'topic smart-driving by its Chinese name Expect rising: the automotive topic that surges in the last weeks: weekly posts 32665 (last 4 weeks) vs 18165 (4 weeks before): ratio 1.80; 30-day windows 1.88' },
  },
  {
    id: 'trends-family-travel-en', route: 'china.trends', query: { keyword: 'family travel', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-family-travel',
    expect: { outcome: 'answered', about: 'topic:family-travel', names: ['Family travel', '亲子游'], why: 'topic family-travel: a parenting topic' },
  },
  {
    id: 'trends-family-travel-zh', route: 'china.trends', query: { keyword: '亲子游', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-family-travel',
    expect: { outcome: 'answered', about: 'topic:family-travel', names: ['Family travel', '亲子游'], why: 'topic family-travel by its Chinese name: a parenting topic' },
  },
  {
    id: 'trends-new-chinese-style-en', route: 'china.trends', query: { keyword: 'New Chinese style', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-new-chinese-style',
    expect: { outcome: 'answered', about: 'topic:new-chinese-style', names: ['New Chinese style', '新中式'], why: 'topic new-chinese-style: a fashion topic' },
  },
  {
    id: 'trends-new-chinese-style-zh', route: 'china.trends', query: { keyword: '新中式', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-new-chinese-style',
    expect: { outcome: 'answered', about: 'topic:new-chinese-style', names: ['New Chinese style', '新中式'], why: 'topic new-chinese-style by its Chinese name: a fashion topic' },
  },
  {
    id: 'trends-watches-en', route: 'china.trends', query: { keyword: 'watches', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-watches',
    expect: { outcome: 'answered', about: 'topic:watches', names: ['Watch', '腕表'], why: 'topic watches: a luxury topic' },
  },
  {
    id: 'trends-watches-zh', route: 'china.trends', query: { keyword: '腕表', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-watches',
    expect: { outcome: 'answered', about: 'topic:watches', names: ['Watch', '腕表'], why: 'topic watches by its Chinese name: a luxury topic' },
  },
  {
    id: 'trends-dopamine-dressing-en', route: 'china.trends', query: { keyword: 'dopamine dressing', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dopamine-dressing',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', names: ['Dopamine dressing', '多巴胺穿搭'], momentum: 'rising', why: 'topic dopamine-dressing Expect rising: the fashion topic that surges in the last weeks: weekly posts 9476 (last 4 weeks) vs 3507 (4 weeks before): ratio 2.70; 30-day windows 2.74' },
  },
  {
    id: 'trends-dopamine-dressing-zh', route: 'china.trends', query: { keyword: '多巴胺穿搭', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dopamine-dressing',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', names: ['Dopamine dressing', '多巴胺穿搭'], momentum: 'rising', why: 'topic dopamine-dressing by its Chinese name Expect rising: the fashion topic that surges in the last weeks: weekly posts 9476 (last 4 weeks) vs 3507 (4 weeks before): ratio 2.70; 30-day windows 2.74' },
  },
  {
    id: 'trends-handheld-consoles-en', route: 'china.trends', query: { keyword: 'handheld consoles', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-handheld-consoles',
    expect: { outcome: 'answered', about: 'topic:handheld-consoles', names: ['Handheld console', '掌机'], why: 'topic handheld-consoles: the gaming topic that surges in the last weeks, but ratio 1.55 over 4 weeks (1.61 over the 30-day windows) is below the rising threshold: no direction, and no longer flat' },
  },
  {
    id: 'trends-handheld-consoles-zh', route: 'china.trends', query: { keyword: '掌机', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-handheld-consoles',
    expect: { outcome: 'answered', about: 'topic:handheld-consoles', names: ['Handheld console', '掌机'], why: 'topic handheld-consoles by its Chinese name: the gaming topic that surges in the last weeks, but ratio 1.55 over 4 weeks (1.61 over the 30-day windows) is below the rising threshold: no direction, and no longer flat' },
  },
  {
    id: 'trends-padel-en', route: 'china.trends', query: { keyword: 'padel', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-padel',
    expect: { outcome: 'answered', about: 'topic:padel', names: ['Padel', '板式网球'], momentum: 'stable', why: 'topic padel Expect stable: weekly posts 8105 vs 7856 (ratio 1.032; 30-day windows 1.047), flat series' },
  },
  {
    id: 'trends-padel-zh', route: 'china.trends', query: { keyword: '板式网球', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-padel',
    expect: { outcome: 'answered', about: 'topic:padel', names: ['Padel', '板式网球'], momentum: 'stable', why: 'topic padel by its Chinese name Expect stable: weekly posts 8105 vs 7856 (ratio 1.032; 30-day windows 1.047), flat series' },
  },
  {
    id: 'trends-hiking-en', route: 'china.trends', query: { keyword: 'hiking', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-hiking',
    expect: { outcome: 'answered', about: 'topic:hiking', names: ['Hiking', '徒步'], momentum: 'stable', why: 'topic hiking Expect stable: weekly posts 5678 vs 5520 (ratio 1.029; 30-day windows 1.044), flat series' },
  },
  {
    id: 'trends-hiking-zh', route: 'china.trends', query: { keyword: '徒步', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-hiking',
    expect: { outcome: 'answered', about: 'topic:hiking', names: ['Hiking', '徒步'], momentum: 'stable', why: 'topic hiking by its Chinese name Expect stable: weekly posts 5678 vs 5520 (ratio 1.029; 30-day windows 1.044), flat series' },
  },
  {
    id: 'trends-golden-week-en', route: 'china.trends', query: { keyword: 'Golden Week plans', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-golden-week',
    expect: { outcome: 'answered', about: 'topic:golden-week', names: ['Golden Week', '国庆出游'], momentum: 'stable', why: 'topic golden-week Expect stable: weekly posts 11282 vs 11035 (ratio 1.022; 30-day windows 1.020)' },
  },
  {
    id: 'trends-golden-week-zh', route: 'china.trends', query: { keyword: '国庆出游', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-golden-week',
    expect: { outcome: 'answered', about: 'topic:golden-week', names: ['Golden Week', '国庆出游'], momentum: 'stable', why: 'topic golden-week by its Chinese name Expect stable: weekly posts 11282 vs 11035 (ratio 1.022; 30-day windows 1.020)' },
  },
  {
    id: 'trends-esports-en', route: 'china.trends', query: { keyword: 'esports', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-esports',
    expect: { outcome: 'answered', about: 'topic:esports', names: ['Esports', '电竞'], why: 'topic esports: the gaming topic that fades in the last weeks: weekly posts 1508 vs 2509 (ratio 0.601; 30-day windows 0.581), just above the falling threshold over 4 weeks: no direction, and no longer flat' },
  },
  {
    id: 'trends-esports-zh', route: 'china.trends', query: { keyword: '电竞', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-esports',
    expect: { outcome: 'answered', about: 'topic:esports', names: ['Esports', '电竞'], why: 'topic esports by its Chinese name: the gaming topic that fades in the last weeks: weekly posts 1508 vs 2509 (ratio 0.601; 30-day windows 0.581), just above the falling threshold over 4 weeks: no direction, and no longer flat' },
  },
  {
    id: 'trends-ski-trips-en', route: 'china.trends', query: { keyword: 'ski trips', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-ski-trips',
    expect: { outcome: 'answered', about: 'topic:ski-trips', names: ['Ski trip', '滑雪旅行'], momentum: 'rising', why: 'topic ski-trips Expect rising: the travel topic that surges in the last weeks: weekly posts 19768 (last 4 weeks) vs 11997 (4 weeks before): ratio 1.65; 30-day windows 1.70' },
  },
  {
    id: 'trends-ski-trips-zh', route: 'china.trends', query: { keyword: '滑雪旅行', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-ski-trips',
    expect: { outcome: 'answered', about: 'topic:ski-trips', names: ['Ski trip', '滑雪旅行'], momentum: 'rising', why: 'topic ski-trips by its Chinese name Expect rising: the travel topic that surges in the last weeks: weekly posts 19768 (last 4 weeks) vs 11997 (4 weeks before): ratio 1.65; 30-day windows 1.70' },
  },
  {
    id: 'trends-baby-formula-en', route: 'china.trends', query: { keyword: 'baby formula', timeframe: '30d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'topic:baby-formula', names: ['Baby formula', '奶粉'], why: 'a parenting topic; ratio 1.57 is below the rising threshold, so no direction' },
  },
  {
    id: 'trends-morning-c-evening-a-zh', route: 'china.trends', query: { keyword: '早C晚A', timeframe: '30d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'topic:morning-c-evening-a', names: ['Morning C', '早C晚A'], why: 'a beauty topic written in mixed Chinese and Latin letters' },
  },
  {
    id: 'trends-luxury-unboxing-zh', route: 'china.trends', query: { keyword: '奢品开箱', timeframe: '30d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'topic:luxury-unboxing', names: ['Luxury unboxing', '奢品开箱'], why: 'a luxury topic (6.1k posts over 8 weeks) that fades in the last weeks, but only to ratio 0.89: no direction' },
  },
  {
    id: 'trends-low-sugar-en', route: 'china.trends', query: { keyword: 'low sugar', timeframe: '30d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'topic:low-sugar', names: ['Low sugar', '控糖'], momentum: 'rising', why: 'Expect rising: the food-beverage topic that surges in the last weeks: weekly posts 20274 (last 4 weeks) vs 11158 (4 weeks before): ratio 1.82; 30-day windows 1.85' },
  },
  {
    id: 'trends-sunscreen-xhs-en', route: 'china.trends', query: { keyword: 'sunscreen', platform: 'xiaohongshu', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-sunscreen-xhs',
    expect: { outcome: 'answered', about: 'topic:sunscreen', names: ['Sunscreen', '防晒'], why: 'the topic on the xiaohongshu lane, where the beauty topic is posted' },
  },
  {
    id: 'trends-sunscreen-xhs-zh', route: 'china.trends', query: { keyword: '防晒', platform: 'xiaohongshu', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-sunscreen-xhs',
    expect: { outcome: 'answered', about: 'topic:sunscreen', names: ['Sunscreen', '防晒'], why: 'the Chinese name on the same lane' },
  },
  {
    id: 'trends-orlanne-en', route: 'china.trends', query: { keyword: 'Orlanne', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-orlanne',
    expect: { outcome: 'answered', about: 'brand:orlanne', names: ['Orlanne', '奥兰妮'], momentum: 'rising', why: 'invented brand Orlanne Expect rising: weekly mentions 3123 (last 4 weeks) vs 947 (4 weeks before): ratio 3.30; 30-day windows 2.93' },
  },
  {
    id: 'trends-orlanne-zh', route: 'china.trends', query: { keyword: '奥兰妮', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-orlanne',
    expect: { outcome: 'answered', about: 'brand:orlanne', names: ['Orlanne', '奥兰妮'], momentum: 'rising', why: 'Orlanne by its Chinese name (BRAND_ZH) Expect rising: weekly mentions 3123 (last 4 weeks) vs 947 (4 weeks before): ratio 3.30; 30-day windows 2.93' },
  },
  {
    id: 'trends-quanta-charge-en', route: 'china.trends', query: { keyword: 'Quanta Charge', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-quanta-charge',
    expect: { outcome: 'answered', about: 'brand:quanta-charge', names: ['Quanta Charge', '量子充'], momentum: 'rising', why: 'invented brand Quanta Charge Expect rising: weekly mentions 3188 vs 1241: ratio 2.57; 30-day windows 2.47' },
  },
  {
    id: 'trends-quanta-charge-zh', route: 'china.trends', query: { keyword: '量子充', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-quanta-charge',
    expect: { outcome: 'answered', about: 'brand:quanta-charge', names: ['Quanta Charge', '量子充'], momentum: 'rising', why: 'Quanta Charge by its Chinese name (BRAND_ZH) Expect rising: weekly mentions 3188 vs 1241: ratio 2.57; 30-day windows 2.47' },
  },
  {
    id: 'trends-pocket-owl-en', route: 'china.trends', query: { keyword: 'Pocket Owl', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-pocket-owl',
    expect: { outcome: 'answered', about: 'brand:pocket-owl', names: ['Pocket Owl', '口袋猫头鹰'], momentum: 'rising', why: 'invented brand Pocket Owl Expect rising: weekly mentions 7022 vs 2988: ratio 2.35; 30-day windows 2.31' },
  },
  {
    id: 'trends-pocket-owl-zh', route: 'china.trends', query: { keyword: '口袋猫头鹰', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-pocket-owl',
    expect: { outcome: 'answered', about: 'brand:pocket-owl', names: ['Pocket Owl', '口袋猫头鹰'], momentum: 'rising', why: 'Pocket Owl by its Chinese name (BRAND_ZH) Expect rising: weekly mentions 7022 vs 2988: ratio 2.35; 30-day windows 2.31' },
  },
  {
    id: 'trends-halcyon-gold-en', route: 'china.trends', query: { keyword: 'Halcyon Gold', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-halcyon-gold',
    expect: { outcome: 'answered', about: 'brand:halcyon-gold', names: ['Halcyon Gold', '翠鸟金'], momentum: 'rising', why: 'invented brand Halcyon Gold Expect rising: weekly mentions 3438 vs 1821: ratio 1.89; 30-day windows 2.04' },
  },
  {
    id: 'trends-halcyon-gold-zh', route: 'china.trends', query: { keyword: '翠鸟金', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-halcyon-gold',
    expect: { outcome: 'answered', about: 'brand:halcyon-gold', names: ['Halcyon Gold', '翠鸟金'], momentum: 'rising', why: 'Halcyon Gold by its Chinese name (BRAND_ZH) Expect rising: weekly mentions 3438 vs 1821: ratio 1.89; 30-day windows 2.04' },
  },
  {
    id: 'trends-sweepbot-en', route: 'china.trends', query: { keyword: 'Sweepbot', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', names: ['Sweepbot', '扫宝'], why: 'invented brand Sweepbot: a home-living brand (ratio 1.19: no direction)' },
  },
  {
    id: 'trends-sweepbot-zh', route: 'china.trends', query: { keyword: '扫宝', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', names: ['Sweepbot', '扫宝'], why: 'Sweepbot by its Chinese name (BRAND_ZH): a home-living brand (ratio 1.19: no direction)' },
  },
  {
    id: 'trends-celestine-paris-en', route: 'china.trends', query: { keyword: 'Celestine Paris', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-celestine-paris',
    expect: { outcome: 'answered', about: 'brand:celestine-paris', names: ['Celestine Paris', '赛勒斯汀'], why: 'invented brand Celestine Paris: cross-listed luxury + beauty brand; all categories together ratio 1.47: no direction (luxury alone 1.61 would mislead)' },
  },
  {
    id: 'trends-celestine-paris-zh', route: 'china.trends', query: { keyword: '赛勒斯汀', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-celestine-paris',
    expect: { outcome: 'answered', about: 'brand:celestine-paris', names: ['Celestine Paris', '赛勒斯汀'], why: 'Celestine Paris by its Chinese name (BRAND_ZH): cross-listed luxury + beauty brand; all categories together ratio 1.47: no direction (luxury alone 1.61 would mislead)' },
  },
  {
    id: 'trends-velvet-moth-en', route: 'china.trends', query: { keyword: 'Velvet Moth', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', names: ['Velvet Moth', '绒蛾'], why: 'invented brand Velvet Moth: a beauty brand (ratio 1.58: no direction)' },
  },
  {
    id: 'trends-velvet-moth-zh', route: 'china.trends', query: { keyword: '绒蛾', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', names: ['Velvet Moth', '绒蛾'], why: 'Velvet Moth by its Chinese name (BRAND_ZH): a beauty brand (ratio 1.58: no direction)' },
  },
  {
    id: 'trends-nestwell-en', route: 'china.trends', query: { keyword: 'Nestwell', timeframe: '30d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:nestwell', names: ['Nestwell', '安巢'], why: 'mentions ratio 1.60 over 4 weeks but 1.57 over the 30-day windows: borderline, no direction' },
  },
  {
    id: 'trends-stoneflower-en', route: 'china.trends', query: { keyword: 'Stoneflower', timeframe: '30d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:stoneflower', names: ['Stoneflower', '石上花'], why: 'mentions ratio 1.70 over 4 weeks, 1.59 over the 30-day windows, 3.7k mentions: borderline, no direction' },
  },
  {
    id: 'trends-maison-verlaine-zh', route: 'china.trends', query: { keyword: '维兰之家', timeframe: '30d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:maison-verlaine', names: ['Maison Verlaine', '维兰之家'], why: 'a luxury house also covered in fashion; low volume (2k mentions over 8 weeks): no direction' },
  },
  {
    id: 'trends-term-skiing-en', route: 'china.trends', query: { keyword: 'ski', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-skiing',
    expect: { outcome: 'answered', about: 'term:skiing', names: ['ski trip', 'skiing', 'snowboarding', '滑雪', '单板'], why: '"ski" is a glossary name of the skiing term: it must not match skincare (a substring) — every excerpt is about skiing' },
  },
  {
    id: 'trends-term-skiing-zh', route: 'china.trends', query: { keyword: '滑雪', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-skiing',
    expect: { outcome: 'answered', about: 'term:skiing', names: ['ski trip', 'skiing', 'snowboarding', '滑雪', '单板'], why: '"ski" is a glossary name of the skiing term: it must not match skincare (a substring) — every excerpt is about skiing' },
  },
  {
    id: 'trends-term-denim-en', route: 'china.trends', query: { keyword: 'denim', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-denim',
    expect: { outcome: 'answered', about: 'term:denim', names: ['denim', 'jeans', '牛仔'], why: 'glossary term denim (fashion)' },
  },
  {
    id: 'trends-term-denim-zh', route: 'china.trends', query: { keyword: '牛仔', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-denim',
    expect: { outcome: 'answered', about: 'term:denim', names: ['denim', 'jeans', '牛仔'], why: 'glossary term denim (fashion)' },
  },
  {
    id: 'trends-term-outbound-travel-en', route: 'china.trends', query: { keyword: 'outbound travel', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-outbound-travel',
    expect: { outcome: 'answered', about: 'term:outbound-travel', names: ['outbound travel', 'travel abroad', 'overseas travel', '出境游', '出国游', '境外游'], why: 'glossary term outbound-travel; its posts are written in Chinese, the English query must find the same' },
  },
  {
    id: 'trends-term-outbound-travel-zh', route: 'china.trends', query: { keyword: '出境游', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-outbound-travel',
    expect: { outcome: 'answered', about: 'term:outbound-travel', names: ['outbound travel', 'travel abroad', 'overseas travel', '出境游', '出国游', '境外游'], why: 'glossary term outbound-travel; its posts are written in Chinese, the English query must find the same' },
  },
  {
    id: 'trends-term-diapers-en', route: 'china.trends', query: { keyword: 'diapers', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-diapers',
    expect: { outcome: 'answered', about: 'term:diapers', names: ['diaper', 'nappies', '纸尿裤', '尿不湿'], why: 'glossary term diapers (parenting)' },
  },
  {
    id: 'trends-term-diapers-zh', route: 'china.trends', query: { keyword: '纸尿裤', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-diapers',
    expect: { outcome: 'answered', about: 'term:diapers', names: ['diaper', 'nappies', '纸尿裤', '尿不湿'], why: 'glossary term diapers (parenting)' },
  },
  {
    id: 'trends-term-cat-litter-en', route: 'china.trends', query: { keyword: 'cat litter', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-cat-litter',
    expect: { outcome: 'answered', about: 'term:cat-litter', names: ['cat litter', '猫砂'], why: 'glossary term cat-litter (pets)' },
  },
  {
    id: 'trends-term-cat-litter-zh', route: 'china.trends', query: { keyword: '猫砂', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-cat-litter',
    expect: { outcome: 'answered', about: 'term:cat-litter', names: ['cat litter', '猫砂'], why: 'glossary term cat-litter (pets)' },
  },
  {
    id: 'trends-term-boutique-en', route: 'china.trends', query: { keyword: 'boutique', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-boutique',
    expect: { outcome: 'answered', about: 'term:boutique', names: ['boutique', 'flagship store', '专柜', '旗舰店'], why: 'glossary term boutique (luxury)' },
  },
  {
    id: 'trends-term-boutique-zh', route: 'china.trends', query: { keyword: '专柜', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-boutique',
    expect: { outcome: 'answered', about: 'term:boutique', names: ['boutique', 'flagship store', '专柜', '旗舰店'], why: 'glossary term boutique (luxury)' },
  },
  {
    id: 'trends-term-visa-en', route: 'china.trends', query: { keyword: 'visa', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-visa',
    expect: { outcome: 'answered', about: 'term:visa', names: ['visa', 'visas', '签证'], why: 'glossary term visa (travel), written into about a third of travel posts: a travel buyer asking about visas means the term, not the "Visa-free trips" topic' },
  },
  {
    id: 'trends-term-visa-zh', route: 'china.trends', query: { keyword: '签证', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-visa',
    expect: { outcome: 'answered', about: 'term:visa', names: ['visa', 'visas', '签证'], why: 'glossary term visa (travel), written into about a third of travel posts: a travel buyer asking about visas means the term, not the "Visa-free trips" topic' },
  },
  {
    id: 'trends-term-milk-tea-en', route: 'china.trends', query: { keyword: 'milk tea', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-milk-tea',
    expect: { outcome: 'answered', about: 'term:milk-tea', names: ['milk tea', 'bubble tea', '奶茶'], why: 'glossary term milk-tea (food-beverage), written into about a third of food-beverage posts: milk tea is a food-beverage term of its own, not the "New-style tea drinks" topic' },
  },
  {
    id: 'trends-term-milk-tea-zh', route: 'china.trends', query: { keyword: '奶茶', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-milk-tea',
    expect: { outcome: 'answered', about: 'term:milk-tea', names: ['milk tea', 'bubble tea', '奶茶'], why: 'glossary term milk-tea (food-beverage), written into about a third of food-beverage posts: milk tea is a food-beverage term of its own, not the "New-style tea drinks" topic' },
  },
  {
    id: 'trends-term-ev-en', route: 'china.trends', query: { keyword: 'EV', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-ev',
    expect: { outcome: 'answered', about: 'term:ev', names: ['EV', 'EVs', 'electric vehicle', 'electric car', 'new energy vehicle', '新能源汽车', '新能源车', '电动车', '电车'], why: 'glossary term ev (automotive), written into about a third of automotive posts: 电动车 is one of the term\'s Chinese names; its posts write EV or 新能源汽车' },
  },
  {
    id: 'trends-term-ev-zh', route: 'china.trends', query: { keyword: '电动车', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-ev',
    expect: { outcome: 'answered', about: 'term:ev', names: ['EV', 'EVs', 'electric vehicle', 'electric car', 'new energy vehicle', '新能源汽车', '新能源车', '电动车', '电车'], why: 'glossary term ev (automotive), written into about a third of automotive posts: 电动车 is one of the term\'s Chinese names; its posts write EV or 新能源汽车' },
  },
  {
    id: 'trends-term-gym-en', route: 'china.trends', query: { keyword: 'gym', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-gym',
    expect: { outcome: 'answered', about: 'term:gym', names: ['gym', 'workout', 'fitness', '健身', '健身房'], why: 'glossary term gym (outdoor-sports), written into about a third of outdoor-sports posts: gym and 健身 are names of the same outdoor-sports term' },
  },
  {
    id: 'trends-term-gym-zh', route: 'china.trends', query: { keyword: '健身', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-gym',
    expect: { outcome: 'answered', about: 'term:gym', names: ['gym', 'workout', 'fitness', '健身', '健身房'], why: 'glossary term gym (outdoor-sports), written into about a third of outdoor-sports posts: gym and 健身 are names of the same outdoor-sports term' },
  },
  {
    id: 'trends-term-pet-food-en', route: 'china.trends', query: { keyword: 'pet food', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-pet-food',
    expect: { outcome: 'answered', about: 'term:pet-food', names: ['pet food', 'dog food', 'kibble', '宠物食品', '宠物粮', '狗粮'], why: 'glossary term pet-food (pets), written into about a third of pets posts: pet food is a pets term of its own, not the "Cat food" topic' },
  },
  {
    id: 'trends-term-pet-food-zh', route: 'china.trends', query: { keyword: '宠物食品', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-pet-food',
    expect: { outcome: 'answered', about: 'term:pet-food', names: ['pet food', 'dog food', 'kibble', '宠物食品', '宠物粮', '狗粮'], why: 'glossary term pet-food (pets), written into about a third of pets posts: pet food is a pets term of its own, not the "Cat food" topic' },
  },
  {
    id: 'trends-term-tax-free-shopping-en', route: 'china.trends', query: { keyword: 'tax refund', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-tax-free-shopping',
    expect: { outcome: 'answered', about: 'term:tax-free-shopping', names: ['tax refund', 'tax-free shopping', '退税'], why: 'glossary term tax-free-shopping (travel), written into about a third of travel posts: a travel term; not the luxury "Duty-free shopping" topic' },
  },
  {
    id: 'trends-term-tax-free-shopping-zh', route: 'china.trends', query: { keyword: '退税', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-tax-free-shopping',
    expect: { outcome: 'answered', about: 'term:tax-free-shopping', names: ['tax refund', 'tax-free shopping', '退税'], why: 'glossary term tax-free-shopping (travel), written into about a third of travel posts: a travel term; not the luxury "Duty-free shopping" topic' },
  },
  {
    id: 'trends-term-gacha-en', route: 'china.trends', query: { keyword: 'gacha', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-gacha',
    expect: { outcome: 'answered', about: 'term:gacha', names: ['gacha', 'loot box', '抽卡', '氪金'], why: 'glossary term gacha (gaming), written into about a third of gaming posts: gacha and 抽卡 are names of the same gaming term' },
  },
  {
    id: 'trends-term-gacha-zh', route: 'china.trends', query: { keyword: '抽卡', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-gacha',
    expect: { outcome: 'answered', about: 'term:gacha', names: ['gacha', 'loot box', '抽卡', '氪金'], why: 'glossary term gacha (gaming), written into about a third of gaming posts: gacha and 抽卡 are names of the same gaming term' },
  },
  {
    id: 'trends-term-tailoring-en', route: 'china.trends', query: { keyword: 'tailoring', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-term-tailoring',
    expect: { outcome: 'answered', about: 'term:tailoring', names: ['tailoring', 'blazer', '西装', '西服'], why: 'glossary term tailoring (fashion), written into about a third of fashion posts: tailoring and 西装 are names of the same fashion term' },
  },
  {
    id: 'trends-term-tailoring-zh', route: 'china.trends', query: { keyword: '西装', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-term-tailoring',
    expect: { outcome: 'answered', about: 'term:tailoring', names: ['tailoring', 'blazer', '西装', '西服'], why: 'glossary term tailoring (fashion), written into about a third of fashion posts: tailoring and 西装 are names of the same fashion term' },
  },
  {
    id: 'trends-term-test-drive-zh', route: 'china.trends', query: { keyword: '试驾', timeframe: '30d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'term:test-drive', names: ['test drive', '试驾'], why: 'glossary term test-drive (automotive)' },
  },
  {
    id: 'trends-term-face-mask-zh', route: 'china.trends', query: { keyword: '面膜', timeframe: '30d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'term:face-mask', names: ['face mask', 'sheet mask', '面膜'], why: 'glossary term face-mask (beauty)' },
  },
  {
    id: 'trends-dest-tokyo-en', route: 'china.trends', query: { keyword: 'Tokyo', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', names: ['Tokyo', '东京'], why: 'destination TYO of sample-geography; the city, not the "Tokyo travel" topic' },
  },
  {
    id: 'trends-dest-tokyo-zh', route: 'china.trends', query: { keyword: '东京', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', names: ['Tokyo', '东京'], why: 'destination TYO of sample-geography; the city, not the "Tokyo travel" topic' },
  },
  {
    id: 'trends-dest-tokyo-code', route: 'china.trends', query: { keyword: 'TYO', timeframe: '30d' }, lang: 'code', inWorld: true, pair: 'trends-dest-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', names: ['Tokyo', '东京'], why: 'destination TYO of sample-geography; the city, not the "Tokyo travel" topic' },
  },
  {
    id: 'trends-dest-seoul-en', route: 'china.trends', query: { keyword: 'Seoul', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-seoul',
    expect: { outcome: 'answered', about: 'destination:SEL', names: ['Seoul', '首尔', 'Incheon'], why: 'destination SEL of sample-geography' },
  },
  {
    id: 'trends-dest-seoul-zh', route: 'china.trends', query: { keyword: '首尔', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-seoul',
    expect: { outcome: 'answered', about: 'destination:SEL', names: ['Seoul', '首尔', 'Incheon'], why: 'destination SEL of sample-geography' },
  },
  {
    id: 'trends-dest-seoul-code', route: 'china.trends', query: { keyword: 'SEL', timeframe: '30d' }, lang: 'code', inWorld: true, pair: 'trends-dest-seoul',
    expect: { outcome: 'answered', about: 'destination:SEL', names: ['Seoul', '首尔', 'Incheon'], why: 'destination SEL of sample-geography' },
  },
  {
    id: 'trends-dest-paris-en', route: 'china.trends', query: { keyword: 'Paris', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-paris',
    expect: { outcome: 'answered', about: 'destination:PAR', names: ['Paris', '巴黎'], why: 'destination PAR; the city, not the brand Celestine Paris' },
  },
  {
    id: 'trends-dest-paris-zh', route: 'china.trends', query: { keyword: '巴黎', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-paris',
    expect: { outcome: 'answered', about: 'destination:PAR', names: ['Paris', '巴黎'], why: 'destination PAR; the city, not the brand Celestine Paris' },
  },
  {
    id: 'trends-dest-bangkok-en', route: 'china.trends', query: { keyword: 'Bangkok', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-bangkok',
    expect: { outcome: 'answered', about: 'destination:BKK', names: ['Bangkok', '曼谷'], why: 'destination BKK of sample-geography' },
  },
  {
    id: 'trends-dest-bangkok-zh', route: 'china.trends', query: { keyword: '曼谷', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-bangkok',
    expect: { outcome: 'answered', about: 'destination:BKK', names: ['Bangkok', '曼谷'], why: 'destination BKK of sample-geography' },
  },
  {
    id: 'trends-dest-japan-en', route: 'china.trends', query: { keyword: 'Japan', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-japan',
    expect: { outcome: 'answered', about: 'country:JP', names: ['Japan', '日本', 'Tokyo', '东京', 'Osaka', '大阪', 'Kansai', 'Nagoya', '名古屋', 'Sapporo', '札幌', 'Hokkaido', 'Fukuoka', '福冈', 'Okinawa', '冲绳', 'Naha', '那霸'], why: 'country JP with its six destinations' },
  },
  {
    id: 'trends-dest-japan-zh', route: 'china.trends', query: { keyword: '日本', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-japan',
    expect: { outcome: 'answered', about: 'country:JP', names: ['Japan', '日本', 'Tokyo', '东京', 'Osaka', '大阪', 'Kansai', 'Nagoya', '名古屋', 'Sapporo', '札幌', 'Hokkaido', 'Fukuoka', '福冈', 'Okinawa', '冲绳', 'Naha', '那霸'], why: 'country JP with its six destinations' },
  },
  {
    id: 'trends-dest-japan-code', route: 'china.trends', query: { keyword: 'JP', timeframe: '30d' }, lang: 'code', inWorld: true, pair: 'trends-dest-japan',
    expect: { outcome: 'answered', about: 'country:JP', names: ['Japan', '日本', 'Tokyo', '东京', 'Osaka', '大阪', 'Kansai', 'Nagoya', '名古屋', 'Sapporo', '札幌', 'Hokkaido', 'Fukuoka', '福冈', 'Okinawa', '冲绳', 'Naha', '那霸'], why: 'country JP with its six destinations' },
  },
  {
    id: 'trends-dest-thailand-en', route: 'china.trends', query: { keyword: 'Thailand', timeframe: '30d' }, lang: 'en', inWorld: true, pair: 'trends-dest-thailand',
    expect: { outcome: 'answered', about: 'country:TH', names: ['Thailand', '泰国', 'Bangkok', '曼谷', 'Phuket', '普吉', 'Chiang Mai', 'Chiangmai', '清迈'], why: 'country TH with its destinations' },
  },
  {
    id: 'trends-dest-thailand-zh', route: 'china.trends', query: { keyword: '泰国', timeframe: '30d' }, lang: 'zh', inWorld: true, pair: 'trends-dest-thailand',
    expect: { outcome: 'answered', about: 'country:TH', names: ['Thailand', '泰国', 'Bangkok', '曼谷', 'Phuket', '普吉', 'Chiang Mai', 'Chiangmai', '清迈'], why: 'country TH with its destinations' },
  },
  {
    id: 'trends-dest-osaka-airport-code', route: 'china.trends', query: { keyword: 'KIX', timeframe: '30d' }, lang: 'code', inWorld: true,
    expect: { outcome: 'answered', about: 'destination:OSA', names: ['Osaka', '大阪', 'Kansai'], why: 'KIX is an airport of the OSA metropolitan area in sample-geography' },
  },
  {
    id: 'trends-creator-momo-travel-daily', route: 'china.trends', query: { keyword: 'momo_travel_daily', timeframe: '30d' }, lang: 'code', inWorld: true,
    expect: { outcome: 'answered', about: 'creator:momo_travel_daily', why: 'the top travel creator of the last published week (signal_creators); a buyer checking one creator' },
  },
  {
    id: 'trends-creator-dudu-beauty-daily', route: 'china.trends', query: { keyword: 'dudu_beauty_daily', timeframe: '30d' }, lang: 'code', inWorld: true,
    expect: { outcome: 'answered', about: 'creator:dudu_beauty_daily', why: 'the top beauty creator of the last published week' },
  },
  {
    id: 'trends-absent-nike-en', route: 'china.trends', query: { keyword: 'Nike', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the invented world' },
  },
  {
    id: 'trends-absent-nike-zh', route: 'china.trends', query: { keyword: '耐克', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the invented world' },
  },
  {
    id: 'trends-absent-starbucks-en', route: 'china.trends', query: { keyword: 'Starbucks', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-starbucks',
    expect: { outcome: 'not_found', why: 'a real coffee chain; the world has coffee topics but not this brand' },
  },
  {
    id: 'trends-absent-starbucks-zh', route: 'china.trends', query: { keyword: '星巴克', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-starbucks',
    expect: { outcome: 'not_found', why: 'a real coffee chain; the world has coffee topics but not this brand' },
  },
  {
    id: 'trends-absent-tesla-en', route: 'china.trends', query: { keyword: 'Tesla', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-tesla',
    expect: { outcome: 'not_found', why: 'a real carmaker; the world\'s car brands are invented' },
  },
  {
    id: 'trends-absent-tesla-zh', route: 'china.trends', query: { keyword: '特斯拉', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-tesla',
    expect: { outcome: 'not_found', why: 'a real carmaker; the world\'s car brands are invented' },
  },
  {
    id: 'trends-absent-pop-mart-en', route: 'china.trends', query: { keyword: 'Pop Mart', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-pop-mart',
    expect: { outcome: 'not_found', why: 'a real toy brand absent from the world' },
  },
  {
    id: 'trends-absent-pop-mart-zh', route: 'china.trends', query: { keyword: '泡泡玛特', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-pop-mart',
    expect: { outcome: 'not_found', why: 'a real toy brand absent from the world' },
  },
  {
    id: 'trends-absent-lisbon-en', route: 'china.trends', query: { keyword: 'Lisbon', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-lisbon',
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography and from the corpus' },
  },
  {
    id: 'trends-absent-lisbon-zh', route: 'china.trends', query: { keyword: '里斯本', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-lisbon',
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography and from the corpus' },
  },
  {
    id: 'trends-absent-yoga-en', route: 'china.trends', query: { keyword: 'yoga', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-yoga',
    expect: { outcome: 'not_found', why: 'an activity absent from every topic, term and category name' },
  },
  {
    id: 'trends-absent-yoga-zh', route: 'china.trends', query: { keyword: '瑜伽', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-yoga',
    expect: { outcome: 'not_found', why: 'an activity absent from every topic, term and category name' },
  },
  {
    id: 'trends-absent-golf-en', route: 'china.trends', query: { keyword: 'golf', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-golf',
    expect: { outcome: 'not_found', why: 'a sport absent from the world (padel and frisbee are its sports)' },
  },
  {
    id: 'trends-absent-golf-zh', route: 'china.trends', query: { keyword: '高尔夫', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-golf',
    expect: { outcome: 'not_found', why: 'a sport absent from the world (padel and frisbee are its sports)' },
  },
  {
    id: 'trends-absent-crypto-en', route: 'china.trends', query: { keyword: 'crypto', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-crypto',
    expect: { outcome: 'not_found', why: 'off-topic for a consumer-market world' },
  },
  {
    id: 'trends-absent-crypto-zh', route: 'china.trends', query: { keyword: '加密货币', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-crypto',
    expect: { outcome: 'not_found', why: 'off-topic for a consumer-market world' },
  },
  {
    id: 'trends-absent-hong-kong-en', route: 'china.trends', query: { keyword: 'Hong Kong', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-hong-kong',
    expect: { outcome: 'not_found', why: 'deliberately absent from sample-geography (destinations are abroad)' },
  },
  {
    id: 'trends-absent-hong-kong-zh', route: 'china.trends', query: { keyword: '香港', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-hong-kong',
    expect: { outcome: 'not_found', why: 'deliberately absent from sample-geography (destinations are abroad)' },
  },
  {
    id: 'trends-absent-kyoto-en', route: 'china.trends', query: { keyword: 'Kyoto', timeframe: '30d' }, lang: 'en', inWorld: false, pair: 'trends-absent-kyoto',
    expect: { outcome: 'not_found', why: 'a Japanese city absent from sample-geography; must not fall back to Japan or Tokyo' },
  },
  {
    id: 'trends-absent-kyoto-zh', route: 'china.trends', query: { keyword: '京都', timeframe: '30d' }, lang: 'zh', inWorld: false, pair: 'trends-absent-kyoto',
    expect: { outcome: 'not_found', why: 'a Japanese city absent from sample-geography; must not fall back to Japan or Tokyo' },
  },
  {
    id: 'trends-absent-anta-en', route: 'china.trends', query: { keyword: 'Anta', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a real brand; its letters occur only inside "Quanta Charge", never as a word' },
  },
  {
    id: 'trends-absent-lululemon-en', route: 'china.trends', query: { keyword: 'Lululemon', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a real brand absent from the world' },
  },
  {
    id: 'trends-absent-glowhaus-cosmetics-en', route: 'china.trends', query: { keyword: 'Glowhaus Cosmetics', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'an invented-sounding brand absent from the world; "cosmetics" alone is a beauty synonym but the brand is unknown, so no answer about beauty' },
  },
  {
    id: 'trends-absent-art-en', route: 'china.trends', query: { keyword: 'art', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside words (smart, party), never as a word or name of the world' },
  },
  {
    id: 'trends-absent-bloom-en', route: 'china.trends', query: { keyword: 'bloom', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside brand names (Mistbloom, Voltbloom, Bloombaby)' },
  },
  {
    id: 'trends-absent-star-en', route: 'china.trends', query: { keyword: 'star', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside brand names (Milkstar, Northstar Hybrid, Starforge Games)' },
  },
  {
    id: 'trends-absent-sun-en', route: 'china.trends', query: { keyword: 'sun', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside words (sunscreen, Sunnyseed)' },
  },
  {
    id: 'trends-absent-sky-en', route: 'china.trends', query: { keyword: 'sky', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside the brand name Skylark Trips' },
  },
  {
    id: 'trends-absent-nest-en', route: 'china.trends', query: { keyword: 'nest', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside brand names (Nestwell, Storynest)' },
  },
  {
    id: 'trends-absent-wise-en', route: 'china.trends', query: { keyword: 'wise', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside brand names (Pathwise, Boxwise)' },
  },
  {
    id: 'trends-absent-wheel-en', route: 'china.trends', query: { keyword: 'wheel', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside the brand name Spinwheel Cycles' },
  },
  {
    id: 'trends-absent-snow-en', route: 'china.trends', query: { keyword: 'snow', timeframe: '30d' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'occurs only inside words (Snowline Resorts, snowboarding)' },
  },
  {
    id: 'trends-absent-mei-zh', route: 'china.trends', query: { keyword: '美', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character that occurs only inside longer words (美妆, 美食, 美国)' },
  },
  {
    id: 'trends-absent-che-zh', route: 'china.trends', query: { keyword: '车', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character that occurs only inside longer words (汽车, 婴儿车, 玩车); not a glossary name' },
  },
  {
    id: 'trends-absent-cha-zh', route: 'china.trends', query: { keyword: '茶', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character that occurs only inside longer words (新茶饮, 奶茶, 潮茶)' },
  },
  {
    id: 'trends-absent-jiu-zh', route: 'china.trends', query: { keyword: '酒', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character (alcohol) that occurs only inside 酒店 (hotel)' },
  },
  {
    id: 'trends-absent-xue-zh', route: 'china.trends', query: { keyword: '雪', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character that occurs only inside longer words (滑雪, 雪线度假)' },
  },
  {
    id: 'trends-absent-sushi-zh-zh', route: 'china.trends', query: { keyword: '寿司', timeframe: '30d' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a food absent from the world' },
  },
  {
    id: 'sentiment-aurora-skin-en', route: 'china.sentiment', query: { entity: 'Aurora Skin' }, lang: 'en', inWorld: true, pair: 'sentiment-aurora-skin',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', names: ['Aurora Skin', '极光肌'], label: 'positive', why: 'Aurora Skin: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-aurora-skin-zh', route: 'china.sentiment', query: { entity: '极光肌' }, lang: 'zh', inWorld: true, pair: 'sentiment-aurora-skin',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', names: ['Aurora Skin', '极光肌'], label: 'positive', why: 'Aurora Skin by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-velvet-moth-en', route: 'china.sentiment', query: { entity: 'Velvet Moth' }, lang: 'en', inWorld: true, pair: 'sentiment-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', names: ['Velvet Moth', '绒蛾'], label: 'negative', why: 'Velvet Moth: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-velvet-moth-zh', route: 'china.sentiment', query: { entity: '绒蛾' }, lang: 'zh', inWorld: true, pair: 'sentiment-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', names: ['Velvet Moth', '绒蛾'], label: 'negative', why: 'Velvet Moth by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-nimbus-audio-en', route: 'china.sentiment', query: { entity: 'Nimbus Audio' }, lang: 'en', inWorld: true, pair: 'sentiment-nimbus-audio',
    expect: { outcome: 'answered', about: 'brand:nimbus-audio', names: ['Nimbus Audio', '云雨声学'], label: 'positive', why: 'Nimbus Audio: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-nimbus-audio-zh', route: 'china.sentiment', query: { entity: '云雨声学' }, lang: 'zh', inWorld: true, pair: 'sentiment-nimbus-audio',
    expect: { outcome: 'answered', about: 'brand:nimbus-audio', names: ['Nimbus Audio', '云雨声学'], label: 'positive', why: 'Nimbus Audio by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-sweepbot-en', route: 'china.sentiment', query: { entity: 'Sweepbot' }, lang: 'en', inWorld: true, pair: 'sentiment-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', names: ['Sweepbot', '扫宝'], label: 'positive', why: 'Sweepbot: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-sweepbot-zh', route: 'china.sentiment', query: { entity: '扫宝' }, lang: 'zh', inWorld: true, pair: 'sentiment-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', names: ['Sweepbot', '扫宝'], label: 'positive', why: 'Sweepbot by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-litterly-en', route: 'china.sentiment', query: { entity: 'Litterly' }, lang: 'en', inWorld: true, pair: 'sentiment-litterly',
    expect: { outcome: 'answered', about: 'brand:litterly', names: ['Litterly', '砂砂'], label: 'negative', why: 'Litterly: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-litterly-zh', route: 'china.sentiment', query: { entity: '砂砂' }, lang: 'zh', inWorld: true, pair: 'sentiment-litterly',
    expect: { outcome: 'answered', about: 'brand:litterly', names: ['Litterly', '砂砂'], label: 'negative', why: 'Litterly by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-tundra-motors-en', route: 'china.sentiment', query: { entity: 'Tundra Motors' }, lang: 'en', inWorld: true, pair: 'sentiment-tundra-motors',
    expect: { outcome: 'answered', about: 'brand:tundra-motors', names: ['Tundra Motors', '冻原汽车'], label: 'negative', why: 'Tundra Motors: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-tundra-motors-zh', route: 'china.sentiment', query: { entity: '冻原汽车' }, lang: 'zh', inWorld: true, pair: 'sentiment-tundra-motors',
    expect: { outcome: 'answered', about: 'brand:tundra-motors', names: ['Tundra Motors', '冻原汽车'], label: 'negative', why: 'Tundra Motors by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-cinder-byte-en', route: 'china.sentiment', query: { entity: 'Cinder Byte' }, lang: 'en', inWorld: true, pair: 'sentiment-cinder-byte',
    expect: { outcome: 'answered', about: 'brand:cinder-byte', names: ['Cinder Byte', '余火字节'], label: 'negative', why: 'Cinder Byte: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-cinder-byte-zh', route: 'china.sentiment', query: { entity: '余火字节' }, lang: 'zh', inWorld: true, pair: 'sentiment-cinder-byte',
    expect: { outcome: 'answered', about: 'brand:cinder-byte', names: ['Cinder Byte', '余火字节'], label: 'negative', why: 'Cinder Byte by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-trailforge-en', route: 'china.sentiment', query: { entity: 'Trailforge' }, lang: 'en', inWorld: true, pair: 'sentiment-trailforge',
    expect: { outcome: 'answered', about: 'brand:trailforge', names: ['Trailforge', '径锻'], label: 'positive', why: 'Trailforge: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-trailforge-zh', route: 'china.sentiment', query: { entity: '径锻' }, lang: 'zh', inWorld: true, pair: 'sentiment-trailforge',
    expect: { outcome: 'answered', about: 'brand:trailforge', names: ['Trailforge', '径锻'], label: 'positive', why: 'Trailforge by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-pawsome-pantry-en', route: 'china.sentiment', query: { entity: 'Pawsome Pantry' }, lang: 'en', inWorld: true, pair: 'sentiment-pawsome-pantry',
    expect: { outcome: 'answered', about: 'brand:pawsome-pantry', names: ['Pawsome Pantry', '爪爪食堂'], label: 'positive', why: 'Pawsome Pantry: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-pawsome-pantry-zh', route: 'china.sentiment', query: { entity: '爪爪食堂' }, lang: 'zh', inWorld: true, pair: 'sentiment-pawsome-pantry',
    expect: { outcome: 'answered', about: 'brand:pawsome-pantry', names: ['Pawsome Pantry', '爪爪食堂'], label: 'positive', why: 'Pawsome Pantry by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-bluefin-cruises-en', route: 'china.sentiment', query: { entity: 'Bluefin Cruises' }, lang: 'en', inWorld: true, pair: 'sentiment-bluefin-cruises',
    expect: { outcome: 'answered', about: 'brand:bluefin-cruises', names: ['Bluefin Cruises', '蓝鳍邮轮'], label: 'negative', why: 'Bluefin Cruises: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-bluefin-cruises-zh', route: 'china.sentiment', query: { entity: '蓝鳍邮轮' }, lang: 'zh', inWorld: true, pair: 'sentiment-bluefin-cruises',
    expect: { outcome: 'answered', about: 'brand:bluefin-cruises', names: ['Bluefin Cruises', '蓝鳍邮轮'], label: 'negative', why: 'Bluefin Cruises by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-summit-ant-en', route: 'china.sentiment', query: { entity: 'Summit Ant' }, lang: 'en', inWorld: true, pair: 'sentiment-summit-ant',
    expect: { outcome: 'answered', about: 'brand:summit-ant', names: ['Summit Ant', '峰蚁'], label: 'negative', why: 'Summit Ant: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-summit-ant-zh', route: 'china.sentiment', query: { entity: '峰蚁' }, lang: 'zh', inWorld: true, pair: 'sentiment-summit-ant',
    expect: { outcome: 'answered', about: 'brand:summit-ant', names: ['Summit Ant', '峰蚁'], label: 'negative', why: 'Summit Ant by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-ember-street-en', route: 'china.sentiment', query: { entity: 'Ember Street' }, lang: 'en', inWorld: true, pair: 'sentiment-ember-street',
    expect: { outcome: 'answered', about: 'brand:ember-street', names: ['Ember Street', '余烬街'], label: 'negative', why: 'Ember Street: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-ember-street-zh', route: 'china.sentiment', query: { entity: '余烬街' }, lang: 'zh', inWorld: true, pair: 'sentiment-ember-street',
    expect: { outcome: 'answered', about: 'brand:ember-street', names: ['Ember Street', '余烬街'], label: 'negative', why: 'Ember Street by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-hexa-mobile-en', route: 'china.sentiment', query: { entity: 'Hexa Mobile' }, lang: 'en', inWorld: true, pair: 'sentiment-hexa-mobile',
    expect: { outcome: 'answered', about: 'brand:hexa-mobile', names: ['Hexa Mobile', '六角移动'], label: 'negative', why: 'Hexa Mobile: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-hexa-mobile-zh', route: 'china.sentiment', query: { entity: '六角移动' }, lang: 'zh', inWorld: true, pair: 'sentiment-hexa-mobile',
    expect: { outcome: 'answered', about: 'brand:hexa-mobile', names: ['Hexa Mobile', '六角移动'], label: 'negative', why: 'Hexa Mobile by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-leaf-and-bubble-en', route: 'china.sentiment', query: { entity: 'Leaf & Bubble' }, lang: 'en', inWorld: true, pair: 'sentiment-leaf-and-bubble',
    expect: { outcome: 'answered', about: 'brand:leaf-and-bubble', names: ['Leaf & Bubble', '叶泡'], label: 'positive', why: 'Leaf & Bubble: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-leaf-and-bubble-zh', route: 'china.sentiment', query: { entity: '叶泡' }, lang: 'zh', inWorld: true, pair: 'sentiment-leaf-and-bubble',
    expect: { outcome: 'answered', about: 'brand:leaf-and-bubble', names: ['Leaf & Bubble', '叶泡'], label: 'positive', why: 'Leaf & Bubble by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-milkstar-en', route: 'china.sentiment', query: { entity: 'Milkstar' }, lang: 'en', inWorld: true, pair: 'sentiment-milkstar',
    expect: { outcome: 'answered', about: 'brand:milkstar', names: ['Milkstar', '奶星'], label: 'negative', why: 'Milkstar: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-milkstar-zh', route: 'china.sentiment', query: { entity: '奶星' }, lang: 'zh', inWorld: true, pair: 'sentiment-milkstar',
    expect: { outcome: 'answered', about: 'brand:milkstar', names: ['Milkstar', '奶星'], label: 'negative', why: 'Milkstar by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts' },
  },
  {
    id: 'sentiment-starforge-games-en', route: 'china.sentiment', query: { entity: 'Starforge Games' }, lang: 'en', inWorld: true, pair: 'sentiment-starforge-games',
    expect: { outcome: 'answered', about: 'brand:starforge-games', names: ['Starforge Games', '星锻游戏'], label: 'positive', why: 'Starforge Games: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-starforge-games-zh', route: 'china.sentiment', query: { entity: '星锻游戏' }, lang: 'zh', inWorld: true, pair: 'sentiment-starforge-games',
    expect: { outcome: 'answered', about: 'brand:starforge-games', names: ['Starforge Games', '星锻游戏'], label: 'positive', why: 'Starforge Games by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts' },
  },
  {
    id: 'sentiment-castellan-en', route: 'china.sentiment', query: { entity: 'Castellan', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-castellan',
    expect: { outcome: 'answered', about: 'brand:castellan', names: ['Castellan', '卡斯特兰'], label: 'positive', why: 'Castellan: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-castellan-zh', route: 'china.sentiment', query: { entity: '卡斯特兰', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-castellan',
    expect: { outcome: 'answered', about: 'brand:castellan', names: ['Castellan', '卡斯特兰'], label: 'positive', why: 'Castellan by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-vantor-en', route: 'china.sentiment', query: { entity: 'Vantor', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-vantor',
    expect: { outcome: 'answered', about: 'brand:vantor', names: ['Vantor', '梵拓'], label: 'negative', why: 'Vantor: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-vantor-zh', route: 'china.sentiment', query: { entity: '梵拓', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-vantor',
    expect: { outcome: 'answered', about: 'brand:vantor', names: ['Vantor', '梵拓'], label: 'negative', why: 'Vantor by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-chili-lantern-en', route: 'china.sentiment', query: { entity: 'Chili Lantern', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-chili-lantern',
    expect: { outcome: 'answered', about: 'brand:chili-lantern', names: ['Chili Lantern', '辣灯笼'], label: 'negative', why: 'Chili Lantern: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-chili-lantern-zh', route: 'china.sentiment', query: { entity: '辣灯笼', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-chili-lantern',
    expect: { outcome: 'answered', about: 'brand:chili-lantern', names: ['Chili Lantern', '辣灯笼'], label: 'negative', why: 'Chili Lantern by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-storynest-en', route: 'china.sentiment', query: { entity: 'Storynest', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-storynest',
    expect: { outcome: 'answered', about: 'brand:storynest', names: ['Storynest', '故事窝'], label: 'positive', why: 'Storynest: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-storynest-zh', route: 'china.sentiment', query: { entity: '故事窝', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-storynest',
    expect: { outcome: 'answered', about: 'brand:storynest', names: ['Storynest', '故事窝'], label: 'positive', why: 'Storynest by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-zephyr-ev-en', route: 'china.sentiment', query: { entity: 'Zephyr EV', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-zephyr-ev',
    expect: { outcome: 'answered', about: 'brand:zephyr-ev', names: ['Zephyr EV', '和风电动'], label: 'positive', why: 'Zephyr EV: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-zephyr-ev-zh', route: 'china.sentiment', query: { entity: '和风电动', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-zephyr-ev',
    expect: { outcome: 'answered', about: 'brand:zephyr-ev', names: ['Zephyr EV', '和风电动'], label: 'positive', why: 'Zephyr EV by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-skylark-trips-en', route: 'china.sentiment', query: { entity: 'Skylark Trips', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-skylark-trips',
    expect: { outcome: 'answered', about: 'brand:skylark-trips', names: ['Skylark Trips', '云雀旅行'], label: 'positive', why: 'Skylark Trips: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-skylark-trips-zh', route: 'china.sentiment', query: { entity: '云雀旅行', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-skylark-trips',
    expect: { outcome: 'answered', about: 'brand:skylark-trips', names: ['Skylark Trips', '云雀旅行'], label: 'positive', why: 'Skylark Trips by its Chinese name: BRAND_DISPOSITION praised: ~72% positive / 8% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-cream-cottage-en', route: 'china.sentiment', query: { entity: 'Cream Cottage', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-cream-cottage',
    expect: { outcome: 'answered', about: 'brand:cream-cottage', names: ['Cream Cottage', '奶油小屋'], label: 'negative', why: 'Cream Cottage: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-cream-cottage-zh', route: 'china.sentiment', query: { entity: '奶油小屋', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-cream-cottage',
    expect: { outcome: 'answered', about: 'brand:cream-cottage', names: ['Cream Cottage', '奶油小屋'], label: 'negative', why: 'Cream Cottage by its Chinese name: BRAND_DISPOSITION criticised: ~16% positive / 62% negative posts (90-day window: a small brand, few posts a month)' },
  },
  {
    id: 'sentiment-velvet-moth-zh-narrative', route: 'china.sentiment', query: { entity: '绒蛾', lang: 'zh' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:velvet-moth', names: ['Velvet Moth', '绒蛾'], label: 'negative', why: 'a Chinese buyer, Chinese narrative: the label does not depend on the narrative language (criticised)' },
  },
  {
    id: 'sentiment-sweepbot-zh-narrative', route: 'china.sentiment', query: { entity: '扫宝', lang: 'zh' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:sweepbot', names: ['Sweepbot', '扫宝'], label: 'positive', why: 'Chinese narrative of a praised brand' },
  },
  {
    id: 'sentiment-aurora-skin-en-zh-narrative', route: 'china.sentiment', query: { entity: 'Aurora Skin', lang: 'zh' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:aurora-skin', names: ['Aurora Skin', '极光肌'], label: 'positive', why: 'English entity, Chinese narrative (praised)' },
  },
  {
    id: 'sentiment-late-night-food-en', route: 'china.sentiment', query: { entity: 'late-night food' }, lang: 'en', inWorld: true, pair: 'sentiment-late-night-food',
    expect: { outcome: 'answered', about: 'topic:late-night-food', names: ['Late-night food', '夜宵'], label: 'positive', why: 'topic late-night-food: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-late-night-food-zh', route: 'china.sentiment', query: { entity: '夜宵' }, lang: 'zh', inWorld: true, pair: 'sentiment-late-night-food',
    expect: { outcome: 'answered', about: 'topic:late-night-food', names: ['Late-night food', '夜宵'], label: 'positive', why: 'topic late-night-food by its Chinese name: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-picture-books-en', route: 'china.sentiment', query: { entity: 'picture books' }, lang: 'en', inWorld: true, pair: 'sentiment-picture-books',
    expect: { outcome: 'answered', about: 'topic:picture-books', names: ['Picture book', '绘本'], label: 'positive', why: 'topic picture-books: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-picture-books-zh', route: 'china.sentiment', query: { entity: '绘本' }, lang: 'zh', inWorld: true, pair: 'sentiment-picture-books',
    expect: { outcome: 'answered', about: 'topic:picture-books', names: ['Picture book', '绘本'], label: 'positive', why: 'topic picture-books by its Chinese name: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-dopamine-dressing-en', route: 'china.sentiment', query: { entity: 'dopamine dressing' }, lang: 'en', inWorld: true, pair: 'sentiment-dopamine-dressing',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', names: ['Dopamine dressing', '多巴胺穿搭'], label: 'positive', why: 'topic dopamine-dressing: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-dopamine-dressing-zh', route: 'china.sentiment', query: { entity: '多巴胺穿搭' }, lang: 'zh', inWorld: true, pair: 'sentiment-dopamine-dressing',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', names: ['Dopamine dressing', '多巴胺穿搭'], label: 'positive', why: 'topic dopamine-dressing by its Chinese name: TOPIC_DISPOSITION praised' },
  },
  {
    id: 'sentiment-baby-formula-en', route: 'china.sentiment', query: { entity: 'baby formula' }, lang: 'en', inWorld: true, pair: 'sentiment-baby-formula',
    expect: { outcome: 'answered', about: 'topic:baby-formula', names: ['Baby formula', '奶粉'], label: 'negative', why: 'topic baby-formula: TOPIC_DISPOSITION criticised' },
  },
  {
    id: 'sentiment-baby-formula-zh', route: 'china.sentiment', query: { entity: '奶粉' }, lang: 'zh', inWorld: true, pair: 'sentiment-baby-formula',
    expect: { outcome: 'answered', about: 'topic:baby-formula', names: ['Baby formula', '奶粉'], label: 'negative', why: 'topic baby-formula by its Chinese name: TOPIC_DISPOSITION criticised' },
  },
  {
    id: 'sentiment-pre-owned-luxury-en', route: 'china.sentiment', query: { entity: 'pre-owned luxury', timeframe: '90d' }, lang: 'en', inWorld: true, pair: 'sentiment-pre-owned-luxury',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', names: ['Pre-owned luxury', '二奢'], label: 'negative', why: 'topic pre-owned-luxury: TOPIC_DISPOSITION criticised' },
  },
  {
    id: 'sentiment-pre-owned-luxury-zh', route: 'china.sentiment', query: { entity: '二奢', timeframe: '90d' }, lang: 'zh', inWorld: true, pair: 'sentiment-pre-owned-luxury',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', names: ['Pre-owned luxury', '二奢'], label: 'negative', why: 'topic pre-owned-luxury by its Chinese name: TOPIC_DISPOSITION criticised' },
  },
  {
    id: 'sentiment-cloudmilk-en', route: 'china.sentiment', query: { entity: 'Cloudmilk' }, lang: 'en', inWorld: true, pair: 'sentiment-cloudmilk',
    expect: { outcome: 'answered', about: 'brand:cloudmilk', names: ['Cloudmilk', '云乳'], why: 'mixed brand: answered, no label expected' },
  },
  {
    id: 'sentiment-cloudmilk-zh', route: 'china.sentiment', query: { entity: '云乳' }, lang: 'zh', inWorld: true, pair: 'sentiment-cloudmilk',
    expect: { outcome: 'answered', about: 'brand:cloudmilk', names: ['Cloudmilk', '云乳'], why: 'mixed brand by its Chinese name: answered, no label expected' },
  },
  {
    id: 'sentiment-celestine-paris-en', route: 'china.sentiment', query: { entity: 'Celestine Paris' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:celestine-paris', names: ['Celestine Paris', '赛勒斯汀'], why: 'mixed brand; the brand, not the city of Paris' },
  },
  {
    id: 'sentiment-jetleaf-air-en', route: 'china.sentiment', query: { entity: 'Jetleaf Air', timeframe: '90d' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:jetleaf-air', names: ['Jetleaf Air', '叶航'], why: 'mixed brand: answered, no label expected' },
  },
  {
    id: 'sentiment-kestrel-auto-zh', route: 'china.sentiment', query: { entity: '红隼汽车', timeframe: '90d' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:kestrel-auto', names: ['Kestrel Auto', '红隼汽车'], why: 'mixed brand: answered, no label expected' },
  },
  {
    id: 'sentiment-orlanne-en', route: 'china.sentiment', query: { entity: 'Orlanne' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:orlanne', names: ['Orlanne', '奥兰妮'], why: 'liked brand (not listed in BRAND_DISPOSITION): answered, no label expected' },
  },
  {
    id: 'sentiment-smart-driving-en', route: 'china.sentiment', query: { entity: 'smart driving' }, lang: 'en', inWorld: true, pair: 'sentiment-smart-driving',
    expect: { outcome: 'answered', about: 'topic:smart-driving', names: ['Smart driving', '智能驾驶'], why: 'mixed topic: answered, no label expected' },
  },
  {
    id: 'sentiment-smart-driving-zh', route: 'china.sentiment', query: { entity: '智能驾驶' }, lang: 'zh', inWorld: true, pair: 'sentiment-smart-driving',
    expect: { outcome: 'answered', about: 'topic:smart-driving', names: ['Smart driving', '智能驾驶'], why: 'mixed topic by its Chinese name' },
  },
  {
    id: 'sentiment-hotel-reviews-zh', route: 'china.sentiment', query: { entity: '酒店测评' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'topic:hotel-reviews', names: ['Hotel review', '酒店测评'], why: 'mixed topic: answered, no label expected' },
  },
  {
    id: 'sentiment-tokyo-en', route: 'china.sentiment', query: { entity: 'Tokyo' }, lang: 'en', inWorld: true, pair: 'sentiment-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', names: ['Tokyo', '东京'], why: 'destination TYO: answered about the city' },
  },
  {
    id: 'sentiment-tokyo-zh', route: 'china.sentiment', query: { entity: '东京' }, lang: 'zh', inWorld: true, pair: 'sentiment-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', names: ['Tokyo', '东京'], why: 'destination TYO by its Chinese name' },
  },
  {
    id: 'sentiment-beauty-en', route: 'china.sentiment', query: { entity: 'beauty' }, lang: 'en', inWorld: true, pair: 'sentiment-beauty',
    expect: { outcome: 'answered', about: 'category:beauty', why: 'the beauty category' },
  },
  {
    id: 'sentiment-beauty-zh', route: 'china.sentiment', query: { entity: '美妆护肤' }, lang: 'zh', inWorld: true, pair: 'sentiment-beauty',
    expect: { outcome: 'answered', about: 'category:beauty', why: 'the beauty category by its Chinese name' },
  },
  {
    id: 'sentiment-absent-nike-en', route: 'china.sentiment', query: { entity: 'Nike' }, lang: 'en', inWorld: false, pair: 'sentiment-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the invented world' },
  },
  {
    id: 'sentiment-absent-nike-zh', route: 'china.sentiment', query: { entity: '耐克' }, lang: 'zh', inWorld: false, pair: 'sentiment-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the invented world' },
  },
  {
    id: 'sentiment-absent-chanel-en', route: 'china.sentiment', query: { entity: 'Chanel' }, lang: 'en', inWorld: false, pair: 'sentiment-absent-chanel',
    expect: { outcome: 'not_found', why: 'a real luxury house absent from the world (its luxury brands are invented)' },
  },
  {
    id: 'sentiment-absent-chanel-zh', route: 'china.sentiment', query: { entity: '香奈儿' }, lang: 'zh', inWorld: false, pair: 'sentiment-absent-chanel',
    expect: { outcome: 'not_found', why: 'a real luxury house absent from the world (its luxury brands are invented)' },
  },
  {
    id: 'sentiment-absent-luckin-en', route: 'china.sentiment', query: { entity: 'Luckin Coffee' }, lang: 'en', inWorld: false, pair: 'sentiment-absent-luckin',
    expect: { outcome: 'not_found', why: 'a real coffee chain absent from the world' },
  },
  {
    id: 'sentiment-absent-luckin-zh', route: 'china.sentiment', query: { entity: '瑞幸' }, lang: 'zh', inWorld: false, pair: 'sentiment-absent-luckin',
    expect: { outcome: 'not_found', why: 'a real coffee chain absent from the world' },
  },
  {
    id: 'sentiment-absent-byd-en', route: 'china.sentiment', query: { entity: 'BYD' }, lang: 'en', inWorld: false, pair: 'sentiment-absent-byd',
    expect: { outcome: 'not_found', why: 'a real carmaker absent from the world' },
  },
  {
    id: 'sentiment-absent-byd-zh', route: 'china.sentiment', query: { entity: '比亚迪' }, lang: 'zh', inWorld: false, pair: 'sentiment-absent-byd',
    expect: { outcome: 'not_found', why: 'a real carmaker absent from the world' },
  },
  {
    id: 'sentiment-absent-glowhaus-cosmetics-en', route: 'china.sentiment', query: { entity: 'Glowhaus Cosmetics' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'unknown brand; must not answer with the sentiment of the beauty category' },
  },
  {
    id: 'sentiment-absent-anta-en', route: 'china.sentiment', query: { entity: 'Anta' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a real brand whose letters occur only inside "Quanta Charge"' },
  },
  {
    id: 'sentiment-absent-lisbon-en', route: 'china.sentiment', query: { entity: 'Lisbon' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography and the corpus' },
  },
  {
    id: 'sentiment-absent-mei-zh', route: 'china.sentiment', query: { entity: '美' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a single character that occurs only inside longer words' },
  },
  {
    id: 'kols-beauty-en', route: 'china.kols', query: { category: 'beauty' }, lang: 'en', inWorld: true, pair: 'kols-beauty',
    expect: { outcome: 'answered', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal', 'ayu_beauty_corner', 'lin_beauty_diary'], why: 'one of the top 5 beauty creators by engagement + views/10 in the week of 2026-11-09 (signal_creators) belongs on a shortlist for the category' },
  },
  {
    id: 'kols-beauty-zh', route: 'china.kols', query: { category: '美妆护肤' }, lang: 'zh', inWorld: true, pair: 'kols-beauty',
    expect: { outcome: 'answered', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal', 'ayu_beauty_corner', 'lin_beauty_diary'], why: 'the category by its Chinese name; top 5 beauty creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-travel-en', route: 'china.kols', query: { category: 'travel' }, lang: 'en', inWorld: true, pair: 'kols-travel',
    expect: { outcome: 'answered', anyCreatorOf: ['momo_travel_daily', 'tang_travel_studio', 'jiajia_travel_talks', 'nana_travel_talks', 'lulu_travel_diary'], why: 'one of the top 5 travel creators by engagement + views/10 in the week of 2026-11-09 (signal_creators) belongs on a shortlist for the category' },
  },
  {
    id: 'kols-travel-zh', route: 'china.kols', query: { category: '旅行' }, lang: 'zh', inWorld: true, pair: 'kols-travel',
    expect: { outcome: 'answered', anyCreatorOf: ['momo_travel_daily', 'tang_travel_studio', 'jiajia_travel_talks', 'nana_travel_talks', 'lulu_travel_diary'], why: 'the category by its Chinese name; top 5 travel creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-outdoor-en', route: 'china.kols', query: { category: 'outdoor' }, lang: 'en', inWorld: true, pair: 'kols-outdoor',
    expect: { outcome: 'answered', anyCreatorOf: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal', 'lele_outdoor_club', 'xiao_outdoor_lab'], why: 'one of the top 5 outdoor-sports creators by engagement + views/10 in the week of 2026-11-09 (signal_creators) belongs on a shortlist for the category' },
  },
  {
    id: 'kols-outdoor-zh', route: 'china.kols', query: { category: '户外' }, lang: 'zh', inWorld: true, pair: 'kols-outdoor',
    expect: { outcome: 'answered', anyCreatorOf: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal', 'lele_outdoor_club', 'xiao_outdoor_lab'], why: 'the category by its Chinese name; top 5 outdoor-sports creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-pets-en', route: 'china.kols', query: { category: 'pets' }, lang: 'en', inWorld: true, pair: 'kols-pets',
    expect: { outcome: 'answered', anyCreatorOf: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life', 'qiqi_pets_diary', 'coco_pets_talks'], why: 'one of the top 5 pets creators by engagement + views/10 in the week of 2026-11-09 (signal_creators) belongs on a shortlist for the category' },
  },
  {
    id: 'kols-pets-zh', route: 'china.kols', query: { category: '萌宠' }, lang: 'zh', inWorld: true, pair: 'kols-pets',
    expect: { outcome: 'answered', anyCreatorOf: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life', 'qiqi_pets_diary', 'coco_pets_talks'], why: 'the category by its Chinese name; top 5 pets creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-fashion-en', route: 'china.kols', query: { category: 'fashion' }, lang: 'en', inWorld: true, pair: 'kols-fashion',
    expect: { outcome: 'answered', anyCreatorOf: ['mimi_fashion_club', 'zhou_fashion_diary', 'jiajia_fashion_talks', 'nana_fashion_talks', 'kiki_fashion_club'], why: 'one of the top 5 fashion creators by engagement + views/10 in the week of 2026-11-09 (signal_creators) belongs on a shortlist for the category' },
  },
  {
    id: 'kols-fashion-zh', route: 'china.kols', query: { category: '时尚穿搭' }, lang: 'zh', inWorld: true, pair: 'kols-fashion',
    expect: { outcome: 'answered', anyCreatorOf: ['mimi_fashion_club', 'zhou_fashion_diary', 'jiajia_fashion_talks', 'nana_fashion_talks', 'kiki_fashion_club'], why: 'the category by its Chinese name; top 5 fashion creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-luxury-en', route: 'china.kols', query: { category: 'luxury' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['ayu_luxury_club', 'ayu_luxury_journal', 'jiajia_luxury_club', 'mimi_luxury_diary', 'dudu_luxury_diary'], why: 'top 5 luxury creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-gaming-en', route: 'china.kols', query: { category: 'gaming' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['zhou_gaming_diary', 'ayu_gaming_talks', 'yoyo_gaming_diary', 'ayu_gaming_talks0', 'lulu_gaming_corner'], why: 'top 5 gaming creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-parenting-zh', route: 'china.kols', query: { category: '母婴' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes', 'coco_parenting_life', 'zhou_parenting_talks'], why: '母婴 is a glossary name of parenting; top 5 parenting creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-home-living-en', route: 'china.kols', query: { category: 'home-living' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['mimi_home_notes', 'nana_home_journal', 'tang_home_daily', 'ranran_home_journal', 'kiki_home_journal'], why: 'top 5 home-living creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kols-travel-xhs-en', route: 'china.kols', query: { category: 'travel', platform: 'xiaohongshu' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['momo_travel_daily', 'jiajia_travel_talks', 'nana_travel_talks', 'mimi_travel_corner', 'lele_travel_studio'], why: 'top 5 travel creators on xiaohongshu in the week of 2026-11-09' },
  },
  {
    id: 'kols-beauty-douyin-en', route: 'china.kols', query: { category: 'beauty', platform: 'douyin' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['qiqi_beauty_corner', 'lin_beauty_diary', 'nana_beauty_studio', 'ranran_beauty_picks', 'lele_beauty_lab'], why: 'top 5 beauty creators on douyin in the week of 2026-11-09' },
  },
  {
    id: 'kols-travel-beijing-en', route: 'china.kols', query: { category: 'travel', city: 'Beijing' }, lang: 'en', inWorld: true, pair: 'kols-travel-beijing',
    expect: { outcome: 'answered', anyCreatorOf: ['tang_travel_studio', 'jiajia_travel_talks', 'mimi_travel_corner', 'momo_travel_daily3', 'nana_travel_corner'], why: 'top weekly travel creators whose posts are written from Beijing' },
  },
  {
    id: 'kols-travel-beijing-zh', route: 'china.kols', query: { category: 'travel', city: '北京' }, lang: 'zh', inWorld: true, pair: 'kols-travel-beijing',
    expect: { outcome: 'answered', anyCreatorOf: ['tang_travel_studio', 'jiajia_travel_talks', 'mimi_travel_corner', 'momo_travel_daily3', 'nana_travel_corner'], why: 'the same city in Chinese' },
  },
  {
    id: 'kols-luxury-shanghai-en', route: 'china.kols', query: { category: 'luxury', city: 'Shanghai' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['ayu_luxury_club', 'ayu_luxury_journal', 'mimi_luxury_diary', 'mimi_luxury_corner', 'bobo_luxury_guide'], why: 'top weekly luxury creators whose posts are written from Shanghai' },
  },
  {
    id: 'kols-beauty-mega-en', route: 'china.kols', query: { category: 'beauty', tier: 'mega' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner'], why: 'the two weekly top beauty creators with >= 5M followers (5.55M and 7.36M)' },
  },
  {
    id: 'kols-absent-crypto-en', route: 'china.kols', query: { category: 'crypto' }, lang: 'en', inWorld: false, pair: 'kols-absent-crypto',
    expect: { outcome: 'not_found', why: 'no creator of the world posts about crypto' },
  },
  {
    id: 'kols-absent-crypto-zh', route: 'china.kols', query: { category: '加密货币' }, lang: 'zh', inWorld: false, pair: 'kols-absent-crypto',
    expect: { outcome: 'not_found', why: 'no creator of the world posts about crypto' },
  },
  {
    id: 'visibility-velvet-moth-en', route: 'capabilities.visibility', query: { brand_name: 'Velvet Moth' }, lang: 'en', inWorld: true, pair: 'visibility-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', notAction: 'amplify', why: 'Velvet Moth is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-velvet-moth-zh', route: 'capabilities.visibility', query: { brand_name: '绒蛾' }, lang: 'zh', inWorld: true, pair: 'visibility-velvet-moth',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', notAction: 'amplify', why: 'Velvet Moth is criticised (~62% negative posts): a buyer must not be told to amplify it (Chinese name)' },
  },
  {
    id: 'visibility-tundra-motors-en', route: 'capabilities.visibility', query: { brand_name: 'Tundra Motors' }, lang: 'en', inWorld: true, pair: 'visibility-tundra-motors',
    expect: { outcome: 'answered', about: 'brand:tundra-motors', notAction: 'amplify', why: 'Tundra Motors is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-tundra-motors-zh', route: 'capabilities.visibility', query: { brand_name: '冻原汽车' }, lang: 'zh', inWorld: true, pair: 'visibility-tundra-motors',
    expect: { outcome: 'answered', about: 'brand:tundra-motors', notAction: 'amplify', why: 'Tundra Motors is criticised (~62% negative posts): a buyer must not be told to amplify it (Chinese name)' },
  },
  {
    id: 'visibility-litterly-en', route: 'capabilities.visibility', query: { brand_name: 'Litterly' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:litterly', notAction: 'amplify', why: 'Litterly is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-cinder-byte-en', route: 'capabilities.visibility', query: { brand_name: 'Cinder Byte' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:cinder-byte', notAction: 'amplify', why: 'Cinder Byte is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-bluefin-cruises-en', route: 'capabilities.visibility', query: { brand_name: 'Bluefin Cruises' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:bluefin-cruises', notAction: 'amplify', why: 'Bluefin Cruises is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-hexa-mobile-en', route: 'capabilities.visibility', query: { brand_name: 'Hexa Mobile' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:hexa-mobile', notAction: 'amplify', why: 'Hexa Mobile is criticised (~62% negative posts): a buyer must not be told to amplify it' },
  },
  {
    id: 'visibility-sweepbot-en', route: 'capabilities.visibility', query: { brand_name: 'Sweepbot' }, lang: 'en', inWorld: true, pair: 'visibility-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', notAction: 'rebuild', why: 'Sweepbot is praised (~72% positive posts) with steady or growing mentions: no reason to rebuild' },
  },
  {
    id: 'visibility-sweepbot-zh', route: 'capabilities.visibility', query: { brand_name: '扫宝' }, lang: 'zh', inWorld: true, pair: 'visibility-sweepbot',
    expect: { outcome: 'answered', about: 'brand:sweepbot', notAction: 'rebuild', why: 'Sweepbot is praised (~72% positive posts) with steady or growing mentions: no reason to rebuild (Chinese name)' },
  },
  {
    id: 'visibility-nimbus-audio-en', route: 'capabilities.visibility', query: { brand_name: 'Nimbus Audio' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:nimbus-audio', notAction: 'rebuild', why: 'Nimbus Audio is praised (~72% positive posts) with steady or growing mentions: no reason to rebuild' },
  },
  {
    id: 'visibility-trailforge-en', route: 'capabilities.visibility', query: { brand_name: 'Trailforge' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:trailforge', notAction: 'rebuild', why: 'Trailforge is praised (~72% positive posts) with steady or growing mentions: no reason to rebuild' },
  },
  {
    id: 'visibility-orlanne-en', route: 'capabilities.visibility', query: { brand_name: 'Orlanne' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:orlanne', why: 'a weekly signals brand with strongly rising mentions: answered' },
  },
  {
    id: 'visibility-celestine-paris-zh', route: 'capabilities.visibility', query: { brand_name: '赛勒斯汀' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'brand:celestine-paris', why: 'a cross-listed brand by its Chinese name: answered' },
  },
  {
    id: 'visibility-absent-nike-en', route: 'capabilities.visibility', query: { brand_name: 'Nike' }, lang: 'en', inWorld: false, pair: 'visibility-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the world' },
  },
  {
    id: 'visibility-absent-nike-zh', route: 'capabilities.visibility', query: { brand_name: '耐克' }, lang: 'zh', inWorld: false, pair: 'visibility-absent-nike',
    expect: { outcome: 'not_found', why: 'a real brand absent from the world' },
  },
  {
    id: 'visibility-absent-sephora-en', route: 'capabilities.visibility', query: { brand_name: 'Sephora' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a real retailer absent from the world' },
  },
  {
    id: 'visibility-absent-glowhaus-cosmetics-en', route: 'capabilities.visibility', query: { brand_name: 'Glowhaus Cosmetics' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'unknown brand: no visibility score made of beauty-category evidence' },
  },
  {
    id: 'visibility-absent-huaxizi-zh', route: 'capabilities.visibility', query: { brand_name: '花西子' }, lang: 'zh', inWorld: false,
    expect: { outcome: 'not_found', why: 'a real Chinese beauty brand absent from the world' },
  },
  {
    id: 'kol-shortlist-aurora-skin-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Aurora Skin', category: 'beauty' }, lang: 'en', inWorld: true, pair: 'kol-shortlist-aurora-skin',
    expect: { outcome: 'answered', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal', 'ayu_beauty_corner', 'lin_beauty_diary'], why: 'praised beauty brand; top 5 beauty creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-aurora-skin-zh', route: 'capabilities.kol_shortlist', query: { brand_name: '极光肌', category: '美妆护肤' }, lang: 'zh', inWorld: true, pair: 'kol-shortlist-aurora-skin',
    expect: { outcome: 'answered', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal', 'ayu_beauty_corner', 'lin_beauty_diary'], why: 'the same request in Chinese; top 5 beauty creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-trailforge-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Trailforge', category: 'outdoor' }, lang: 'en', inWorld: true, pair: 'kol-shortlist-trailforge',
    expect: { outcome: 'answered', anyCreatorOf: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal', 'lele_outdoor_club', 'xiao_outdoor_lab'], why: 'praised outdoor-sports brand; top 5 outdoor-sports creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-trailforge-zh', route: 'capabilities.kol_shortlist', query: { brand_name: '径锻', category: '户外' }, lang: 'zh', inWorld: true, pair: 'kol-shortlist-trailforge',
    expect: { outcome: 'answered', anyCreatorOf: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal', 'lele_outdoor_club', 'xiao_outdoor_lab'], why: 'the same request in Chinese; top 5 outdoor-sports creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-pawsome-pantry-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Pawsome Pantry', category: 'pets' }, lang: 'en', inWorld: true, pair: 'kol-shortlist-pawsome-pantry',
    expect: { outcome: 'answered', anyCreatorOf: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life', 'qiqi_pets_diary', 'coco_pets_talks'], why: 'praised pets brand; top 5 pets creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-pawsome-pantry-zh', route: 'capabilities.kol_shortlist', query: { brand_name: '爪爪食堂', category: '萌宠' }, lang: 'zh', inWorld: true, pair: 'kol-shortlist-pawsome-pantry',
    expect: { outcome: 'answered', anyCreatorOf: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life', 'qiqi_pets_diary', 'coco_pets_talks'], why: 'the same request in Chinese; top 5 pets creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-skylark-trips-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Skylark Trips', category: 'travel' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['momo_travel_daily', 'tang_travel_studio', 'jiajia_travel_talks', 'nana_travel_talks', 'lulu_travel_diary'], why: 'top 5 travel creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-nimbus-audio-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Nimbus Audio', category: 'electronics' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['momo_consumer_studio', 'mimi_consumer_life', 'mimi_consumer_notes', 'momo_consumer_daily', 'zhou_consumer_lab'], why: 'electronics is a glossary synonym of consumer-electronics; top 5 consumer-electronics creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-zephyr-ev-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Zephyr EV', category: 'automotive' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['nana_automotive_club', 'kiki_automotive_club', 'lele_automotive_picks', 'xiao_automotive_guide', 'yoyo_automotive_notes'], why: 'top 5 automotive creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-starforge-games-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Starforge Games', category: 'gaming' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['zhou_gaming_diary', 'ayu_gaming_talks', 'yoyo_gaming_diary', 'ayu_gaming_talks0', 'lulu_gaming_corner'], why: 'top 5 gaming creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-maison-verlaine-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Maison Verlaine', category: 'luxury' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['ayu_luxury_club', 'ayu_luxury_journal', 'jiajia_luxury_club', 'mimi_luxury_diary', 'dudu_luxury_diary'], why: 'top 5 luxury creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-storynest-zh', route: 'capabilities.kol_shortlist', query: { brand_name: '故事窝', category: '母婴亲子' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', anyCreatorOf: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes', 'coco_parenting_life', 'zhou_parenting_talks'], why: 'Chinese brand and category names; top 5 parenting creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-velvet-moth-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Velvet Moth', category: 'beauty' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', notAction: 'proceed', anyCreatorOf: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal', 'ayu_beauty_corner', 'lin_beauty_diary'], why: 'Velvet Moth is criticised (~62% negative posts): a buyer expects checks before seeding, not a plain proceed; top 5 beauty creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-litterly-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Litterly', category: 'pets' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', notAction: 'proceed', anyCreatorOf: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life', 'qiqi_pets_diary', 'coco_pets_talks'], why: 'Litterly is criticised (~62% negative posts): a buyer expects checks before seeding, not a plain proceed; top 5 pets creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-tundra-motors-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Tundra Motors', category: 'automotive' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', notAction: 'proceed', anyCreatorOf: ['nana_automotive_club', 'kiki_automotive_club', 'lele_automotive_picks', 'xiao_automotive_guide', 'yoyo_automotive_notes'], why: 'Tundra Motors is criticised (~62% negative posts): a buyer expects checks before seeding, not a plain proceed; top 5 automotive creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-cinder-byte-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Cinder Byte', category: 'gaming' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', notAction: 'proceed', anyCreatorOf: ['zhou_gaming_diary', 'ayu_gaming_talks', 'yoyo_gaming_diary', 'ayu_gaming_talks0', 'lulu_gaming_corner'], why: 'Cinder Byte is criticised (~62% negative posts): a buyer expects checks before seeding, not a plain proceed; top 5 gaming creators by engagement + views/10 in the week of 2026-11-09 (signal_creators)' },
  },
  {
    id: 'kol-shortlist-absent-category-en', route: 'capabilities.kol_shortlist', query: { brand_name: 'Aurora Skin', category: 'crypto' }, lang: 'en', inWorld: false, pair: 'kol-shortlist-absent-category',
    expect: { outcome: 'not_found', why: 'no creator of the world posts about crypto' },
  },
  {
    id: 'kol-shortlist-absent-category-zh', route: 'capabilities.kol_shortlist', query: { brand_name: '极光肌', category: '加密货币' }, lang: 'zh', inWorld: false, pair: 'kol-shortlist-absent-category',
    expect: { outcome: 'not_found', why: 'no creator of the world posts about crypto' },
  },
  {
    id: 'destination-demand-japan-en', route: 'capabilities.destination_demand', query: { destination: 'Japan' }, lang: 'en', inWorld: true, pair: 'destination-demand-japan',
    expect: { outcome: 'answered', about: 'country:JP', why: 'country JP of sample-geography (flights to its six destinations, spend data)' },
  },
  {
    id: 'destination-demand-japan-zh', route: 'capabilities.destination_demand', query: { destination: '日本' }, lang: 'zh', inWorld: true, pair: 'destination-demand-japan',
    expect: { outcome: 'answered', about: 'country:JP', why: 'country JP of sample-geography (flights to its six destinations, spend data)' },
  },
  {
    id: 'destination-demand-japan-jp', route: 'capabilities.destination_demand', query: { destination: 'JP' }, lang: 'code', inWorld: true, pair: 'destination-demand-japan',
    expect: { outcome: 'answered', about: 'country:JP', why: 'country JP of sample-geography (flights to its six destinations, spend data)' },
  },
  {
    id: 'destination-demand-tokyo-en', route: 'capabilities.destination_demand', query: { destination: 'Tokyo' }, lang: 'en', inWorld: true, pair: 'destination-demand-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', why: 'destination TYO; NRT is one of its airports' },
  },
  {
    id: 'destination-demand-tokyo-zh', route: 'capabilities.destination_demand', query: { destination: '东京' }, lang: 'zh', inWorld: true, pair: 'destination-demand-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', why: 'destination TYO; NRT is one of its airports' },
  },
  {
    id: 'destination-demand-tokyo-tyo', route: 'capabilities.destination_demand', query: { destination: 'TYO' }, lang: 'code', inWorld: true, pair: 'destination-demand-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', why: 'destination TYO; NRT is one of its airports' },
  },
  {
    id: 'destination-demand-tokyo-nrt', route: 'capabilities.destination_demand', query: { destination: 'NRT' }, lang: 'code', inWorld: true, pair: 'destination-demand-tokyo',
    expect: { outcome: 'answered', about: 'destination:TYO', why: 'destination TYO; NRT is one of its airports' },
  },
  {
    id: 'destination-demand-thailand-en', route: 'capabilities.destination_demand', query: { destination: 'Thailand' }, lang: 'en', inWorld: true, pair: 'destination-demand-thailand',
    expect: { outcome: 'answered', about: 'country:TH', why: 'country TH of sample-geography' },
  },
  {
    id: 'destination-demand-thailand-zh', route: 'capabilities.destination_demand', query: { destination: '泰国' }, lang: 'zh', inWorld: true, pair: 'destination-demand-thailand',
    expect: { outcome: 'answered', about: 'country:TH', why: 'country TH of sample-geography' },
  },
  {
    id: 'destination-demand-thailand-th', route: 'capabilities.destination_demand', query: { destination: 'TH' }, lang: 'code', inWorld: true, pair: 'destination-demand-thailand',
    expect: { outcome: 'answered', about: 'country:TH', why: 'country TH of sample-geography' },
  },
  {
    id: 'destination-demand-bangkok-en', route: 'capabilities.destination_demand', query: { destination: 'Bangkok' }, lang: 'en', inWorld: true, pair: 'destination-demand-bangkok',
    expect: { outcome: 'answered', about: 'destination:BKK', why: 'destination BKK' },
  },
  {
    id: 'destination-demand-bangkok-zh', route: 'capabilities.destination_demand', query: { destination: '曼谷' }, lang: 'zh', inWorld: true, pair: 'destination-demand-bangkok',
    expect: { outcome: 'answered', about: 'destination:BKK', why: 'destination BKK' },
  },
  {
    id: 'destination-demand-bangkok-bkk', route: 'capabilities.destination_demand', query: { destination: 'BKK' }, lang: 'code', inWorld: true, pair: 'destination-demand-bangkok',
    expect: { outcome: 'answered', about: 'destination:BKK', why: 'destination BKK' },
  },
  {
    id: 'destination-demand-osaka-en', route: 'capabilities.destination_demand', query: { destination: 'Osaka' }, lang: 'en', inWorld: true, pair: 'destination-demand-osaka',
    expect: { outcome: 'answered', about: 'destination:OSA', why: 'destination OSA; KIX is one of its airports' },
  },
  {
    id: 'destination-demand-osaka-zh', route: 'capabilities.destination_demand', query: { destination: '大阪' }, lang: 'zh', inWorld: true, pair: 'destination-demand-osaka',
    expect: { outcome: 'answered', about: 'destination:OSA', why: 'destination OSA; KIX is one of its airports' },
  },
  {
    id: 'destination-demand-osaka-kix', route: 'capabilities.destination_demand', query: { destination: 'KIX' }, lang: 'code', inWorld: true, pair: 'destination-demand-osaka',
    expect: { outcome: 'answered', about: 'destination:OSA', why: 'destination OSA; KIX is one of its airports' },
  },
  {
    id: 'destination-demand-paris-en', route: 'capabilities.destination_demand', query: { destination: 'Paris' }, lang: 'en', inWorld: true, pair: 'destination-demand-paris',
    expect: { outcome: 'answered', about: 'destination:PAR', why: 'destination PAR' },
  },
  {
    id: 'destination-demand-paris-zh', route: 'capabilities.destination_demand', query: { destination: '巴黎' }, lang: 'zh', inWorld: true, pair: 'destination-demand-paris',
    expect: { outcome: 'answered', about: 'destination:PAR', why: 'destination PAR' },
  },
  {
    id: 'destination-demand-bali-en', route: 'capabilities.destination_demand', query: { destination: 'Bali' }, lang: 'en', inWorld: true, pair: 'destination-demand-bali',
    expect: { outcome: 'answered', about: 'destination:DPS', why: 'destination DPS' },
  },
  {
    id: 'destination-demand-bali-zh', route: 'capabilities.destination_demand', query: { destination: '巴厘岛' }, lang: 'zh', inWorld: true, pair: 'destination-demand-bali',
    expect: { outcome: 'answered', about: 'destination:DPS', why: 'destination DPS' },
  },
  {
    id: 'destination-demand-south-korea-en', route: 'capabilities.destination_demand', query: { destination: 'South Korea' }, lang: 'en', inWorld: true, pair: 'destination-demand-south-korea',
    expect: { outcome: 'answered', about: 'country:KR', why: 'country KR' },
  },
  {
    id: 'destination-demand-south-korea-zh', route: 'capabilities.destination_demand', query: { destination: '韩国' }, lang: 'zh', inWorld: true, pair: 'destination-demand-south-korea',
    expect: { outcome: 'answered', about: 'country:KR', why: 'country KR' },
  },
  {
    id: 'destination-demand-south-korea-kr', route: 'capabilities.destination_demand', query: { destination: 'KR' }, lang: 'code', inWorld: true, pair: 'destination-demand-south-korea',
    expect: { outcome: 'answered', about: 'country:KR', why: 'country KR' },
  },
  {
    id: 'destination-demand-korea-alias-en', route: 'capabilities.destination_demand', query: { destination: 'Korea' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'country:KR', why: 'Korea is an alias of KR in sample-geography' },
  },
  {
    id: 'destination-demand-sapporo-alias-en', route: 'capabilities.destination_demand', query: { destination: 'Hokkaido' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', about: 'destination:CTS', why: 'Hokkaido is an alias of Sapporo (CTS) in sample-geography' },
  },
  {
    id: 'destination-demand-dubai-zh', route: 'capabilities.destination_demand', query: { destination: '迪拜' }, lang: 'zh', inWorld: true,
    expect: { outcome: 'answered', about: 'destination:DXB', why: 'destination DXB by its Chinese name' },
  },
  {
    id: 'destination-demand-singapore-en', route: 'capabilities.destination_demand', query: { destination: 'Singapore' }, lang: 'en', inWorld: true,
    expect: { outcome: 'answered', why: 'Singapore is both a country (SG) and its destination (SIN): answered either way' },
  },
  {
    id: 'destination-demand-absent-lisbon-en', route: 'capabilities.destination_demand', query: { destination: 'Lisbon' }, lang: 'en', inWorld: false, pair: 'destination-demand-absent-lisbon',
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-lisbon-zh', route: 'capabilities.destination_demand', query: { destination: '里斯本' }, lang: 'zh', inWorld: false, pair: 'destination-demand-absent-lisbon',
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-hong-kong-en', route: 'capabilities.destination_demand', query: { destination: 'Hong Kong' }, lang: 'en', inWorld: false, pair: 'destination-demand-absent-hong-kong',
    expect: { outcome: 'not_found', why: 'deliberately absent from sample-geography (destinations are abroad)' },
  },
  {
    id: 'destination-demand-absent-hong-kong-zh', route: 'capabilities.destination_demand', query: { destination: '香港' }, lang: 'zh', inWorld: false, pair: 'destination-demand-absent-hong-kong',
    expect: { outcome: 'not_found', why: 'deliberately absent from sample-geography (destinations are abroad)' },
  },
  {
    id: 'destination-demand-absent-kyoto-en', route: 'capabilities.destination_demand', query: { destination: 'Kyoto' }, lang: 'en', inWorld: false, pair: 'destination-demand-absent-kyoto',
    expect: { outcome: 'not_found', why: 'a Japanese city absent from sample-geography: must not fall back to Japan or Osaka' },
  },
  {
    id: 'destination-demand-absent-kyoto-zh', route: 'capabilities.destination_demand', query: { destination: '京都' }, lang: 'zh', inWorld: false, pair: 'destination-demand-absent-kyoto',
    expect: { outcome: 'not_found', why: 'a Japanese city absent from sample-geography: must not fall back to Japan or Osaka' },
  },
  {
    id: 'destination-demand-absent-portugal-en', route: 'capabilities.destination_demand', query: { destination: 'Portugal' }, lang: 'en', inWorld: false, pair: 'destination-demand-absent-portugal',
    expect: { outcome: 'not_found', why: 'a country absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-portugal-zh', route: 'capabilities.destination_demand', query: { destination: '葡萄牙' }, lang: 'zh', inWorld: false, pair: 'destination-demand-absent-portugal',
    expect: { outcome: 'not_found', why: 'a country absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-prague-en', route: 'capabilities.destination_demand', query: { destination: 'Prague' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-reykjavik-en', route: 'capabilities.destination_demand', query: { destination: 'Reykjavik' }, lang: 'en', inWorld: false,
    expect: { outcome: 'not_found', why: 'a city absent from sample-geography' },
  },
  {
    id: 'destination-demand-absent-lis-code', route: 'capabilities.destination_demand', query: { destination: 'LIS' }, lang: 'code', inWorld: false,
    expect: { outcome: 'not_found', why: 'Lisbon\'s airport code, absent from sample-geography' },
  },
]
