/** One post is one post: the identity of an item under the links and URL forms platforms and engines give it. */
import { describe, expect, test } from 'bun:test'
import type { EvidenceItem } from '../../../src/intelligence/evidence'
import { distinctPosts, keyOf, postsOf } from '../../../src/intelligence/names/post-identity'
import { evidenceItem } from '../synthetic'

const key = (url: string) => keyOf({ id: url, url }).key
const same = (...urls: string[]) => expect(new Set(urls.map(key)).size).toBe(1)

describe('the post behind a link', () => {
  test('a Xiaohongshu note under share tokens, /explore, /discovery/item and a profile path, http or https, with or without www.', () => {
    const note = '6650a1b2c3d4e5f601234567'
    same(
      `https://www.xiaohongshu.com/explore/${note}?xsec_token=ABtoken1=&xsec_source=pc_search`,
      `https://www.xiaohongshu.com/explore/${note}?app_platform=ios&app_version=8.1.0&share_from_user_hidden=true&xsec_source=app_share&type=normal&xsec_token=CDtoken2=&author_share=1&xhsshare=WeixinSession&shareRedId=abc&apptime=1764000000`,
      `http://xiaohongshu.com/discovery/item/${note}`,
      `https://www.xiaohongshu.com/user/profile/5f0000000000000000000001/${note}?xsec_token=x`,
    )
    expect(key(`https://www.xiaohongshu.com/explore/${note}`)).toBe(`xiaohongshu:${note}`)
    expect(key('https://www.xiaohongshu.com/explore/6650a1b2c3d4e5f601234568')).not.toBe(`xiaohongshu:${note}`)
  })

  test('a Douyin video on douyin.com, under share_id, as an iesdouyin share link with its device parameters, or as a modal', () => {
    same(
      'https://www.douyin.com/video/7468908569061100857',
      'https://www.douyin.com/video/7468908569061100857?previous_page=app_code_link&share_id=1617887270050131578',
      'https://www.iesdouyin.com/share/video/7468908569061100857/?region=CN&mid=0&u_code=j8a5173b&did=MS4w&with_sec_did=1&titleType=title&share_sign=x&share_version=270000&ts=1764000000&from_ssr=1',
      'https://www.douyin.com/discover?modal_id=7468908569061100857',
    )
    // A short link carries no id: it is only its own URL.
    expect(key('https://v.douyin.com/iRNBho6u/')).toBe('url:v.douyin.com/iRNBho6u')
  })

  test('a WeChat article by __biz, mid and idx whatever else its link carries, or by its /s/ key', () => {
    same(
      'https://mp.weixin.qq.com/s?__biz=MzA5NzE1MDg0MQ%3D%3D&mid=2650000001&idx=1&sn=0123456789abcdef&chksm=8b2c&scene=27#rd',
      'http://mp.weixin.qq.com/s?__biz=MzA5NzE1MDg0MQ==&mid=2650000001&idx=1&sn=0123456789abcdef',
      'https://mp.weixin.qq.com/mp/appmsg/show?__biz=MzA5NzE1MDg0MQ==&appmsgid=2650000001&itemidx=1',
    )
    expect(key('https://mp.weixin.qq.com/s?__biz=MzA5NzE1MDg0MQ==&mid=2650000001&idx=2&sn=ff')).not.toBe(
      key('https://mp.weixin.qq.com/s?__biz=MzA5NzE1MDg0MQ==&mid=2650000001&idx=1&sn=ff'),
    )
    same(
      'https://mp.weixin.qq.com/s/Xa1b2C3d4E5f6G7h8I9j0K',
      'http://mp.weixin.qq.com/s/Xa1b2C3d4E5f6G7h8I9j0K?scene=1&from=timeline&isappinstalled=0',
    )
  })

  test('a scraped link whose parameters keep their HTML escape (&amp;) is the same article', () => {
    const article = 'https://mp.weixin.qq.com/s?__biz=MzA5NzE1MDg0MQ==&mid=2650000001&idx=1&sn=0123456789abcdef'
    same(article, article.replaceAll('&', '&amp;'), `${article.replaceAll('&', '&amp;amp;')}&amp;chksm=8b2c&amp;scene=27`)
    expect(key(article.replaceAll('&', '&amp;'))).toBe('wechat:MzA5NzE1MDg0MQ==/2650000001/1')
    same('https://news.example.cn/a?id=7&utm_source=x', 'https://news.example.cn/a?id=7&amp;utm_source=x')
  })

  test('a link that names no page (about:blank, mailto:, javascript:) is no identity: the provider’s id is', () => {
    const urls = ['about:blank', 'about:blank', 'mailto:editor@example.cn', 'javascript:void(0)']
    const keys = urls.map((url, i) => keyOf({ id: `r${i}`, url }).key)
    expect(keys).toEqual(['id:r0', 'id:r1', 'id:r2', 'id:r3'])
    // Nor are they matched on their words: told apart by id, like items without a link.
    const blank = (id: string) => evidenceItem(id, { daysAgo: 1, title: '露营', text: '露营攻略', url: 'about:blank' })
    expect(postsOf([blank('a'), blank('b'), blank('a')]).map((p) => p.map((i) => i.id))).toEqual([['a', 'a'], ['b']])
  })

  test('any other page: tracking and share parameters, scheme, www., trailing slashes, fragment and parameter order do not count', () => {
    same(
      'https://www.news.example.cn/a/123?utm_source=wechat&utm_medium=social&id=7&page=2',
      'http://news.example.cn/a/123/?page=2&id=7&fbclid=x#comments',
      'https://news.example.cn/a/123?spm=a.b.c&page=2&share_id=99&id=7',
    )
    // What picks the page stays: another id is another page.
    expect(key('https://news.example.cn/a?id=7')).not.toBe(key('https://news.example.cn/a?id=8'))
  })
})

