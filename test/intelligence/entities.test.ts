/**
 * The entity resolver and the relevance rule on their own: what a keyword resolves to in any language or
 * code, and which texts are evidence about it. The sample world's index is read from the shipped data.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { RELEVANCE } from '../../src/catalog/evidence-rules'
import { EntityIndex, STATIC_ENTITIES, type Resolved } from '../../src/intelligence/entities'
import { matcherFor } from '../../src/intelligence/relevance'
import { Api } from './support'

const id = (r: Resolved) => (r.kind === 'entity' ? r.entity.id : `free_text:${r.text}`)

/** A small world: one topic, one brand of another category whose name contains a place, one creator. */
const world = new EntityIndex({
  topics: [{ slug: 'car-camping', name: 'Car camping', nameZh: '车载露营', category: 'automotive' }, { slug: 'camping', name: 'Camping', nameZh: '露营', category: 'outdoor-sports' }],
  brands: [{ slug: 'celestine-paris', name: 'Celestine Paris', nameZh: '赛勒斯汀', categories: ['luxury', 'beauty'] }],
  creators: [{ handle: 'kiki_outdoor_lab', name: '阿鹿户外日记', category: 'outdoor-sports' }],
})
const relevance = (keyword: string, title: string, text = '', author: string | null = null) => matcherFor(world.resolve(keyword), world).relevance({ title, text, author })

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
    expect(outdoor.kind === 'entity' && outdoor.entity.members.map((m) => m.id)).toEqual(expect.arrayContaining(['topic:camping', 'term:skiing']))
  })

  test('anything else is free text, normalised', () => {
    expect(STATIC_ENTITIES.resolve('  quantum   knitting ')).toEqual({ kind: 'free_text', text: 'quantum knitting' })
  })

  test('a name two kinds share goes to the documented precedence (Singapore is the city); two creators sharing a display name resolve to neither', () => {
    expect(id(STATIC_ENTITIES.resolve('Singapore'))).toBe('destination:SIN')
    const twins = new EntityIndex({ topics: [], brands: [], creators: [{ handle: 'a_one', name: '小林日记', category: 'beauty' }, { handle: 'b_two', name: '小林日记', category: 'pets' }] })
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
  beforeAll(async () => {
    api = await Api.start()
  })
  afterAll(() => api?.close())

  test('every weekly topic and brand resolves by its English and its Chinese name to itself', async () => {
    const index = api.rt.intelligence.entities()
    const named = index.entities.filter((e) => e.kind === 'topic' || e.kind === 'brand')
    expect(named.length).toBe(96 + 120)
    for (const e of named) for (const n of [e.name, e.nameZh!]) expect([n, id(index.resolve(n))]).toEqual([n, e.id])
  })

  test('the only names two entities claim are the Singapore city-country and creator display names (which then resolve to no one)', async () => {
    const index = api.rt.intelligence.entities()
    for (const c of index.conflicts) {
      const ok = c.key === 'singapore' || c.key === '新加坡' || (c.kept === 'neither' && c.dropped.split(' ').every((d) => d.startsWith('creator:')))
      expect([c, ok]).toEqual([c, true])
    }
  })
})
