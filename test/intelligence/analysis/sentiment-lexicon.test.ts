/** The lexicon scorer on hand-written Chinese and English sentences, and the narrative frames. */
import { describe, expect, test } from 'bun:test'
import { framesFor, framesOf, scoreText, type Tone } from '../../../src/intelligence/analysis/sentiment'
import { words } from '../../../src/intelligence/analysis/text'

const tone = (text: string) => scoreText(text).tone
/** A test per text: the tone the scorer gives it is the one a reader gives it. */
const testTones = (cases: [text: string, expected: Tone][]) =>
  test.each(cases)('%s reads %s', (text, expected) => {
    expect(tone(text)).toBe(expected)
  })

describe('Chinese sentiment', () => {
  testTones([
    ['这款露营装备质量很好，强烈推荐！', 'positive'],
    ['性价比很高，绝绝子', 'positive'],
    ['真的很喜欢，已经回购了', 'positive'],
    ['踩雷了，后悔买了', 'negative'],
    ['感觉是智商税', 'negative'],
    ['服务态度很差，排队两小时', 'negative'],
    ['记录一下，附上攻略', 'neutral'],
  ])

  test('internet words the segmenter splits are still found by joining segments', () => {
    // ICU splits these (踩|雷, 性|价|比, 绝|绝|子): the scorer must still see the words.
    expect(words('踩雷了', 'zh')).not.toContain('踩雷')
    expect(scoreText('踩雷了').hits.map((h) => h.word)).toContain('踩雷')
    expect(scoreText('绝绝子').hits.map((h) => h.word)).toEqual(['绝绝子'])
  })

  test('negation flips the word after it: 推荐 is positive, 不推荐 / 不太推荐 / 一点都不好用 are negative', () => {
    expect(scoreText('推荐').score).toBeGreaterThan(0)
    for (const text of ['不推荐', '不太推荐', '一点都不好用', '不是很好', '没有惊喜']) expect(scoreText(text).score).toBeLessThan(0)
  })

  test('degree words scale: 很喜欢 > 喜欢 > 有点喜欢', () => {
    const [very, plain, little] = ['很喜欢', '喜欢', '有点喜欢'].map((t) => scoreText(t).score)
    expect(very).toBeGreaterThan(plain!)
    expect(plain).toBeGreaterThan(little!)
  })

  test('after 但是 the turn decides the tone, both ways', () => {
    expect(tone('虽然价格太贵了，但是体验超棒')).toBe('positive')
    expect(tone('虽然体验超棒，但是价格太贵了')).toBe('negative')
  })

  test('不错 is praise, not a negator of what follows', () => {
    expect(tone('味道不错，推荐')).toBe('positive')
  })
})

describe('English sentiment', () => {
  testTones([
    ['Highly recommend, worth every penny', 'positive'],
    ['Really disappointed, a total rip-off', 'negative'],
    ['I did not love it', 'negative'],
    ["didn't like it at all", 'negative'],
    ['way too expensive, but an amazing experience', 'positive'],
    ['Sharing my notes from the weekend', 'neutral'],
  ])

  test('a Chinese post with an English brand name is scored as Chinese', () => {
    expect(tone('Aurora Skin极光肌真的好用，回购了')).toBe('positive')
  })

  test('hashtags are not scored (#好用 is a tag, not an opinion)', () => {
    expect(scoreText('记录一下 #好用 #推荐').hits).toEqual([])
    // Full-width and Xiaohongshu topic forms too.
    expect(scoreText('记录一下 ＃好用＃ #强烈推荐[话题]# #绝绝子#').hits).toEqual([])
  })

  test('推荐 glued to a content word is a label; as a verb it still praises', () => {
    for (const label of ['豆子推荐', '推荐路线', '好物推荐清单']) expect(scoreText(label).hits).toEqual([])
    for (const verb of ['推荐', '我推荐这款', '推荐给大家', '非常推荐', '被种草了']) expect(scoreText(verb).score).toBeGreaterThan(0)
    expect(scoreText('不太推荐').score).toBeLessThan(0)
  })
})

