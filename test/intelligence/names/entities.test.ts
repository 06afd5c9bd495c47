/**
 * The entity resolver and the relevance rule on their own: what a keyword resolves to in any language or
 * code, and which texts are evidence about it. The sample world's index is read from the shipped data.
 */
import { describe, expect, test } from 'bun:test'
import { RELEVANCE } from '../../../src/catalog/evidence-rules'
import { EntityIndex, STATIC_ENTITIES, type Resolved } from '../../../src/intelligence/names/entities'
import { matcherFor } from '../../../src/intelligence/analysis/relevance'
import { nameKey } from '../../../src/intelligence/names/names'
import { startApi } from '../../../support/api-during-tests'
import type { Client as Api } from '../../../support/paying-client'

const id = (r: Resolved) => (r.kind === 'entity' ? r.entity.id : `free_text:${r.text}`)

/** A small world: one topic, one brand of another category whose name contains a place, one creator. */
const world = new EntityIndex({
  topics: [
    { slug: 'car-camping', name: 'Car camping', nameZh: '车载露营', category: 'automotive' },
    { slug: 'camping', name: 'Camping', nameZh: '露营', category: 'outdoor-sports' },
  ],
  brands: [{ slug: 'celestine-paris', name: 'Celestine Paris', nameZh: '赛勒斯汀', categories: ['luxury', 'beauty'] }],
  creators: [{ handle: 'kiki_outdoor_lab', name: '阿鹿户外日记', category: 'outdoor-sports' }],
})
const relevance = (keyword: string, title: string, text = '', author: string | null = null) =>
  matcherFor(world.resolve(keyword), world).relevance({ title, text, author })

describe('resolution', () => {
  test.each([
    [['Tokyo', '东京', 'TYO', 'NRT', 'HND', ' tokyo '], 'destination:TYO'],
    [['Japan', '日本', 'JP', 'japan'], 'country:JP'],
    [['beauty', '美妆', '美妆护肤', 'skincare', 'Beauty & skincare', 'COSMETICS'], 'category:beauty'],
    [['automotive', '汽车', 'cars'], 'category:automotive'],
    [['ski', 'skiing', '滑雪'], 'term:skiing'],
    [['EV', '新能源汽车', 'NEV', 'electric vehicle'], 'term:ev'],
    [['outbound travel', '出境游'], 'term:outbound-travel'],
  ])('%j all resolve to %s', (keywords, expected) => {
    for (const k of keywords) expect([k, id(STATIC_ENTITIES.resolve(k))]).toEqual([k, expected])
  })

  test('a country counts its destinations; a category its topics, brands and terms', () => {
    const japan = STATIC_ENTITIES.resolve('日本')
    expect(japan.kind === 'entity' && japan.entity.members.map((m) => m.id)).toContain('destination:OSA')
    const outdoor = world.resolve('户外')
    expect(outdoor.kind === 'entity' && outdoor.entity.members.map((m) => m.id)).toEqual(
      expect.arrayContaining(['topic:camping', 'term:skiing']),
    )
  })

  test('anything else is free text, normalised', () => {
    expect(STATIC_ENTITIES.resolve('  quantum   knitting ')).toEqual({ kind: 'free_text', text: 'quantum knitting' })
  })

  test('a name two kinds share goes to the documented precedence (Singapore is the city); two creators sharing a display name resolve to neither', () => {
    expect(id(STATIC_ENTITIES.resolve('Singapore'))).toBe('destination:SIN')
    const twins = new EntityIndex({
      topics: [],
      brands: [],
      creators: [
        { handle: 'a_one', name: '小林日记', category: 'beauty' },
        { handle: 'b_two', name: '小林日记', category: 'pets' },
      ],
    })
    expect(twins.resolve('小林日记').kind).toBe('free_text')
    expect(id(twins.resolve('a_one'))).toBe('creator:a_one')
  })
})

