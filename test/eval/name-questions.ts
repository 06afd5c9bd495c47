/**
 * Name-resolution evaluation set: how buyers (a brand manager, a travel company, an AI agent) actually
 * type the names of the sample world into the China routes and the capability wrappers: case, full-width
 * characters, diacritics, "&"/"and"/"+", stray spaces and hyphens (variant); names run together or split
 * (joined); a name with an intent word such as 测评, 口碑, 怎么样, 攻略, 旅游, 推荐, 博主, review, trend, trip
 * (intent); the words marketers and shoppers use for a category (category_word); codes against ordinary
 * words (code); misspellings, homophone slips and pinyin (near_miss); directions fixed by the weekly data
 * (weekly); and the sample label every answer of the sample world must carry (label).
 *
 * Written by a helper session of this project, as a buyer, from the world's definition only and before
 * any answer was seen: src/catalog/signal-categories.ts, src/data/glossary.ts,
 * src/data/sample-geography.ts, scripts/sample/signals-vocabulary.ts, scripts/sample/evidence-vocabulary.ts,
 * docs/routes.md, docs/data.md, the route and rules descriptions of docs/intelligence.md, the style of
 * test/eval/questions.ts (none of its questions is repeated here), and the weekly Parquet files queried
 * with DuckDB. The name resolver and the relevance code (src/intelligence/, src/http/, src/capabilities/)
 * were not read, and neither the API nor its tests were run. The evidence corpus was consulted only for
 * whether a name has posts at all (and, for the lower-case code words, that no post has the word).
 *
 * Weekly rule (kind 'weekly', trends): a trend over N days compares [2026-11-16 - N, 2026-11-16) with the
 * N days before (the corpus ends 2026-11-15, windows end the day after). From signal_topics.parquet, posts
 * of the topic summed over all platforms, each week's posts spread evenly over its 7 days (so 7d, 14d and
 * 28d are whole weeks: 7d = week of 2026-11-09 vs week of 2026-11-02). rising at a ratio >= 1.5, falling
 * at <= 0.67, flat within 0.95-1.05; topics between those bands were not asked, and every asked topic has
 * at least 900 posts over the two windows. Asked: quiet-luxury 7d 18,787 vs 9,625 (1.95) and 14d 28,412 vs
 * 13,636 (2.08); dopamine-dressing 28d 9,476 vs 3,507 (2.70); freeze-dried-treats 28d 5,968 vs 2,466
 * (2.42); robot-vacuums 30d 4,861 vs 2,187 (2.22); picture-books 7d 772 vs 473 (1.63); clean-beauty 28d
 * 10,970 vs 5,365 (2.04); low-sugar 30d 21,208 vs 11,436 (1.85); home-fragrance 7d 1,380 vs 819 (1.68);
 * frisbee 28d 653 vs 1,203 (0.54); hot-pot 30d 450 vs 856 (0.53); esports 28d 1,508 vs 2,509 (0.60);
 * special-forces-travel 30d 348 vs 595 (0.58); padel 28d 8,105 vs 7,856 (1.03); road-trips 30d 4,794 vs
 * 4,837 (0.99); charging 28d 1,605 vs 1,626 (0.99). All but home-fragrance and the flat ones are the
 * world's surging/fading topics (TOPIC_TREND). The small fading topics rest on few posts: an answer may
 * call them stable within count noise if it says so. KOL rule (topCreators): the top 3 creators of the
 * category in the last published week (2026-11-09..2026-11-15) by engagement + views/10, the default
 * `influence` ranking of the weekly creator rankings, from signal_creators.parquet.
 *
 * Near-miss rule: answered (about the meant entity) only for one edit (a letter or a character added,
 * dropped or replaced) on a name of at least 8 Latin letters or 5 Chinese characters with no other name
 * of the world close to it; otherwise a free 404 whose "did you mean" names the meant entity. Code rule:
 * upper-case IATA/ISO codes are places; the same letters in lower case that are English words (pen, sin,
 * dad, mad, add, sea, lax, per) are words, and none of them is a name or term of the world or a word in
 * any post of the corpus, so they are a free 404. Questions with `sameAs` must get the canonical question's
 * answer apart from the echoed input (same route and other parameters).
 *
 * Counts per kind (203 questions): variant 35 (13 canonicals), joined 25, intent 23, category_word 23, code 23,
 * near_miss 23, weekly 26 (16 trends, 10 KOL), label 25; English 114, Chinese 72, codes 17.
 */
export interface NameQuestion {
  id: string
  kind: 'variant' | 'joined' | 'intent' | 'category_word' | 'code' | 'near_miss' | 'weekly' | 'label'
  route: 'china.trends' | 'china.sentiment' | 'china.kols' | 'capabilities.visibility' | 'capabilities.kol_shortlist' | 'capabilities.destination_demand'
  query: Record<string, string>
  lang: 'en' | 'zh' | 'code'
  expect: {
    outcome: 'answered' | 'not_found'
    /** data.resolved.id the answer must be about (omit when not sure or not applicable) */
    about?: string
    /** id of another question of this file whose answer must be identical apart from the echoed input */
    sameAs?: string
    /** near misses: the entity a buyer meant */
    nearMiss?: string
    /** near misses answered 404: entity ids any of which must be among the "did you mean" candidates */
    didYouMean?: string[]
    /** weekly: the direction the weekly topic data shows over the trend's span */
    weekly?: 'rising' | 'falling' | 'flat'
    /** KOL: weekly top creators (handles) of the category that must be among the candidates */
    topCreators?: string[]
    /** the answer must carry the sample flag at the top of data, say so in its summary, confidence < 1 */
    label?: true
    /** one line: what a buyer expects and which fact of the world fixes it */
    why: string
  }
}

