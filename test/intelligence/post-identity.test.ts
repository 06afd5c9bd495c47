/** One post is one post: the identity of an item under the links and URL forms platforms and engines give it. */
import { describe, expect, test } from 'bun:test'
import { keyOf, PostSet } from '../../src/intelligence/post-identity'
import { evidenceItem } from './synthetic'

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

describe('a set of posts', () => {
  const at = { daysAgo: 3, title: '越野跑训练日记', text: '越野跑第三天：爬升和补给。' }

  test('a link without an id (a short link) is the post with the same title, text and day', () => {
    const posts = new PostSet()
    expect(posts.add(evidenceItem('a', { ...at, url: 'https://www.xiaohongshu.com/explore/6650a1b2c3d4e5f601234567' }))).toBe(true)
    expect(posts.add(evidenceItem('b', { ...at, url: 'http://xhslink.com/a/AbCdEf123' }))).toBe(false)
    // Another day is another post.
    expect(posts.add(evidenceItem('c', { ...at, daysAgo: 4, url: 'http://xhslink.com/a/ZzYyXx987' }))).toBe(true)
  })

  test('two ids of one kind are two posts, even with the same words on the same day; ids of two kinds may be one', () => {
    const posts = new PostSet()
    expect(posts.add(evidenceItem('a', { ...at, url: 'https://www.xiaohongshu.com/explore/6650a1b2c3d4e5f601234567' }))).toBe(true)
    expect(posts.add(evidenceItem('b', { ...at, url: 'https://www.xiaohongshu.com/explore/6650a1b2c3d4e5f601234568' }))).toBe(true)
    const article = { ...at, title: '越野跑装备清单' }
    expect(posts.add(evidenceItem('w1', { ...article, url: 'https://mp.weixin.qq.com/s?__biz=QQ==&mid=1&idx=1&sn=f' }))).toBe(true)
    expect(posts.add(evidenceItem('w2', { ...article, url: 'https://mp.weixin.qq.com/s/Xa1b2C3d4E5f6G7h8I9j0K' }))).toBe(false)
  })

  test('items without a link are told apart by id alone; a title with no text is not matched on the title', () => {
    const posts = new PostSet()
    expect(posts.add(evidenceItem('corpus-1', at))).toBe(true)
    expect(posts.add(evidenceItem('corpus-2', at))).toBe(true)
    expect(posts.add(evidenceItem('corpus-1', { ...at, daysAgo: 9 }))).toBe(false)
    const bare = { daysAgo: 1, title: '东京天气', text: '东京天气' }
    expect(posts.add(evidenceItem('p', { ...bare, url: 'https://weather.example.cn/tokyo' }))).toBe(true)
    expect(posts.add(evidenceItem('q', { ...bare, url: 'https://forecast.example.com/tokyo' }))).toBe(true)
  })
})