/**
 * Short posts as buyers see them, each with the tone a reader gives it (written before running the
 * scorer): complaint phrasing, praise, plain information, and posts whose only "praise" is a hashtag
 * or a heading (X推荐 = "recommendations of X", 推荐路线 = "recommended route").
 */
describe('posts read the way a reader reads them', () => {
  testTones([
    // complaints
    ['用了两次就坏了', 'negative'],
    ['有点失望', 'negative'],
    ['这个面霜不太行', 'negative'],
    ['说实话不值这个价', 'negative'],
    ['又踩雷了，大家别买', 'negative'],
    ['再也不买了', 'negative'],
    ['收到第二天就退货了', 'negative'],
    ['客服不理人，消息一直不回', 'negative'],
    ['等了一个小时才上菜', 'negative'],
    ['味道一般，不会再来', 'negative'],
    ['性价比很低', 'negative'],
    ['用完过敏了，脸又红又痒', 'negative'],
    ['质量太差了，洗一次就起球', 'negative'],
    ['The zipper broke after a week', 'negative'],
    ['Never again.', 'negative'],
    ['Not worth it at all', 'negative'],
    ['Total waste of money', 'negative'],
    // praise
    ['已经回购第三次了', 'positive'],
    ['真的好用，敏感肌也能用', 'positive'],
    ['强烈推荐这家店！', 'positive'],
    ['物超所值，下次还来', 'positive'],
    ['推荐！这款帐篷五分钟就能搭好', 'positive'],
    ['真心推荐这个牌子', 'positive'],
    ['环境安静，值得推荐', 'positive'],
    ['Highly recommend this café', 'positive'],
    ['Absolutely love the new formula', 'positive'],
    ['Great value for the price', 'positive'],
    // information
    ['周六下午两点开始，地址在评论区', 'neutral'],
    ['新品今天上架，一共三个颜色', 'neutral'],
    ['Opening hours are 9am to 6pm, closed on Mondays', 'neutral'],
    ['本周上新：露营灯、折叠椅、天幕', 'neutral'],
    // a hashtag or a heading is no opinion
    ['周末去喝咖啡 #豆子推荐 #咖啡', 'neutral'],
    ['#好物推荐# 今天整理了一下囤货', 'neutral'],
    ['精品咖啡｜豆子推荐', 'neutral'],
    ['好物推荐清单：防晒、面膜、洗面奶', 'neutral'],
    ['推荐路线：外滩—南京路—人民广场', 'neutral'],
    ['成都三日游推荐路线，附交通方式', 'neutral'],
    ['Trip notes #recommended #tokyo', 'neutral'],
  ])
})

describe('narrative frames', () => {
  test('Chinese and English cues find the same frame', () => {
    const all = framesFor(undefined)
    expect(framesOf('价格太贵了', all)).toContain('price_value')
    expect(framesOf('way too expensive', all)).toContain('price_value')
    expect(framesOf('用完过敏了', all)).toContain('safety_trust')
  })

  test('English cues match whole words only', () => {
    expect(framesOf('a safely packed bag', framesFor(undefined))).not.toContain('safety_trust')
  })

  test('an industry adds its own frames; without one every industry frame is considered; an unknown one gets the base frames', () => {
    expect(framesFor('travel')).toMatchObject({ industry: 'travel' })
    expect(Object.keys(framesFor('旅游').frames)).toContain('access_logistics')
    expect(Object.keys(framesFor('beauty').frames)).not.toContain('access_logistics')
    expect(Object.keys(framesFor(undefined).frames)).toEqual(
      expect.arrayContaining(['access_logistics', 'skin_fit', 'venue_access', 'sustainability']),
    )
    const unknown = framesFor('shipbuilding')
    expect(unknown.industry).toBeNull()
    expect(Object.keys(unknown.frames)).toEqual([
      'price_value',
      'quality_efficacy',
      'experience_service',
      'safety_trust',
      'aesthetics_lifestyle',
    ])
  })
})