/** The posts among `items` as the ids of their items, the one shown first; and of the items in the other order. */
const posts = (...items: EvidenceItem[]) => postsOf(items).map((post) => post.map((i) => i.id))
const reversed = (...items: EvidenceItem[]) => posts(...items.reverse())
/** Posts as their ids joined, sorted: what does not depend on the order the items came in. */
const grouping = (ps: string[][]) => ps.map((p) => [...p].sort().join(' ')).sort()

describe('a set of posts', () => {
  const at = { daysAgo: 3, title: '越野跑训练日记', text: '越野跑第三天：爬升和补给。', retrieval: 'proxy' as const }
  const note = (id: string, n: number, o = {}) =>
    evidenceItem(id, { ...at, url: `https://www.xiaohongshu.com/explore/6650a1b2c3d4e5f60123456${n}?xsec_token=t${id}`, ...o })
  const short = (id: string, o = {}) => evidenceItem(id, { ...at, url: `http://xhslink.com/a/${id}AbCdEf123`, ...o })

  test('a link without an id (a short link) is the post with the same title, text and day; the note is shown', () => {
    expect(posts(short('s'), note('a', 7))).toEqual([['a', 's']])
    expect(posts(note('a', 7), short('s'))).toEqual([['a', 's']])
    // Another day is another post.
    expect(posts(note('a', 7), short('c', { daysAgo: 4 }))).toEqual([['a'], ['c']])
  })

  test('two ids of one kind are two posts, and a short link with their words could be either: three posts, in any order', () => {
    const items = [short('s'), note('a', 7), note('b', 8)]
    const expected = ['a', 'b', 's']
    for (const order of [
      [0, 1, 2],
      [1, 2, 0],
      [1, 0, 2],
      [2, 1, 0],
      [0, 2, 1],
      [2, 0, 1],
    ])
      expect(grouping(posts(...order.map((i) => items[i]!)))).toEqual(expected)
    // Share links of one of them are still that note.
    const shared = note('a2', 7)
    expect(grouping(posts(short('s'), note('a', 7), shared, note('b', 8)))).toEqual(['a a2', 'b', 's'])
  })

  test('ids of two kinds (a WeChat article by __biz and by /s/) may be one; the native result is shown', () => {
    const article = { ...at, title: '越野跑装备清单' }
    const byBiz = evidenceItem('w1', { ...article, url: 'https://mp.weixin.qq.com/s?__biz=QQ==&mid=1&idx=1&sn=f' })
    const byKey = evidenceItem('w2', { ...article, url: 'https://mp.weixin.qq.com/s/Xa1b2C3d4E5f6G7h8I9j0K' })
    expect(posts(byBiz, byKey)).toEqual([['w1', 'w2']])
    expect(reversed(byBiz, byKey)).toEqual([['w2', 'w1']])
    // A native result of the note is shown before a web result of it, whatever came first.
    const web = note('web', 7)
    const native = note('native', 7, { retrieval: 'native' as const })
    expect(posts(short('s'), web, native)).toEqual([['native', 'web', 's']])
    const { kept, copies } = distinctPosts([short('s'), web, native])
    expect([kept.map((i) => i.id), copies.map((i) => i.id)]).toEqual([['native'], ['web', 's']])
  })

  test('items without a link are told apart by id alone; a title with no text is not matched on the title', () => {
    const plain = { ...at, retrieval: 'native' as const }
    expect(
      posts(evidenceItem('corpus-1', plain), evidenceItem('corpus-2', plain), evidenceItem('corpus-1', { ...plain, daysAgo: 9 })),
    ).toEqual([['corpus-1', 'corpus-1'], ['corpus-2']])
    const bare = { daysAgo: 1, title: '东京天气', text: '东京天气' }
    expect(
      posts(
        evidenceItem('p', { ...bare, url: 'https://weather.example.cn/tokyo' }),
        evidenceItem('q', { ...bare, url: 'https://forecast.example.com/tokyo' }),
      ),
    ).toEqual([['p'], ['q']])
  })
})