describe('relevance', () => {
  test('Latin names are whole words, with a plural: the buyer-reported substrings are not evidence', () => {
    expect(relevance('ski', 'Skincare routine')).toBe(0)
    expect(relevance('ski', 'Ski trip notes')).toBe(RELEVANCE.subject)
    expect(relevance('EV', 'worth every penny')).toBe(0)
    expect(relevance('EV', 'Two EVs compared')).toBe(RELEVANCE.subject)
    expect(relevance('car', 'easy to carry')).toBe(0)
    expect(relevance('AI', 'Zephyr Trail review')).toBe(0)
    expect(relevance('art', 'Camping with a party of four')).toBe(0)
  })

  test('a longer name of another category hides the shorter one inside it; one of the same family does not', () => {
    expect(relevance('Paris', 'Celestine Paris serum review')).toBe(0)
    expect(relevance('Paris', 'Paris in five days')).toBe(RELEVANCE.subject)
    expect(relevance('露营', '车载露营装备')).toBe(0)
    expect(relevance('camping', 'Car camping kit')).toBe(0)
    expect(relevance('camping', 'Camping kit for beginners')).toBe(RELEVANCE.subject)
    // 户外 (outdoor) counts camping posts: the topic is one of its members.
    expect(relevance('户外', '露营清单')).toBe(RELEVANCE.subject)
  })

  test('free-text Chinese matches on word boundaries; a single character only standing alone', () => {
    expect(relevance('美', '纯净美妆测评')).toBe(0)
    expect(relevance('咖啡豆', '今天买了咖啡豆')).toBe(RELEVANCE.subject)
  })

  test('named in the title, a hashtag or the opening: about it; only mentioned later: a mention', () => {
    const late = `${'这是一段很长的旅行日记，'.repeat(8)}最后说一句巴黎。`
    expect(relevance('Paris', '', late)).toBe(RELEVANCE.mention)
    expect(relevance('Paris', '', `${late} #巴黎`)).toBe(RELEVANCE.subject)
    expect(relevance('Paris', '巴黎', late)).toBe(RELEVANCE.subject)
  })

  test("a creator's own posts are about the creator", () => {
    expect(relevance('kiki_outdoor_lab', 'Trail day', 'no names here', 'kiki_outdoor_lab')).toBe(RELEVANCE.subject)
    expect(relevance('kiki_outdoor_lab', 'Trail day', 'no names here', 'someone_else')).toBe(0)
  })
})

describe('the sample world', () => {
  let api: Api
  startApi((client) => (api = client))

  test('every weekly topic and brand resolves by its English and its Chinese name to itself', async () => {
    const index = api.rt.intelligence.entities()
    const named = index.entities.filter((e) => e.kind === 'topic' || e.kind === 'brand')
    expect(named.length).toBe(96 + 120)
    for (const e of named) for (const n of [e.name, e.nameZh!]) expect([n, id(index.resolve(n))]).toEqual([n, e.id])
  })

  test('the only names two entities claim are the Singapore city-country and creator display names (which then resolve to no one)', async () => {
    const index = api.rt.intelligence.entities()
    for (const c of index.conflicts) {
      const ok =
        c.key === 'singapore' || c.key === '新加坡' || (c.kept === 'neither' && c.dropped.split(' ').every((d) => d.startsWith('creator:')))
      expect([c, ok]).toEqual([c, true])
    }
  })
})

