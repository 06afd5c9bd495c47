/**
 * Live results shaped as real engines return them (issue 48): one post under many share links, the same post
 * under other URL forms on another engine, listicles that name a keyword once deep in their text, and an
 * engine that answers its first page again for every page. Each case has its own keyword, of an entity with
 * no weekly ranking (so the evidence alone decides the direction), and a known truth: every post it is about
 * is published at a steady rate, so the topic is flat.
 *
 * URL forms are those the platforms use: Xiaohongshu `/explore/<note id>` and `/discovery/item/<note id>` with
 * `xsec_token` / `xsec_source` and the app's share parameters, and `xhslink.com` short links (no id); Douyin
 * `/video/<id>`, `iesdouyin.com/share/video/<id>/` with its share parameters, and `share_id`; WeChat
 * `mp.weixin.qq.com/s?__biz=…&mid=…&idx=…&sn=…` with `chksm` / `scene`, and `/s/<key>` (not derivable from the
 * other); web pages with `utm_*`, `www.`, http and a trailing slash.
 *
 * The second engine writes titles and snippets as web engines do: the site's name after the title (" - 小红书",
 * "_小红书", " - 抖音"), the snippet cut short or taken from further on in the page. A copy under a link that
 * names the post's id (or the same page) is still that post; a short link or a WeChat `/s/<key>` under another
 * title and snippet names nothing to match it by, so it counts as a post of its own (`unmatched`, the limit
 * docs/intelligence.md states).
 */
import { createHash } from 'node:crypto'
import type { CorpusDoc, SearxEngine } from '../../../support/searx'

const DAY = 86_400_000
/** Days back the posts start: past the 60 days of a 30-day trend's two windows. */
const SPAN = 70

const hex = (seed: string, n: number) => createHash('sha256').update(seed).digest('hex').slice(0, n)
const digits = (seed: string, n: number) =>
  BigInt(`0x${hex(seed, 16)}`)
    .toString()
    .padStart(n, '7')
    .slice(0, n)
const token = (seed: string) => createHash('sha256').update(seed).digest('base64url').slice(0, 43)

export interface ShapeCase {
  id: string
  /** What the buyer asks (china.trends, 30d). */
  keyword: string
  /** Distinct posts dated inside the two windows (the last 60 days). */
  posts: number
  /** Of them, listicles naming the keyword once deep in their text (passing mentions). */
  mentions: number
  /** Results that are another link to a post already returned (share links, other URL forms). */
  copies: number
  /**
   * Of the copies, those nothing can tell from another post: a link with no id of the post (a short link, a
   * WeChat `/s/<key>`) under a title and snippet the engine rewrote. Each is counted as a post.
   */
  unmatched: number
}

export interface ShapesWorld {
  engines: SearxEngine[]
  cases: ShapeCase[]
  /** The post each URL is a link to: what a buyer checks `top_evidence` against. */
  postOf: Map<string, string>
  /** The URLs of the unmatched copies (ShapeCase.unmatched). */
  unmatched: Set<string>
}