export const NAME_QUESTIONS: NameQuestion[] = [
  {
    id: 'var-aurora-skin', kind: 'variant', route: 'china.trends', query: { keyword: 'Aurora Skin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', why: 'canonical: Aurora Skin (极光肌) is an invented beauty brand of the weekly world (BRANDS.beauty), praised' },
  },
  {
    id: 'var-aurora-skin-upper', kind: 'variant', route: 'china.trends', query: { keyword: 'AURORA SKIN', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'the brand in capitals (a buyer pasting from a deck): case never changes a name' },
  },
  {
    id: 'var-aurora-skin-fullwidth', kind: 'variant', route: 'china.trends', query: { keyword: 'ＡＵＲＯＲＡ　ＳＫＩＮ', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'full-width letters and an ideographic space, as a Chinese IME types them: the same brand' },
  },
  {
    id: 'var-aurora-skin-spaces', kind: 'variant', route: 'china.trends', query: { keyword: '  Aurora   Skin ', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'stray leading, trailing and doubled spaces around the brand name' },
  },
  {
    id: 'var-aurora-skin-hyphen', kind: 'variant', route: 'china.trends', query: { keyword: 'Aurora-Skin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'hyphen for the space (as in the slug aurora-skin): the same brand' },
  },
  {
    id: 'var-food-beverage', kind: 'variant', route: 'china.trends', query: { keyword: 'Food & beverage', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:food-beverage', why: 'canonical: the display name of the food-beverage category (signal-categories.ts)' },
  },
  {
    id: 'var-food-beverage-and', kind: 'variant', route: 'china.trends', query: { keyword: 'Food and Beverage', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:food-beverage', sameAs: 'var-food-beverage', why: '"and" for "&", title case: the same category (glossary lists food and beverage)' },
  },
  {
    id: 'var-food-beverage-f-and-b', kind: 'variant', route: 'china.trends', query: { keyword: 'F and B', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:food-beverage', sameAs: 'var-food-beverage', why: 'F&B (a glossary alias of food-beverage) with "and" spelled out, as marketers write it in plain text' },
  },
  {
    id: 'var-food-beverage-fullwidth', kind: 'variant', route: 'china.trends', query: { keyword: 'Ｆ＆Ｂ', timeframe: '14d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'category:food-beverage', sameAs: 'var-food-beverage', why: 'the F&B alias in full-width characters' },
  },
  {
    id: 'var-digital-3c', kind: 'variant', route: 'china.trends', query: { keyword: '数码3C', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', why: 'canonical: 数码3C is the Chinese display name of consumer-electronics' },
  },
  {
    id: 'var-digital-3c-fullwidth', kind: 'variant', route: 'china.trends', query: { keyword: '数码３Ｃ', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', sameAs: 'var-digital-3c', why: 'the same name with a full-width ３Ｃ, as a Chinese IME writes it' },
  },
  {
    id: 'var-3c-fullwidth', kind: 'variant', route: 'china.trends', query: { keyword: '３Ｃ', timeframe: '30d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', sameAs: 'var-digital-3c', why: 'the 3C alias of consumer-electronics in full-width characters' },
  },
  {
    id: 'var-lumiere-lab', kind: 'variant', route: 'china.sentiment', query: { entity: 'Lumiere Lab' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:lumiere-lab', why: 'canonical: Lumiere Lab (流光研究所), an invented beauty brand' },
  },
  {
    id: 'var-lumiere-lab-accent', kind: 'variant', route: 'china.sentiment', query: { entity: 'Lumière Lab' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:lumiere-lab', sameAs: 'var-lumiere-lab', why: 'the French spelling with the grave accent a buyer would expect on Lumière: the same brand' },
  },
  {
    id: 'var-celestine-paris', kind: 'variant', route: 'china.sentiment', query: { entity: 'Celestine Paris', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:celestine-paris', why: 'canonical: Celestine Paris (赛勒斯汀), an invented luxury brand cross-listed in beauty; the brand, not the city of Paris' },
  },
  {
    id: 'var-celestine-paris-accent', kind: 'variant', route: 'china.sentiment', query: { entity: 'Célestine Paris', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:celestine-paris', sameAs: 'var-celestine-paris', why: 'French accent on Célestine: still the brand, never the destination PAR' },
  },
  {
    id: 'var-kite-pine', kind: 'variant', route: 'china.sentiment', query: { entity: 'Kite & Pine' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:kite-and-pine', why: 'canonical: Kite & Pine (鸢与松), an invented fashion brand' },
  },
  {
    id: 'var-kite-pine-and', kind: 'variant', route: 'china.sentiment', query: { entity: 'Kite and Pine' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:kite-and-pine', sameAs: 'var-kite-pine', why: '"and" for "&": the same brand' },
  },
  {
    id: 'var-kite-pine-plus', kind: 'variant', route: 'china.sentiment', query: { entity: 'Kite + Pine' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:kite-and-pine', sameAs: 'var-kite-pine', why: '"+" for "&", as in a hashtag-style brand line: the same brand' },
  },
  {
    id: 'var-mens-skincare', kind: 'variant', route: 'china.trends', query: { keyword: 'Men\'s skincare', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:mens-skincare', why: 'canonical: the beauty topic Men\'s skincare (男士护肤); the longer topic name wins over the beauty synonym skincare inside it' },
  },
  {
    id: 'var-mens-skincare-curly', kind: 'variant', route: 'china.trends', query: { keyword: 'Men’s skincare', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:mens-skincare', sameAs: 'var-mens-skincare', why: 'typographic apostrophe (U+2019), as word processors write it: the same topic' },
  },
  {
    id: 'var-morning-c', kind: 'variant', route: 'china.trends', query: { keyword: '早C晚A', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:morning-c-evening-a', why: 'canonical: the beauty topic 早C晚A (Morning C, evening A)' },
  },
  {
    id: 'var-morning-c-fullwidth', kind: 'variant', route: 'china.trends', query: { keyword: '早Ｃ晚Ａ', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:morning-c-evening-a', sameAs: 'var-morning-c', why: 'the Latin letters of 早C晚A in full width, as a Chinese IME types them' },
  },
  {
    id: 'var-pre-owned-luxury', kind: 'variant', route: 'china.trends', query: { keyword: 'Pre-owned luxury', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', why: 'canonical: the luxury topic Pre-owned luxury (二奢)' },
  },
  {
    id: 'var-pre-owned-luxury-space', kind: 'variant', route: 'china.trends', query: { keyword: 'pre owned luxury', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', sameAs: 'var-pre-owned-luxury', why: 'space for the hyphen: the same topic' },
  },
  {
    id: 'var-pre-owned-luxury-dash', kind: 'variant', route: 'china.trends', query: { keyword: 'pre–owned luxury', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', sameAs: 'var-pre-owned-luxury', why: 'an en dash (U+2013) where the name has a hyphen, as autocorrect writes it' },
  },
  {
    id: 'var-munich', kind: 'variant', route: 'capabilities.destination_demand', query: { destination: 'Munich' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:MUC', why: 'canonical: Munich (MUC, alias München) is a destination of sample-geography' },
  },
  {
    id: 'var-munich-no-umlaut', kind: 'variant', route: 'capabilities.destination_demand', query: { destination: 'Munchen' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:MUC', sameAs: 'var-munich', why: 'München typed without its umlaut on an English keyboard: the same city' },
  },
  {
    id: 'var-hanoi', kind: 'variant', route: 'capabilities.destination_demand', query: { destination: 'Hanoi' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:HAN', why: 'canonical: Hanoi (HAN, alias Ha Noi) is a destination of sample-geography' },
  },
  {
    id: 'var-hanoi-diacritics', kind: 'variant', route: 'capabilities.destination_demand', query: { destination: 'Hà Nội' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:HAN', sameAs: 'var-hanoi', why: 'the Vietnamese spelling with its diacritics; without them it is the alias Ha Noi' },
  },
  {
    id: 'var-tokyo', kind: 'variant', route: 'china.trends', query: { keyword: 'Tokyo', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:TYO', why: 'canonical: Tokyo (TYO) is a destination of sample-geography' },
  },
  {
    id: 'var-tokyo-macrons', kind: 'variant', route: 'china.trends', query: { keyword: 'Tōkyō', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:TYO', sameAs: 'var-tokyo', why: 'Hepburn romanisation with macrons: the same city' },
  },
  {
    id: 'var-creator-dudu', kind: 'variant', route: 'china.sentiment', query: { entity: 'dudu_beauty_daily', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'creator:dudu_beauty_daily', why: 'canonical: the top beauty creator of the last published week (signal_creators); all of its posts fall in the last 90 days' },
  },
  {
    id: 'var-creator-dudu-at', kind: 'variant', route: 'china.sentiment', query: { entity: '@dudu_beauty_daily', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'creator:dudu_beauty_daily', sameAs: 'var-creator-dudu', why: 'the handle with the @ a buyer copies from the platform: the same creator' },
  },
  {
    id: 'var-storynest-split', kind: 'variant', route: 'capabilities.visibility', query: { brand_name: 'Story Nest' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:storynest', sameAs: 'lb-vis-storynest', why: 'the one-word brand Storynest written as two words: the same brand' },
  },
  {
    id: 'jn-aurora-skin-camel', kind: 'joined', route: 'china.trends', query: { keyword: 'AuroraSkin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'the brand as one CamelCase word (hashtag #AuroraSkin)' },
  },
  {
    id: 'jn-aurora-skin-lower', kind: 'joined', route: 'china.trends', query: { keyword: 'auroraskin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'var-aurora-skin', why: 'the brand as one lower-case word, as typed into a search box' },
  },
  {
    id: 'jn-quiet-luxury', kind: 'joined', route: 'china.trends', query: { keyword: 'Quiet luxury', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', why: 'canonical: the luxury topic Quiet luxury (静奢风)' },
  },
  {
    id: 'jn-quiet-luxury-joined', kind: 'joined', route: 'china.trends', query: { keyword: 'quietluxury', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', sameAs: 'jn-quiet-luxury', why: 'the topic without its space, as in the hashtag #quietluxury' },
  },
  {
    id: 'jn-quiet-luxury-camel', kind: 'joined', route: 'china.trends', query: { keyword: 'QuietLuxury', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', sameAs: 'jn-quiet-luxury', why: 'the topic as one CamelCase word' },
  },
  {
    id: 'jn-city-walk', kind: 'joined', route: 'china.trends', query: { keyword: 'City walk', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:city-walk', why: 'canonical: the travel topic City walk (城市漫步)' },
  },
  {
    id: 'jn-city-walk-joined', kind: 'joined', route: 'china.trends', query: { keyword: 'citywalk', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:city-walk', sameAs: 'jn-city-walk', why: '"citywalk" is how Chinese social media writes the trend: the City walk topic' },
  },
  {
    id: 'jn-city-walk-camel', kind: 'joined', route: 'china.trends', query: { keyword: 'CityWalk', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:city-walk', sameAs: 'jn-city-walk', why: 'the City walk topic as one CamelCase word' },
  },
  {
    id: 'jn-tokyo-travel', kind: 'joined', route: 'china.trends', query: { keyword: '东京旅行', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', why: 'canonical: 东京旅行 is the travel topic tokyo-travel (Tokyo travel), not the city' },
  },
  {
    id: 'jn-tokyo-travel-space', kind: 'joined', route: 'china.trends', query: { keyword: '东京 旅行', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', sameAs: 'jn-tokyo-travel', why: 'the topic name with a space between its two words: still the tokyo-travel topic' },
  },
  {
    id: 'jn-tokyo-travel-hashtag', kind: 'joined', route: 'china.trends', query: { keyword: 'Tokyotravel', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', sameAs: 'jn-tokyo-travel', why: 'the English topic name Tokyo travel as one word (hashtag #Tokyotravel)' },
  },
  {
    id: 'jn-mens-skincare-zh-space', kind: 'joined', route: 'china.trends', query: { keyword: '男士 护肤', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:mens-skincare', sameAs: 'var-mens-skincare', why: '男士护肤 (the Chinese name of Men\'s skincare) with a space: the topic, not the beauty synonym 护肤' },
  },
  {
    id: 'jn-mens-skin-care', kind: 'joined', route: 'china.trends', query: { keyword: 'men\'s skin care', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:mens-skincare', sameAs: 'var-mens-skincare', why: '"skin care" in two words (the glossary has both spellings): still the topic' },
  },
  {
    id: 'jn-lumiere-lab', kind: 'joined', route: 'china.sentiment', query: { entity: 'LumiereLab' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:lumiere-lab', sameAs: 'var-lumiere-lab', why: 'the brand as one word' },
  },
  {
    id: 'jn-celestine-paris', kind: 'joined', route: 'china.sentiment', query: { entity: 'CelestineParis', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:celestine-paris', sameAs: 'var-celestine-paris', why: 'the brand as one word: still the brand, not the city of Paris' },
  },
  {
    id: 'jn-pre-owned-luxury', kind: 'joined', route: 'china.trends', query: { keyword: 'preowned luxury', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:pre-owned-luxury', sameAs: 'var-pre-owned-luxury', why: 'pre-owned written as one word' },
  },
  {
    id: 'jn-kuala-lumpur', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'Kuala Lumpur' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:KUL', why: 'canonical: Kuala Lumpur (KUL) is a destination of sample-geography' },
  },
  {
    id: 'jn-kuala-lumpur-joined', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'KualaLumpur' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:KUL', sameAs: 'jn-kuala-lumpur', why: 'the city as one word' },
  },
  {
    id: 'jn-ho-chi-minh', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'Ho Chi Minh City' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:SGN', why: 'canonical: Ho Chi Minh City (SGN) is a destination of sample-geography' },
  },
  {
    id: 'jn-ho-chi-minh-joined', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'HoChiMinhCity' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:SGN', sameAs: 'jn-ho-chi-minh', why: 'the city as one word' },
  },
  {
    id: 'jn-new-york', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'New York' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:NYC', why: 'canonical: New York (NYC) is a destination of sample-geography' },
  },
  {
    id: 'jn-new-york-joined', kind: 'joined', route: 'capabilities.destination_demand', query: { destination: 'NewYork' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:NYC', sameAs: 'jn-new-york', why: 'the city as one word' },
  },
  {
    id: 'jn-night-market', kind: 'joined', route: 'china.sentiment', query: { entity: 'Night Market Co', timeframe: '180d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:night-market-co', why: 'canonical: Night Market Co (夜市集), an invented food-beverage brand with few posts, hence 180 days' },
  },
  {
    id: 'jn-night-market-joined', kind: 'joined', route: 'china.sentiment', query: { entity: 'NightMarketCo', timeframe: '180d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:night-market-co', sameAs: 'jn-night-market', why: 'the brand as one word' },
  },
  {
    id: 'jn-chili-lantern', kind: 'joined', route: 'capabilities.visibility', query: { brand_name: 'ChiliLantern' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:chili-lantern', sameAs: 'lb-vis-chili-lantern', why: 'the brand Chili Lantern as one word' },
  },
  {
    id: 'in-japan-lvyou', kind: 'intent', route: 'china.trends', query: { keyword: '日本旅游', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'country:JP', sameAs: 'lb-trends-japan', why: '日本 + 旅游 (travel): a buyer asks about Japan; no topic of the world is called 日本旅游' },
  },
  {
    id: 'in-japan-lvxing', kind: 'intent', route: 'china.trends', query: { keyword: '日本旅行', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'country:JP', sameAs: 'lb-trends-japan', why: '日本 + 旅行: Japan; the only 旅行 topic with a place in it is 东京旅行' },
  },
  {
    id: 'in-japan-travel-en', kind: 'intent', route: 'china.trends', query: { keyword: 'Japan travel', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'country:JP', sameAs: 'lb-trends-japan', why: 'Japan + travel: the country; no topic is called Japan travel' },
  },
  {
    id: 'in-tokyo-gonglue', kind: 'intent', route: 'china.trends', query: { keyword: '东京攻略', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'destination:TYO', sameAs: 'var-tokyo', why: '东京 + 攻略 (guide): the city Tokyo; 东京攻略 is not a name of the world' },
  },
  {
    id: 'in-tokyo-travel-gonglue', kind: 'intent', route: 'china.trends', query: { keyword: '东京旅行攻略', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', sameAs: 'jn-tokyo-travel', why: '东京旅行 is itself a topic of the world (tokyo-travel): with 攻略 after it, the topic, not the city' },
  },
  {
    id: 'in-tokyo-travel-guide', kind: 'intent', route: 'china.trends', query: { keyword: 'Tokyo travel guide', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', sameAs: 'jn-tokyo-travel', why: '"Tokyo travel" is the topic tokyo-travel; "guide" is the intent word' },
  },
  {
    id: 'in-aurora-koubei', kind: 'intent', route: 'china.sentiment', query: { entity: '极光肌 口碑', timeframe: '60d', lang: 'zh' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'lb-sent-aurora-skin', why: '极光肌 + 口碑 (reputation): the brand Aurora Skin' },
  },
  {
    id: 'in-aurora-ceping', kind: 'intent', route: 'china.sentiment', query: { entity: '极光肌测评', timeframe: '60d', lang: 'zh' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'lb-sent-aurora-skin', why: '极光肌 + 测评 (review), written together: the brand' },
  },
  {
    id: 'in-aurora-review-en', kind: 'intent', route: 'china.sentiment', query: { entity: 'Aurora Skin review', timeframe: '60d', lang: 'zh' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', sameAs: 'lb-sent-aurora-skin', why: 'Aurora Skin + review, Chinese narrative: the brand, the same evidence as 极光肌' },
  },
  {
    id: 'in-velvet-zenmeyang', kind: 'intent', route: 'china.sentiment', query: { entity: '绒蛾怎么样', timeframe: '90d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', sameAs: 'lb-sent-velvet-moth', why: '绒蛾 + 怎么样 (how is it): the brand Velvet Moth' },
  },
  {
    id: 'in-velvet-reviews-en', kind: 'intent', route: 'china.sentiment', query: { entity: 'Velvet Moth reviews', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', sameAs: 'lb-sent-velvet-moth', why: 'Velvet Moth + reviews: the brand' },
  },
  {
    id: 'in-harbor-hill-ceping', kind: 'intent', route: 'china.sentiment', query: { entity: '港丘酒店测评', timeframe: '90d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:harbor-and-hill-hotels', sameAs: 'lb-sent-harbor-hill', why: '港丘酒店 (Harbor & Hill Hotels) + 测评: the brand, although the string also contains the topic name 酒店测评 (hotel reviews): a buyer names the brand' },
  },
  {
    id: 'in-pawsome-ceping', kind: 'intent', route: 'capabilities.visibility', query: { brand_name: '爪爪食堂 测评' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:pawsome-pantry', sameAs: 'lb-vis-pawsome-pantry', why: '爪爪食堂 (Pawsome Pantry) + 测评: the brand' },
  },
  {
    id: 'in-chili-zenmeyang', kind: 'intent', route: 'capabilities.visibility', query: { brand_name: '辣灯笼怎么样' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:chili-lantern', sameAs: 'lb-vis-chili-lantern', why: '辣灯笼 (Chili Lantern) + 怎么样: the brand' },
  },
  {
    id: 'in-quiet-luxury-trend', kind: 'intent', route: 'china.trends', query: { keyword: 'quiet luxury trend', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', sameAs: 'jn-quiet-luxury', why: 'the topic Quiet luxury + "trend"' },
  },
  {
    id: 'in-quiet-luxury-qushi', kind: 'intent', route: 'china.trends', query: { keyword: '静奢风趋势', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', sameAs: 'jn-quiet-luxury', why: '静奢风 + 趋势 (trend): the topic' },
  },
  {
    id: 'in-camping-tuijian', kind: 'intent', route: 'china.trends', query: { keyword: '露营推荐', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:camping', sameAs: 'lb-trends-camping', why: '露营 + 推荐 (recommendations): the outdoor topic Camping, not the shopper word 露营装备' },
  },
  {
    id: 'in-beauty-bloggers-zh', kind: 'intent', route: 'china.kols', query: { category: '美妆博主' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: '美妆 + 博主 (bloggers) on the KOL route: the beauty category\'s creators' },
  },
  {
    id: 'in-beauty-kols-en', kind: 'intent', route: 'china.kols', query: { category: 'beauty KOLs' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: 'beauty + KOLs on the KOL route: the beauty category' },
  },
  {
    id: 'in-travel-bloggers-zh', kind: 'intent', route: 'china.kols', query: { category: '旅行博主' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:travel', sameAs: 'wk-kols-travel', topCreators: ['momo_travel_daily', 'tang_travel_studio', 'jiajia_travel_talks'], why: '旅行 + 博主 on the KOL route: the travel category' },
  },
  {
    id: 'in-pet-influencers-en', kind: 'intent', route: 'china.kols', query: { category: 'pet influencers' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:pets', sameAs: 'wk-kols-pets', topCreators: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life'], why: 'pet + influencers on the KOL route: the pets category' },
  },
  {
    id: 'in-seoul-trip', kind: 'intent', route: 'capabilities.destination_demand', query: { destination: 'Seoul trip' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:SEL', sameAs: 'lb-dd-seoul', why: 'Seoul + trip: the city Seoul (SEL)' },
  },
  {
    id: 'in-vietnam-lvyou', kind: 'intent', route: 'capabilities.destination_demand', query: { destination: '越南旅游' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'country:VN', sameAs: 'lb-dd-vietnam', why: '越南 + 旅游: the country Vietnam (VN)' },
  },
  {
    id: 'cw-kols-hufupin', kind: 'category_word', route: 'china.kols', query: { category: '护肤品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: '护肤品 (skincare products) is what shoppers call the beauty shelf; top 3 beauty creators of the last published week 2026-11-09..15 by engagement + views/10 (1.52M, 0.85M, 0.18M) in signal_creators' },
  },
  {
    id: 'cw-kols-huazhuangpin', kind: 'category_word', route: 'china.kols', query: { category: '化妆品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: '化妆品 (cosmetics): beauty; top 3 beauty creators of the last published week 2026-11-09..15 by engagement + views/10 (1.52M, 0.85M, 0.18M) in signal_creators' },
  },
  {
    id: 'cw-kols-caizhuang', kind: 'category_word', route: 'china.kols', query: { category: '彩妆' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: '彩妆 (colour cosmetics): beauty, not the topic 彩妆平替; top 3 beauty creators of the last published week 2026-11-09..15 by engagement + views/10 (1.52M, 0.85M, 0.18M) in signal_creators' },
  },
  {
    id: 'cw-kols-beauty-brands', kind: 'category_word', route: 'china.kols', query: { category: 'beauty brands' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'wk-kols-beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: 'beauty brands: a marketer\'s word for the beauty category; top 3 beauty creators of the last published week 2026-11-09..15 by engagement + views/10 (1.52M, 0.85M, 0.18M) in signal_creators' },
  },
  {
    id: 'cw-kols-lvying-zhuangbei', kind: 'category_word', route: 'china.kols', query: { category: '露营装备' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', sameAs: 'wk-kols-outdoor', topCreators: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal'], why: '露营装备 (camping gear): outdoor-sports; top 3 outdoor-sports creators of the last published week 2026-11-09..15 by engagement + views/10 (1.57M, 0.23M, 0.13M) in signal_creators' },
  },
  {
    id: 'cw-kols-huwai-zhuangbei', kind: 'category_word', route: 'china.kols', query: { category: '户外装备' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', sameAs: 'wk-kols-outdoor', topCreators: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal'], why: '户外装备 (outdoor gear): outdoor-sports; top 3 outdoor-sports creators of the last published week 2026-11-09..15 by engagement + views/10 (1.57M, 0.23M, 0.13M) in signal_creators' },
  },
  {
    id: 'cw-kols-camping-gear', kind: 'category_word', route: 'china.kols', query: { category: 'camping gear' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', sameAs: 'wk-kols-outdoor', topCreators: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal'], why: 'camping gear: outdoor-sports; top 3 outdoor-sports creators of the last published week 2026-11-09..15 by engagement + views/10 (1.57M, 0.23M, 0.13M) in signal_creators' },
  },
  {
    id: 'cw-kols-chongwu-yongpin', kind: 'category_word', route: 'china.kols', query: { category: '宠物用品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:pets', sameAs: 'wk-kols-pets', topCreators: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life'], why: '宠物用品 (pet supplies): pets; top 3 pets creators of the last published week 2026-11-09..15 by engagement + views/10 (1.22M, 0.20M, 0.17M) in signal_creators' },
  },
  {
    id: 'cw-kols-maogou-yongpin', kind: 'category_word', route: 'china.kols', query: { category: '猫狗用品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:pets', sameAs: 'wk-kols-pets', topCreators: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life'], why: '猫狗用品 (cat and dog supplies): pets; top 3 pets creators of the last published week 2026-11-09..15 by engagement + views/10 (1.22M, 0.20M, 0.17M) in signal_creators' },
  },
  {
    id: 'cw-kols-pet-supplies', kind: 'category_word', route: 'china.kols', query: { category: 'pet supplies' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:pets', sameAs: 'wk-kols-pets', topCreators: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life'], why: 'pet supplies: pets; top 3 pets creators of the last published week 2026-11-09..15 by engagement + views/10 (1.22M, 0.20M, 0.17M) in signal_creators' },
  },
  {
    id: 'cw-kols-muying-yongpin', kind: 'category_word', route: 'china.kols', query: { category: '母婴用品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:parenting', sameAs: 'wk-kols-parenting', topCreators: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes'], why: '母婴用品 (mother-and-baby products): parenting; top 3 parenting creators of the last published week 2026-11-09..15 by engagement + views/10 (195k, 159k, 151k) in signal_creators' },
  },
  {
    id: 'cw-kols-yingtong-yongpin', kind: 'category_word', route: 'china.kols', query: { category: '婴童用品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:parenting', sameAs: 'wk-kols-parenting', topCreators: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes'], why: '婴童用品 (baby and kids products), the trade\'s word: parenting; top 3 parenting creators of the last published week 2026-11-09..15 by engagement + views/10 (195k, 159k, 151k) in signal_creators' },
  },
  {
    id: 'cw-kols-baby-gear', kind: 'category_word', route: 'china.kols', query: { category: 'baby gear' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:parenting', sameAs: 'wk-kols-parenting', topCreators: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes'], why: 'baby gear: parenting; top 3 parenting creators of the last published week 2026-11-09..15 by engagement + views/10 (195k, 159k, 151k) in signal_creators' },
  },
  {
    id: 'cw-kols-shuma-chanpin', kind: 'category_word', route: 'china.kols', query: { category: '数码产品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', sameAs: 'wk-kols-electronics', topCreators: ['momo_consumer_studio', 'mimi_consumer_life', 'mimi_consumer_notes'], why: '数码产品 (digital products): consumer-electronics; top 3 consumer-electronics creators of the last published week 2026-11-09..15 by engagement + views/10 (822k, 384k, 339k) in signal_creators' },
  },
  {
    id: 'cw-kols-dianzi-chanpin', kind: 'category_word', route: 'china.kols', query: { category: '电子产品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', sameAs: 'wk-kols-electronics', topCreators: ['momo_consumer_studio', 'mimi_consumer_life', 'mimi_consumer_notes'], why: '电子产品 (electronic products): consumer-electronics; top 3 consumer-electronics creators of the last published week 2026-11-09..15 by engagement + views/10 (822k, 384k, 339k) in signal_creators' },
  },
  {
    id: 'cw-kols-shechi-pinpai', kind: 'category_word', route: 'china.kols', query: { category: '奢侈品牌' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:luxury', sameAs: 'wk-kols-luxury', topCreators: ['ayu_luxury_club', 'ayu_luxury_journal', 'jiajia_luxury_club'], why: '奢侈品牌 (luxury brands): luxury; top 3 luxury creators of the last published week 2026-11-09..15 by engagement + views/10 (1.21M, 251k, 210k) in signal_creators' },
  },
  {
    id: 'cw-kols-meishi-tandian', kind: 'category_word', route: 'china.kols', query: { category: '美食探店' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:food-beverage', sameAs: 'wk-kols-food', topCreators: ['dudu_food_notes', 'ranran_food_notes', 'lele_food_lab'], why: '美食探店 (food-spot visits), a food creator\'s genre: food-beverage; top 3 food-beverage creators of the last published week 2026-11-09..15 by engagement + views/10 (3.89M, 354k, 87k) in signal_creators' },
  },
  {
    id: 'cw-kols-shizhuang', kind: 'category_word', route: 'china.kols', query: { category: '时装' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:fashion', sameAs: 'wk-kols-fashion', topCreators: ['mimi_fashion_club', 'zhou_fashion_diary', 'jiajia_fashion_talks'], why: '时装 (fashion, clothing): fashion; top 3 fashion creators of the last published week 2026-11-09..15 by engagement + views/10 (1.10M, 792k, 265k) in signal_creators' },
  },
  {
    id: 'cw-kols-chepin', kind: 'category_word', route: 'china.kols', query: { category: '车品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:automotive', sameAs: 'wk-kols-automotive', topCreators: ['nana_automotive_club', 'kiki_automotive_club', 'lele_automotive_picks'], why: '车品 (car accessories, the e-commerce shelf name): automotive; top 3 automotive creators of the last published week 2026-11-09..15 by engagement + views/10 (158k, 133k, 120k) in signal_creators' },
  },
  {
    id: 'cw-trends-beauty', kind: 'category_word', route: 'china.trends', query: { keyword: 'Beauty & skincare', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:beauty', why: 'canonical: the display name of the beauty category' },
  },
  {
    id: 'cw-trends-hufupin', kind: 'category_word', route: 'china.trends', query: { keyword: '护肤品', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'cw-trends-beauty', why: '护肤品 (skincare products): the beauty category, same answer as its display name' },
  },
  {
    id: 'cw-trends-meizhuang-pinpai', kind: 'category_word', route: 'china.trends', query: { keyword: '美妆品牌', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:beauty', sameAs: 'cw-trends-beauty', why: '美妆品牌 (beauty brands): the beauty category' },
  },
  {
    id: 'cw-trends-consumer-tech', kind: 'category_word', route: 'china.trends', query: { keyword: 'consumer tech', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', why: 'consumer tech: a marketer\'s name for consumer electronics' },
  },
  {
    id: 'cd-tyo', kind: 'code', route: 'china.trends', query: { keyword: 'TYO', timeframe: '14d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:TYO', sameAs: 'var-tokyo', why: 'TYO is the IATA city code of Tokyo in sample-geography: the same answer as Tokyo' },
  },
  {
    id: 'cd-tyo-fullwidth', kind: 'code', route: 'china.trends', query: { keyword: 'ＴＹＯ', timeframe: '14d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:TYO', sameAs: 'var-tokyo', why: 'the Tokyo code in full-width capitals' },
  },
  {
    id: 'cd-hnd', kind: 'code', route: 'china.trends', query: { keyword: 'HND', timeframe: '14d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:TYO', sameAs: 'var-tokyo', why: 'HND is one of the airports of TYO in sample-geography' },
  },
  {
    id: 'cd-jp', kind: 'code', route: 'china.trends', query: { keyword: 'JP', timeframe: '28d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'country:JP', sameAs: 'lb-trends-japan', why: 'JP is the ISO code of Japan' },
  },
  {
    id: 'cd-pen-upper', kind: 'code', route: 'china.trends', query: { keyword: 'PEN', timeframe: '90d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:PEN', why: 'PEN in capitals is the code of Penang (槟城), a destination of sample-geography (90 days: a small destination)' },
  },
  {
    id: 'cd-pen-lower', kind: 'code', route: 'china.trends', query: { keyword: 'pen', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"pen" in lower case is the English word, not Penang; no name or term of the world and no post of the corpus has the word pen' },
  },
  {
    id: 'cd-sin-upper', kind: 'code', route: 'china.sentiment', query: { entity: 'SIN' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:SIN', why: 'SIN in capitals is the code of the destination Singapore' },
  },
  {
    id: 'cd-sin-lower', kind: 'code', route: 'china.sentiment', query: { entity: 'sin' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"sin" in lower case is a word, not Singapore; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-dad-upper', kind: 'code', route: 'china.trends', query: { keyword: 'DAD', timeframe: '30d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:DAD', why: 'DAD in capitals is the code of Da Nang (岘港)' },
  },
  {
    id: 'cd-dad-lower', kind: 'code', route: 'china.trends', query: { keyword: 'dad', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"dad" in lower case is a word (parents write it), not Da Nang; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-mad-upper', kind: 'code', route: 'capabilities.destination_demand', query: { destination: 'MAD' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:MAD', why: 'MAD is the code of Madrid, a destination of sample-geography' },
  },
  {
    id: 'cd-mad-lower', kind: 'code', route: 'china.trends', query: { keyword: 'mad', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"mad" in lower case is a word, not Madrid; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-add-upper', kind: 'code', route: 'china.trends', query: { keyword: 'ADD', timeframe: '90d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:ADD', why: 'ADD in capitals is the code of Addis Ababa, a destination of sample-geography (90 days: a small destination)' },
  },
  {
    id: 'cd-add-lower', kind: 'code', route: 'china.trends', query: { keyword: 'add', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"add" in lower case is a verb, not Addis Ababa; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-sea-upper', kind: 'code', route: 'china.sentiment', query: { entity: 'SEA', timeframe: '90d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:SEA', why: 'SEA in capitals is the code of Seattle' },
  },
  {
    id: 'cd-sea-lower', kind: 'code', route: 'china.sentiment', query: { entity: 'sea', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"sea" in lower case is a word, not Seattle; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-lax-upper', kind: 'code', route: 'china.trends', query: { keyword: 'LAX', timeframe: '30d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:LAX', why: 'LAX is the code of Los Angeles (洛杉矶)' },
  },
  {
    id: 'cd-lax-lower', kind: 'code', route: 'china.trends', query: { keyword: 'lax', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"lax" in lower case is a word, not Los Angeles; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-per-lower', kind: 'code', route: 'china.trends', query: { keyword: 'per', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'not_found', why: '"per" in lower case is a word, not Perth; absent from every name, term and post of the world' },
  },
  {
    id: 'cd-fnb-lower', kind: 'code', route: 'china.trends', query: { keyword: 'fnb', timeframe: '14d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'category:food-beverage', sameAs: 'var-food-beverage', why: 'fnb is listed as an alias of food-beverage in the glossary (not a place code): answered in lower case' },
  },
  {
    id: 'cd-bkk-lower-destination', kind: 'code', route: 'capabilities.destination_demand', query: { destination: 'bkk' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:BKK', why: 'on the destination route, "bkk" is no English word: a buyer typing the Bangkok code in lower case means Bangkok (destination names are case-insensitive there)' },
  },
  {
    id: 'cd-us-upper', kind: 'code', route: 'china.trends', query: { keyword: 'US', timeframe: '30d' }, lang: 'code',
    expect: { outcome: 'answered', about: 'country:US', why: 'US in capitals is the ISO code of the United States, a country of sample-geography' },
  },
  {
    id: 'cd-icn', kind: 'code', route: 'capabilities.destination_demand', query: { destination: 'ICN' }, lang: 'code',
    expect: { outcome: 'answered', about: 'destination:SEL', sameAs: 'lb-dd-seoul', why: 'ICN is one of the airports of Seoul (SEL)' },
  },
  {
    id: 'nm-auror-skin', kind: 'near_miss', route: 'china.trends', query: { keyword: 'Auror Skin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', nearMiss: 'brand:aurora-skin', why: 'one letter dropped from an 11-character brand name; nothing else of the world is close' },
  },
  {
    id: 'nm-aurora-skn', kind: 'near_miss', route: 'china.trends', query: { keyword: 'Aurora Skn', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', nearMiss: 'brand:aurora-skin', why: 'one letter dropped from Aurora Skin' },
  },
  {
    id: 'nm-arora-skin', kind: 'near_miss', route: 'china.trends', query: { keyword: 'Arora Skin', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', nearMiss: 'brand:aurora-skin', why: 'Aurora spelt as it sounds, one letter dropped' },
  },
  {
    id: 'nm-velvet-moths', kind: 'near_miss', route: 'china.sentiment', query: { entity: 'Velvet Moths', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', nearMiss: 'brand:velvet-moth', why: 'the brand Velvet Moth with a plural s' },
  },
  {
    id: 'nm-quiet-luxery', kind: 'near_miss', route: 'china.trends', query: { keyword: 'quiet luxery', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', nearMiss: 'topic:quiet-luxury', why: 'one vowel wrong in a 12-character topic name' },
  },
  {
    id: 'nm-dopamine-dresing', kind: 'near_miss', route: 'china.trends', query: { keyword: 'dopamine dresing', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', nearMiss: 'topic:dopamine-dressing', why: 'one s dropped from the fashion topic Dopamine dressing' },
  },
  {
    id: 'nm-duobaan-chuanda', kind: 'near_miss', route: 'china.trends', query: { keyword: '多巴安穿搭', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', nearMiss: 'topic:dopamine-dressing', why: '胺 typed as the homophone 安 in the five-character topic 多巴胺穿搭' },
  },
  {
    id: 'nm-harbour-hill', kind: 'near_miss', route: 'china.sentiment', query: { entity: 'Harbour & Hill Hotels', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:harbor-and-hill-hotels', nearMiss: 'brand:harbor-and-hill-hotels', why: 'British spelling Harbour of the brand Harbor & Hill Hotels (one letter)' },
  },
  {
    id: 'nm-nimbus-audi', kind: 'near_miss', route: 'capabilities.visibility', query: { brand_name: 'Nimbus Audi' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:nimbus-audio', nearMiss: 'brand:nimbus-audio', why: 'one letter dropped from Nimbus Audio; the carmaker Audi is not in the world and the buyer plainly means the audio brand' },
  },
  {
    id: 'nm-kuala-lumpar', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: 'Kuala Lumpar' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:KUL', nearMiss: 'destination:KUL', why: 'one vowel wrong in Kuala Lumpur' },
  },
  {
    id: 'nm-instanbul', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: 'Instanbul' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:IST', nearMiss: 'destination:IST', why: 'the common misspelling of Istanbul (one extra letter)' },
  },
  {
    id: 'nm-copenhagan', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: 'Copenhagan' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:CPH', nearMiss: 'destination:CPH', why: 'one vowel wrong in Copenhagen' },
  },
  {
    id: 'nm-tokio', kind: 'near_miss', route: 'china.trends', query: { keyword: 'Tokio', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'destination:TYO', didYouMean: ['destination:TYO'], why: 'the German/Spanish spelling of Tokyo; a five-letter name one letter off is not certain enough to charge for' },
  },
  {
    id: 'nm-tokyoo', kind: 'near_miss', route: 'china.trends', query: { keyword: 'Tokyoo', timeframe: '14d' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'destination:TYO', didYouMean: ['destination:TYO'], why: 'Tokyo with a doubled letter: a short name, so a free 404 suggesting Tokyo' },
  },
  {
    id: 'nm-phillipines', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: 'Phillipines' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'country:PH', didYouMean: ['country:PH'], why: 'the usual misspelling of Philippines, two edits away: suggest the country' },
  },
  {
    id: 'nm-singapur', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: 'Singapur' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'destination:SIN', didYouMean: ['destination:SIN', 'country:SG'], why: 'the German/Malay spelling of Singapore, two edits away: suggest the city or the country' },
  },
  {
    id: 'nm-celestine-pairs', kind: 'near_miss', route: 'china.sentiment', query: { entity: 'Celestine Pairs', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'brand:celestine-paris', didYouMean: ['brand:celestine-paris'], why: 'two letters swapped in Celestine Paris (two edits): suggest the brand, never answer about Paris' },
  },
  {
    id: 'nm-jiguang-ji', kind: 'near_miss', route: 'china.trends', query: { keyword: '极光机', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'not_found', nearMiss: 'brand:aurora-skin', didYouMean: ['brand:aurora-skin'], why: '机 for 肌 (same sound) in the three-character brand 极光肌: too short to be sure, suggest it' },
  },
  {
    id: 'nm-rong-e', kind: 'near_miss', route: 'china.sentiment', query: { entity: '绒娥', timeframe: '90d' }, lang: 'zh',
    expect: { outcome: 'not_found', nearMiss: 'brand:velvet-moth', didYouMean: ['brand:velvet-moth'], why: '娥 for 蛾 in the two-character brand 绒蛾: suggest Velvet Moth' },
  },
  {
    id: 'nm-jing-she-feng', kind: 'near_miss', route: 'china.trends', query: { keyword: '净奢风', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'not_found', nearMiss: 'topic:quiet-luxury', didYouMean: ['topic:quiet-luxury'], why: '净 for 静 (same sound) in the three-character topic 静奢风: suggest Quiet luxury' },
  },
  {
    id: 'nm-xinjiabo', kind: 'near_miss', route: 'capabilities.destination_demand', query: { destination: '新加波' }, lang: 'zh',
    expect: { outcome: 'not_found', nearMiss: 'destination:SIN', didYouMean: ['destination:SIN', 'country:SG'], why: '波 for 坡 in 新加坡, a common IME slip: suggest Singapore' },
  },
  {
    id: 'nm-pinyin-jiguangji', kind: 'near_miss', route: 'china.trends', query: { keyword: 'jiguangji', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'brand:aurora-skin', didYouMean: ['brand:aurora-skin'], why: 'the pinyin of 极光肌 typed with the IME off: suggest Aurora Skin, never free text' },
  },
  {
    id: 'nm-beuaty', kind: 'near_miss', route: 'china.kols', query: { category: 'beuaty' }, lang: 'en',
    expect: { outcome: 'not_found', nearMiss: 'category:beauty', didYouMean: ['category:beauty'], why: 'two letters swapped in beauty (two edits, short word): a free 404 suggesting the category' },
  },
  {
    id: 'wk-quiet-luxury-7d', kind: 'weekly', route: 'china.trends', query: { keyword: 'Quiet luxury', timeframe: '7d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', weekly: 'rising', why: 'weekly posts of quiet-luxury (all platforms), last 7d vs the 7d before: 18,787 vs 9,625 (week of 2026-11-09 vs 2026-11-02), ratio 1.95; TOPIC_TREND surging' },
  },
  {
    id: 'wk-quiet-luxury-14d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '静奢风', timeframe: '14d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:quiet-luxury', weekly: 'rising', why: 'weekly posts of quiet-luxury (all platforms), last 14d vs the 14d before: 28,412 vs 13,636, ratio 2.08; TOPIC_TREND surging' },
  },
  {
    id: 'wk-dopamine-dressing-28d', kind: 'weekly', route: 'china.trends', query: { keyword: 'dopamine dressing', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:dopamine-dressing', weekly: 'rising', why: 'weekly posts of dopamine-dressing (all platforms), last 28d vs the 28d before: 9,476 vs 3,507, ratio 2.70; TOPIC_TREND surging' },
  },
  {
    id: 'wk-freeze-dried-28d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '冻干', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:freeze-dried-treats', weekly: 'rising', why: 'weekly posts of freeze-dried-treats (all platforms), last 28d vs the 28d before: 5,968 vs 2,466, ratio 2.42; TOPIC_TREND surging' },
  },
  {
    id: 'wk-robot-vacuums-30d', kind: 'weekly', route: 'china.trends', query: { keyword: 'robot vacuums', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:robot-vacuums', weekly: 'rising', why: 'weekly posts of robot-vacuums (all platforms), last 30d vs the 30d before: 4,861 vs 2,187 (weeks spread over their days), ratio 2.22; TOPIC_TREND surging' },
  },
  {
    id: 'wk-picture-books-7d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '绘本', timeframe: '7d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:picture-books', weekly: 'rising', why: 'weekly posts of picture-books (all platforms), last 7d vs the 7d before: 772 vs 473, ratio 1.63 (14d: 1.67); TOPIC_TREND surging' },
  },
  {
    id: 'wk-clean-beauty-28d', kind: 'weekly', route: 'china.trends', query: { keyword: 'clean beauty', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:clean-beauty', weekly: 'rising', why: 'weekly posts of clean-beauty (all platforms), last 28d vs the 28d before: 10,970 vs 5,365, ratio 2.04; TOPIC_TREND surging' },
  },
  {
    id: 'wk-low-sugar-30d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '控糖', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:low-sugar', weekly: 'rising', why: 'weekly posts of low-sugar (all platforms), last 30d vs the 30d before: 21,208 vs 11,436, ratio 1.85; TOPIC_TREND surging' },
  },
  {
    id: 'wk-home-fragrance-7d', kind: 'weekly', route: 'china.trends', query: { keyword: 'home fragrance', timeframe: '7d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:home-fragrance', weekly: 'rising', why: 'weekly posts of home-fragrance (all platforms), last 7d vs the 7d before: 1,380 vs 819, ratio 1.68 (not a TOPIC_TREND topic: its last week jumps)' },
  },
  {
    id: 'wk-frisbee-28d', kind: 'weekly', route: 'china.trends', query: { keyword: 'frisbee', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:frisbee', weekly: 'falling', why: 'weekly posts of frisbee (all platforms), last 28d vs the 28d before: 653 vs 1,203, ratio 0.54; TOPIC_TREND fading' },
  },
  {
    id: 'wk-hot-pot-30d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '火锅', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:hot-pot', weekly: 'falling', why: 'weekly posts of hot-pot (all platforms), last 30d vs the 30d before: 450 vs 856, ratio 0.53; TOPIC_TREND fading' },
  },
  {
    id: 'wk-esports-28d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '电竞', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:esports', weekly: 'falling', why: 'weekly posts of esports (all platforms), last 28d vs the 28d before: 1,508 vs 2,509, ratio 0.60; TOPIC_TREND fading' },
  },
  {
    id: 'wk-special-forces-30d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '特种兵旅游', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:special-forces-travel', weekly: 'falling', why: 'weekly posts of special-forces-travel (all platforms), last 30d vs the 30d before: 348 vs 595, ratio 0.58; TOPIC_TREND fading' },
  },
  {
    id: 'wk-padel-28d', kind: 'weekly', route: 'china.trends', query: { keyword: 'padel', timeframe: '28d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'topic:padel', weekly: 'flat', why: 'weekly posts of padel (all platforms), last 28d vs the 28d before: 8,105 vs 7,856, ratio 1.03; weekly 2,028..2,195' },
  },
  {
    id: 'wk-road-trips-30d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '自驾游', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:road-trips', weekly: 'flat', why: 'weekly posts of road-trips (all platforms), last 30d vs the 30d before: 4,794 vs 4,837, ratio 0.99' },
  },
  {
    id: 'wk-charging-28d-zh', kind: 'weekly', route: 'china.trends', query: { keyword: '充电桩', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:charging', weekly: 'flat', why: 'weekly posts of charging (all platforms), last 28d vs the 28d before: 1,605 vs 1,626, ratio 0.99' },
  },
  {
    id: 'wk-kols-beauty', kind: 'weekly', route: 'china.kols', query: { category: 'Beauty & skincare' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:beauty', topCreators: ['dudu_beauty_daily', 'qiqi_beauty_corner', 'nana_beauty_journal'], why: 'Beauty & skincare names the beauty category; top 3 beauty creators of the last published week 2026-11-09..15 by engagement + views/10 (1.52M, 0.85M, 0.18M) in signal_creators' },
  },
  {
    id: 'wk-kols-outdoor', kind: 'weekly', route: 'china.kols', query: { category: '户外运动' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:outdoor-sports', topCreators: ['kiki_outdoor_studio', 'dudu_outdoor_studio', 'ranran_outdoor_journal'], why: '户外运动 names the outdoor-sports category; top 3 outdoor-sports creators of the last published week 2026-11-09..15 by engagement + views/10 (1.57M, 0.23M, 0.13M) in signal_creators' },
  },
  {
    id: 'wk-kols-pets', kind: 'weekly', route: 'china.kols', query: { category: '宠物' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:pets', topCreators: ['qiqi_pets_picks', 'xiao_pets_diary', 'qiqi_pets_life'], why: '宠物 names the pets category; top 3 pets creators of the last published week 2026-11-09..15 by engagement + views/10 (1.22M, 0.20M, 0.17M) in signal_creators' },
  },
  {
    id: 'wk-kols-parenting', kind: 'weekly', route: 'china.kols', query: { category: 'Parenting & baby' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:parenting', topCreators: ['tang_parenting_picks', 'nana_parenting_journal', 'ayu_parenting_notes'], why: 'Parenting & baby names the parenting category; top 3 parenting creators of the last published week 2026-11-09..15 by engagement + views/10 (195k, 159k, 151k) in signal_creators' },
  },
  {
    id: 'wk-kols-electronics', kind: 'weekly', route: 'china.kols', query: { category: '数码3C' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:consumer-electronics', topCreators: ['momo_consumer_studio', 'mimi_consumer_life', 'mimi_consumer_notes'], why: '数码3C names the consumer-electronics category; top 3 consumer-electronics creators of the last published week 2026-11-09..15 by engagement + views/10 (822k, 384k, 339k) in signal_creators' },
  },
  {
    id: 'wk-kols-luxury', kind: 'weekly', route: 'china.kols', query: { category: '奢侈品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:luxury', topCreators: ['ayu_luxury_club', 'ayu_luxury_journal', 'jiajia_luxury_club'], why: '奢侈品 names the luxury category; top 3 luxury creators of the last published week 2026-11-09..15 by engagement + views/10 (1.21M, 251k, 210k) in signal_creators' },
  },
  {
    id: 'wk-kols-food', kind: 'weekly', route: 'china.kols', query: { category: '美食饮品' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:food-beverage', topCreators: ['dudu_food_notes', 'ranran_food_notes', 'lele_food_lab'], why: '美食饮品 names the food-beverage category; top 3 food-beverage creators of the last published week 2026-11-09..15 by engagement + views/10 (3.89M, 354k, 87k) in signal_creators' },
  },
  {
    id: 'wk-kols-fashion', kind: 'weekly', route: 'china.kols', query: { category: 'Fashion & apparel' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:fashion', topCreators: ['mimi_fashion_club', 'zhou_fashion_diary', 'jiajia_fashion_talks'], why: 'Fashion & apparel names the fashion category; top 3 fashion creators of the last published week 2026-11-09..15 by engagement + views/10 (1.10M, 792k, 265k) in signal_creators' },
  },
  {
    id: 'wk-kols-automotive', kind: 'weekly', route: 'china.kols', query: { category: 'Automotive & EV' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:automotive', topCreators: ['nana_automotive_club', 'kiki_automotive_club', 'lele_automotive_picks'], why: 'Automotive & EV names the automotive category; top 3 automotive creators of the last published week 2026-11-09..15 by engagement + views/10 (158k, 133k, 120k) in signal_creators' },
  },
  {
    id: 'wk-kols-travel', kind: 'weekly', route: 'china.kols', query: { category: 'Travel & destinations' }, lang: 'en',
    expect: { outcome: 'answered', about: 'category:travel', topCreators: ['momo_travel_daily', 'tang_travel_studio', 'jiajia_travel_talks'], why: 'Travel & destinations names the travel category; top 3 travel creators of the last published week 2026-11-09..15 by engagement + views/10 (360k, 121k, 92k) in signal_creators' },
  },
  {
    id: 'lb-trends-japan', kind: 'label', route: 'china.trends', query: { keyword: '日本', timeframe: '28d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'country:JP', label: true, why: 'country JP of sample-geography; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-trends-camping', kind: 'label', route: 'china.trends', query: { keyword: '露营', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:camping', label: true, why: 'the outdoor topic Camping (露营); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-trends-skylark', kind: 'label', route: 'china.trends', query: { keyword: 'Skylark Trips', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:skylark-trips', label: true, why: 'an invented travel brand (云雀旅行); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-trends-jeju', kind: 'label', route: 'china.trends', query: { keyword: '济州岛', timeframe: '30d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'destination:CJU', label: true, why: '济州岛 is an alias of Jeju (CJU); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-sent-aurora-skin', kind: 'label', route: 'china.sentiment', query: { entity: '极光肌', timeframe: '60d', lang: 'zh' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:aurora-skin', label: true, why: 'the praised beauty brand Aurora Skin, Chinese narrative; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-sent-velvet-moth', kind: 'label', route: 'china.sentiment', query: { entity: '绒蛾', timeframe: '90d' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:velvet-moth', label: true, why: 'the criticised beauty brand Velvet Moth; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-sent-harbor-hill', kind: 'label', route: 'china.sentiment', query: { entity: 'Harbor & Hill Hotels', timeframe: '90d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:harbor-and-hill-hotels', label: true, why: 'an invented travel brand (港丘酒店); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-sent-bali', kind: 'label', route: 'china.sentiment', query: { entity: 'Bali' }, lang: 'en',
    expect: { outcome: 'answered', about: 'destination:DPS', label: true, why: 'the destination Bali (DPS); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-kols-pets-douyin', kind: 'label', route: 'china.kols', query: { category: '萌宠', platform: 'douyin' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:pets', label: true, why: 'pets creators on douyin; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-kols-gaming-xhs', kind: 'label', route: 'china.kols', query: { category: '游戏', platform: 'xiaohongshu' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:gaming', label: true, why: 'gaming creators on xiaohongshu; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-vis-pawsome-pantry', kind: 'label', route: 'capabilities.visibility', query: { brand_name: 'Pawsome Pantry' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:pawsome-pantry', label: true, why: 'the praised pets brand Pawsome Pantry; no amplify at confidence >= 0.95; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-vis-chili-lantern', kind: 'label', route: 'capabilities.visibility', query: { brand_name: 'Chili Lantern' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:chili-lantern', label: true, why: 'the criticised food-beverage brand Chili Lantern; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-vis-storynest', kind: 'label', route: 'capabilities.visibility', query: { brand_name: 'Storynest' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:storynest', label: true, why: 'the praised parenting brand Storynest; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-ksl-leaf-bubble', kind: 'label', route: 'capabilities.kol_shortlist', query: { brand_name: 'Leaf & Bubble', category: 'food-beverage' }, lang: 'en',
    expect: { outcome: 'answered', label: true, why: 'the praised food-beverage brand Leaf & Bubble; no proceed at confidence >= 0.95; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-ksl-chenyao', kind: 'label', route: 'capabilities.kol_shortlist', query: { brand_name: '晨窑', category: '美食饮品' }, lang: 'zh',
    expect: { outcome: 'answered', label: true, why: 'Morning Kiln Coffee (晨窑, mixed) in its category, Chinese names; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-ksl-hexa-mobile', kind: 'label', route: 'capabilities.kol_shortlist', query: { brand_name: 'Hexa Mobile', category: '数码3C' }, lang: 'en',
    expect: { outcome: 'answered', label: true, why: 'the criticised electronics brand Hexa Mobile; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-dd-vietnam', kind: 'label', route: 'capabilities.destination_demand', query: { destination: '越南' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'country:VN', label: true, why: 'country VN of sample-geography (flights to its destinations); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-dd-seoul', kind: 'label', route: 'capabilities.destination_demand', query: { destination: '首尔' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'destination:SEL', label: true, why: 'destination SEL of the flights data; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-dd-phuket', kind: 'label', route: 'capabilities.destination_demand', query: { destination: '普吉岛' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'destination:HKT', label: true, why: '普吉岛 is an alias of Phuket (HKT); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-trends-morning-kiln', kind: 'label', route: 'china.trends', query: { keyword: 'Morning Kiln Coffee', timeframe: '30d' }, lang: 'en',
    expect: { outcome: 'answered', about: 'brand:morning-kiln-coffee', label: true, why: 'the mixed food-beverage brand Morning Kiln Coffee (晨窑); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-sent-tokyo-travel-zh', kind: 'label', route: 'china.sentiment', query: { entity: '东京旅行', lang: 'zh' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'topic:tokyo-travel', label: true, why: 'the travel topic 东京旅行, Chinese narrative; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-kols-home-living', kind: 'label', route: 'china.kols', query: { category: '家居生活' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'category:home-living', label: true, why: 'home-living creators by the category\'s Chinese display name; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-vis-zephyr-ev-zh', kind: 'label', route: 'capabilities.visibility', query: { brand_name: '和风电动' }, lang: 'zh',
    expect: { outcome: 'answered', about: 'brand:zephyr-ev', label: true, why: 'the praised automotive brand Zephyr EV by its Chinese name; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-ksl-storynest', kind: 'label', route: 'capabilities.kol_shortlist', query: { brand_name: 'Storynest', category: 'parenting' }, lang: 'en',
    expect: { outcome: 'answered', label: true, why: 'the praised parenting brand Storynest in its category; answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
  {
    id: 'lb-dd-maldives', kind: 'label', route: 'capabilities.destination_demand', query: { destination: 'Maldives' }, lang: 'en',
    expect: { outcome: 'answered', about: 'country:MV', label: true, why: 'country MV of sample-geography (its destination Male); answered from the generated sample world: sample flag at the top of data, said in the summary, confidence below 1' },
  },
]