describe('names as buyers type them', () => {
  const sample = new EntityIndex({
    topics: [
      { slug: 'city-walk', name: 'City walk', nameZh: '城市漫步', category: 'travel' },
      { slug: 'tokyo-travel', name: 'Tokyo travel', nameZh: '东京旅行', category: 'travel' },
    ],
    brands: [
      { slug: 'aurora-skin', name: 'Aurora Skin', nameZh: '极光肌', categories: ['beauty'] },
      { slug: 'kite-and-pine', name: 'Kite & Pine', nameZh: '风筝与松', categories: ['fashion'] },
      { slug: 'leaf-and-bubble', name: 'Leaf & Bubble', nameZh: '叶与泡', categories: ['food-beverage'] },
    ],
    creators: [],
  })
  const of = (k: string) => id(sample.resolve(k))
  /** Each keyword resolves to its entity (the keyword beside it names a failing case). */
  const expectResolved = (cases: readonly (readonly [keyword: string, entity: string])[]) => {
    for (const [keyword, entity] of cases) expect([keyword, of(keyword)]).toEqual([keyword, entity])
  }

  test('case, full width, diacritics, punctuation, & / and / +, spaces and one-word forms are the same name', () => {
    for (const k of ['Aurora Skin', 'AURORA SKIN', 'ａｕｒｏｒａ　ｓｋｉｎ', 'aurora-skin', 'AuroraSkin', 'aurora  skin', 'Aurora_Skin'])
      expect([k, of(k)]).toEqual([k, 'brand:aurora-skin'])
    for (const k of ['Kite & Pine', 'Kite and Pine', 'kite+pine', 'KITE AND PINE', 'KiteAndPine', 'KitePine'])
      expect([k, of(k)]).toEqual([k, 'brand:kite-and-pine'])
    for (const k of ['City walk', 'citywalk', 'City-Walk', 'CITYWALK']) expect([k, of(k)]).toEqual([k, 'topic:city-walk'])
    expect(of('Male')).toBe('destination:MLE')
    expect(of('MALÉ')).toBe('destination:MLE')
    expect(of('Food and Beverage')).toBe('category:food-beverage')
    expect(of('ＦＯＯＤ ＆ ＢＥＶＥＲＡＧＥ')).toBe('category:food-beverage')
  })

  test('intent words around a name are taken off, and the answer says which; a name that holds one is itself first', () => {
    const r = sample.resolve('日本旅游')
    expect(r).toMatchObject({ kind: 'entity', stripped: ['旅游'] })
    expect(id(r)).toBe('country:JP')
    expectResolved([
      ['Japan travel', 'country:JP'],
      ['Tokyo trip', 'destination:TYO'],
      ['东京攻略', 'destination:TYO'],
      ['极光肌口碑', 'brand:aurora-skin'],
      ['极光肌怎么样', 'brand:aurora-skin'],
      ['Aurora Skin review', 'brand:aurora-skin'],
      ['极光肌测评', 'brand:aurora-skin'],
    ])
    // 东京旅行 and "Tokyo travel" are a topic of their own: not Tokyo with an intent word.
    expect(of('东京旅行')).toBe('topic:tokyo-travel')
    expect(of('Tokyo travel')).toBe('topic:tokyo-travel')
    expect(of('旅行')).toBe('category:travel')
    // Written straight after a Latin name, too.
    expectResolved([
      ['Tokyo旅游', 'destination:TYO'],
      ['Japan旅行', 'country:JP'],
      ['Aurora Skin口碑', 'brand:aurora-skin'],
      ['美妆KOL', 'category:beauty'],
    ])
  })

  test('asking for the brands or bloggers of a place is not the place; of a category it is the category', () => {
    for (const k of ['日本品牌', 'Japan brands', '韩国博主']) expect([k, sample.resolve(k).kind]).toEqual([k, 'free_text'])
    expectResolved([
      ['美妆博主', 'category:beauty'],
      ['beauty KOLs', 'category:beauty'],
      ['Aurora Skin brand', 'brand:aurora-skin'],
    ])
  })

  test('codes only as written in capitals: pen is a word, PEN is Penang', () => {
    expectResolved([
      ['PEN', 'destination:PEN'],
      ['pen', 'free_text:pen'],
      ['TYO', 'destination:TYO'],
      ['tyo', 'free_text:tyo'],
      ['JP', 'country:JP'],
      ['UK', 'country:GB'],
      ['uk', 'free_text:uk'],
    ])
  })

  test('category words marketers and shoppers use resolve to the category', () => {
    expectResolved([
      ['护肤品', 'category:beauty'],
      ['化妆品', 'category:beauty'],
      ['露营装备', 'category:outdoor-sports'],
      ['宠物用品', 'category:pets'],
      ['母婴用品', 'category:parenting'],
      ['数码产品', 'category:consumer-electronics'],
      ['pet supplies', 'category:pets'],
      ['camping gear', 'category:outdoor-sports'],
      ['skincare products', 'category:beauty'],
    ])
  })

  test('free text near known names says which: mistyped names, and names inside longer text', () => {
    const typo = sample.resolve('Auror Skin')
    expect(typo.kind === 'free_text' && typo.near!.map((n) => [n.entity.id, n.how, n.distance])).toEqual([['brand:aurora-skin', 'typo', 1]])
    const inside = sample.resolve('Aurora Skin serum price')
    expect(inside.kind === 'free_text' && inside.near!.map((n) => [n.entity.id, n.how])).toEqual([
      ['brand:aurora-skin', 'contains'],
      ['term:serum', 'contains'],
    ])
    const han = sample.resolve('极光机')
    expect(han.kind === 'free_text' && han.near!.map((n) => n.entity.id)).toEqual(['brand:aurora-skin'])
    expect(sample.resolve('quantum knitting')).toEqual({ kind: 'free_text', text: 'quantum knitting' })
    // Two-character Chinese names are never guessed at by spelling (北京 is not a typo of 东京).
    const beijing = sample.resolve('南京')
    expect(beijing.kind === 'free_text' ? (beijing.near ?? []).filter((n) => n.how === 'typo') : []).toEqual([])
    // A whole word more is no spelling: the name is inside it.
    const more = sample.resolve('Aurora Skin 2')
    expect(more.kind === 'free_text' && more.near!.map((n) => [n.entity.id, n.how])).toEqual([['brand:aurora-skin', 'contains']])
    // A misspelling with an intent word is still near, and says what was taken off.
    const review = sample.resolve('Aurora Skn review')
    expect(review.kind === 'free_text' && review.near![0]).toMatchObject({ how: 'typo', typed: 'Aurora Skn', stripped: ['review'] })
    // The intent word taken off is never what the keyword is near (冰岛旅游 is not near Travel).
    const iceland = sample.resolve('冰岛旅游')
    expect(iceland.kind === 'free_text' ? (iceland.near ?? []).map((n) => n.entity.id) : []).not.toContain('category:travel')
  })

  test('keys keep what is not a Latin accent: kana voicing marks stay', () => {
    expect(nameKey('がっこう')).toBe('がっこう')
    expect(nameKey('Hà Nội')).toBe('ha noi')
  })
})