/** The world at `now` (ms): posts `k` days back are published at `now - (k + 0.5) days`. */
export function shapesWorld(now: number): ShapesWorld {
  const at = (k: number) => new Date(now - (k + 0.5) * DAY).toISOString()
  const notes: CorpusDoc[] = []
  const mirror: CorpusDoc[] = []
  const echo: CorpusDoc[] = []
  const postOf = new Map<string, string>()
  const unmatched = new Set<string>()
  const add = (to: CorpusDoc[], post: string, doc: CorpusDoc) => {
    to.push(doc)
    postOf.set(doc.url, post)
    // As searx returns it: its tracker_url_remover plugin (on by default) takes utm_* parameters off.
    const url = new URL(doc.url)
    for (const name of [...url.searchParams.keys()]) if (name.startsWith('utm_')) url.searchParams.delete(name)
    postOf.set(url.href, post)
  }
  /** `doc` as the second engine shows it: the site after the title, the snippet cut at 16 characters or from its 8th on. */
  const rewritten = (doc: Omit<CorpusDoc, 'url'>, site: string, k: number): Omit<CorpusDoc, 'url'> => ({
    ...doc,
    title: `${doc.title}${site}`,
    content: k % 2 ? `${doc.content!.slice(0, 16)}…` : `…${doc.content!.slice(8)}`,
  })
  const xhs = (seed: string) => hex(`xhs ${seed}`, 24)
  const douyin = (seed: string) => `7${digits(`dy ${seed}`, 18)}`
  const xhsShare = (id: string, n: number) =>
    `https://www.xiaohongshu.com/explore/${id}?app_platform=${n % 2 ? 'ios' : 'android'}&app_version=8.${n}.0&share_from_user_hidden=true&xsec_source=app_share&type=normal&xsec_token=${token(`${id} ${n}`)}=&author_share=1&xhsshare=${n % 3 ? 'WeixinSession' : 'CopyLink'}&shareRedId=${token(`red ${n}`).slice(0, 24)}&apptime=${1_764_000_000 + n}`
  const iesShare = (id: string, n: number) =>
    `https://www.iesdouyin.com/share/video/${id}/?region=CN&mid=${digits(`mid ${n}`, 19)}&u_code=${hex(`u ${n}`, 8)}&did=MS4wLjABAAAA${token(`did ${n}`)}&with_sec_did=1&titleType=title&share_sign=${token(`sign ${id} ${n}`)}&share_version=${270_000 + n}&ts=${1_764_000_000 + n}&from_ssr=1`

  // Share-link copies: cat litter (猫砂) notes and videos, the newest shared over and over.
  for (let k = 0; k < SPAN; k++)
    for (const j of [0, 1]) {
      const id = xhs(`litter ${k} ${j}`)
      const doc = (url: string): CorpusDoc => ({
        url,
        title: `猫砂实测第${k * 2 + j + 1}期：结团和除味怎么样`,
        content: `猫砂用了一个月的感受，第${k * 2 + j + 1}期。结团快不快、粉尘多不多、除味能撑几天，都写在这里。`,
        modified: at(k),
      })
      add(notes, id, doc(`https://www.xiaohongshu.com/explore/${id}?xsec_token=${token(`pc ${id}`)}=&xsec_source=pc_search`))
      // The ten newest notes come back 14 times each: every share carries a token of its own.
      if (k < 5) for (let n = 1; n < 14; n++) add(notes, id, doc(xhsShare(id, n)))
    }
  for (let k = 0; k < SPAN; k++) {
    const id = douyin(`litter ${k}`)
    const doc = (url: string): CorpusDoc => ({
      url,
      title: `猫砂横评 ${k + 1}：六款豆腐砂一次比完`,
      content: `猫砂横评第${k + 1}集，六款豆腐砂的结团、吸水和价格。`,
      modified: at(k),
    })
    add(notes, id, doc(`https://www.douyin.com/video/${id}`))
    if (k < 5) {
      for (let n = 1; n < 4; n++) add(notes, id, doc(iesShare(id, n)))
      add(notes, id, doc(`https://www.douyin.com/video/${id}?previous_page=app_code_link&share_id=${digits(`share ${id}`, 19)}`))
    }
  }

  // The same posts on two engines under other URL forms: trail running (越野跑).
  for (let k = 0; k < SPAN; k++) {
    const id = xhs(`trail ${k}`)
    const note = {
      title: `越野跑训练日记 Day ${k + 1}`,
      content: `越野跑第${k + 1}天：爬升、配速和补给，记录这一周的山路训练。`,
      modified: at(k),
    }
    add(notes, id, { url: `https://www.xiaohongshu.com/explore/${id}?xsec_token=${token(`pc ${id}`)}=&xsec_source=pc_search`, ...note })
    const short = `http://xhslink.com/a/${token(`short ${id}`).slice(0, 12)}`
    if (k % 5 === 0) unmatched.add(short)
    add(mirror, id, {
      url:
        k % 5 === 0
          ? short
          : `http://xiaohongshu.com/discovery/item/${id}?xsec_source=app_share&xsec_token=${token(`app ${id}`)}=&app_platform=ios&type=normal&xhsshare=WeixinSession`,
      ...rewritten(note, k % 3 ? ' - 小红书' : '_小红书', k),
    })
    const video = douyin(`trail ${k}`)
    const clip = { title: `越野跑下坡技巧 ${k + 1}`, content: `越野跑下坡怎么跑才不伤膝盖，第${k + 1}集。`, modified: at(k) }
    add(notes, video, { url: `https://www.douyin.com/video/${video}`, ...clip })
    add(mirror, video, { url: iesShare(video, k), ...rewritten(clip, ' - 抖音', k) })
    if (k % 2 === 0) {
      const [biz, mid, sn] = [token(`biz ${k}`).slice(0, 16), digits(`mid ${k}`, 10), hex(`sn ${k}`, 32)]
      const post = `wechat ${biz} ${mid}`
      const article = {
        title: `越野跑装备清单（${k / 2 + 1}）`,
        content: `越野跑入门装备第${k / 2 + 1}篇：鞋、背包、头灯和补给怎么选。`,
        modified: at(k),
      }
      add(notes, post, {
        url: `https://mp.weixin.qq.com/s?__biz=${biz}%3D%3D&mid=${mid}&idx=1&sn=${sn}&chksm=${hex(`ck ${k}`, 16)}&scene=27#rd`,
        ...article,
      })
      const key = `https://mp.weixin.qq.com/s/${token(`key ${k}`).slice(0, 22)}`
      if (k % 4 !== 0) unmatched.add(key)
      // WeChat article titles are shown as written; the snippet is the engine's own.
      add(mirror, post, {
        url: k % 4 === 0 ? `http://mp.weixin.qq.com/s?__biz=${biz}%3D%3D&mid=${mid}&idx=1&sn=${sn}` : key,
        ...rewritten(article, '', k),
      })
      const page = {
        title: `越野跑赛事报名开启 ${k / 2 + 1}`,
        content: `越野跑赛事第${k / 2 + 1}站报名开启，线路和关门时间公布。`,
        modified: at(k),
      }
      add(notes, `web trail ${k}`, {
        url: `https://www.runner.example.cn/news/${k}?utm_source=weibo&utm_medium=social&utm_campaign=race`,
        ...page,
      })
      add(mirror, `web trail ${k}`, { url: `http://runner.example.cn/news/${k}/`, ...rewritten(page, '_跑者网', k) })
    }
  }

  // Passing mentions: Tokyo (东京) notes at a steady rate, and in the recent window listicles that name it once, deep in.
  for (let k = 0; k < SPAN; k++)
    for (const j of [0, 1]) {
      const id = xhs(`tokyo ${k} ${j}`)
      add(notes, id, {
        url: `https://www.xiaohongshu.com/explore/${id}`,
        title: `东京街头散步路线 ${k * 2 + j + 1}`,
        content: `东京一日散步：从清澄白河到藏前，咖啡、书店和河边，第${k * 2 + j + 1}条路线。`,
        modified: at(k),
      })
    }
  for (let i = 0; i < 56; i++) {
    const url = `https://www.trips.example.cn/lists/${i}?utm_source=toutiao&utm_medium=feed`
    add(notes, `list ${i}`, {
      url,
      title: `冬季出行清单第${i + 1}期：十座值得一去的城市`,
      content:
        `年底假期快到了，这一期清单按签证难度、机票价格、天气和美食挑了十座城市，每座城市都附上适合停留的天数和预算区间，` +
        `方便直接照着排行程，出发前一周再看一遍天气和汇率就好。本期名单：首尔、曼谷、清迈、大阪、东京、吉隆坡、新加坡、悉尼、奥克兰、迪拜。`,
      modified: at(Math.floor(i / 2)),
    })
  }

  // An engine that repeats its page: decluttering (断舍离) notes over the last 50 days only, beside undated pages
  // from an engine whose every page is its first.
  for (let k = 0; k < 50; k++)
    for (const j of [0, 1]) {
      const id = xhs(`declutter ${k} ${j}`)
      add(notes, id, {
        url: `https://www.xiaohongshu.com/explore/${id}`,
        title: `断舍离第${k * 2 + j + 1}天`,
        content: `断舍离打卡第${k * 2 + j + 1}天：今天清了衣柜的一层，留下的都是常穿的。`,
        modified: at(k),
      })
    }
  for (let i = 0; i < 40; i++)
    add(echo, `echo ${i}`, {
      url: `https://home.example.cn/declutter/${i}`,
      title: `断舍离指南 ${i + 1}`,
      content: `断舍离从哪里开始：第${i + 1}个房间。`,
      modified: at(i),
    })

  return {
    engines: [
      // Engines that answer every match at once (a page bigger than its window), dated; and the repeater.
      { name: 'notes', docs: notes, pageSize: 1000 },
      { name: 'mirror', docs: mirror, pageSize: 1000 },
      { name: 'echo', docs: echo, pageSize: 40, undated: true, repeatsPage: true },
    ],
    cases: [
      { id: 'share-copies', keyword: '猫砂', posts: 120 + 60, mentions: 0, copies: 10 * 13 + 5 * 4, unmatched: 0 },
      // Unmatched: the short links of every 5th note and the /s/ keys of every other article, in the 60 days.
      {
        id: 'two-engines',
        keyword: '越野跑',
        posts: 60 + 60 + 30 + 30,
        mentions: 0,
        copies: 60 + 60 + 30 + 30,
        unmatched: 60 / 5 + 30 / 2,
      },
      { id: 'passing-mentions', keyword: '东京', posts: 120 + 56, mentions: 56, copies: 0, unmatched: 0 },
      { id: 'repeating-engine', keyword: '断舍离', posts: 100, mentions: 0, copies: 0, unmatched: 0 },
    ],
    postOf,
    unmatched,
  }
}
