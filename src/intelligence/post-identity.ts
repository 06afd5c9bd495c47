/**
 * One post is one post: the identity of an evidence item, before anything counts it. Engines return one post
 * under many links (every Xiaohongshu share carries its own `xsec_token`, a Douyin share its `share_id` and
 * device parameters), and two engines return it under different URL forms. searx merges only URLs equal but
 * for `www.`, the scheme and a trailing slash (`searx/results.py`, compare_urls): the query must be the same,
 * so share links reach the service as distinct results.
 *
 * An item's key, the first that applies:
 * 1. the post's id on its platform, read from the URL forms the platforms use: Xiaohongshu
 *    `/explore/<note id>`, `/discovery/item/<id>`, `/user/profile/<user>/<id>`; Douyin `/video/<id>`,
 *    `/note/<id>`, `iesdouyin.com/share/video|note|slides/<id>`, `?modal_id=<id>`; WeChat articles by
 *    `__biz` + `mid` + `idx` (`/s?…`, `/mp/appmsg/show?…` with `appmsgid` + `itemidx`), or by `/s/<key>`;
 * 2. the URL without tracking and share parameters (TRACKING), fragment, scheme, `www.` and trailing slashes,
 *    its other parameters sorted;
 * 3. without a URL, the provider's own id (the corpus, native results without links).
 *
 * Two items with different keys are still one post when their title, text and publication day are the same
 * (a short link such as `xhslink.com/a/…` carries no id, and `/s/<key>` cannot be turned into `__biz`), unless
 * both carry ids of the same kind: two note ids are two notes. Items without a URL are told apart by id alone,
 * and a result whose text is only its title is not matched on its title.
 */
import type { EvidenceItem } from './evidence'

/**
 * Parameters that say who shared a link or how it was reached, never which post it is. Sources: ClearURLs'
 * rules (`data.min.json`: its global rules and its xiaohongshu.com rules), the share links the platforms'
 * apps write (Xiaohongshu `xsec_token` / `xsec_source`; Douyin's iesdouyin share parameters and `share_id`)
 * and WeChat's article parameters (`chksm`, `scene`, … in shared article links).
 */
const TRACKING: { hosts: RegExp; names: RegExp }[] = [
  {
    hosts: /./,
    names:
      /^(?:utm_\w*|ga_\w+|itm_(?:campaign|medium|source)|fbclid|gclid|dclid|msclkid|twclid|yclid|igshid|mc_(?:cid|eid|tc)|mkt_tok|_ga|_gl|_openstat|spm|spm_id_from|share_id|share_source|share_medium|xsec_token|xsec_source)$/i,
  },
  {
    hosts: /(?:^|\.)(?:xiaohongshu\.com|xhslink\.com)$/,
    names:
      /^(?:xhsshare|author_share|type|share_from_user_hidden|app_version|app_platform|apptime|appuid|shareredid|ignoreengage|exsource|verifyuuid|verifytype|verifybiz|source)$/i,
  },
  {
    hosts: /(?:^|\.)(?:douyin\.com|iesdouyin\.com)$/,
    names:
      /^(?:previous_page|region|mid|u_code|did|iid|with_sec_did|titletype|share_sign|share_version|share_iid|share_app_name|share_link_id|ts|timestamp|from|from_ssr|from_aid|schema_type|app|enter_from|enter_method|sec_uid|launch_method)$/i,
  },
  {
    hosts: /^mp\.weixin\.qq\.com$/,
    names:
      /^(?:chksm|scene|subscene|sessionid|clicktime|enterid|ascene|devicetype|version|nettype|lang|exportkey|pass_ticket|wx_header|abtest_cookie|sharer_sharetime|sharer_shareid|sharer_username|from|isappinstalled|poc_token|key|uin|mpshare|srcid|rd2werd|share_token|realreporttime)$/i,
  },
]

const XHS_NOTE = /^\/(?:explore|discovery\/item|search_result|user\/profile\/[^/]+)\/([0-9a-f]{24})\/?$/i
const DOUYIN_POST = /^\/(?:video|note|share\/(?:video|note|slides))\/(\d{8,20})\/?$/

/** An item's key and, when it is an id of a platform, which platform's (see the module comment). */
export function keyOf(item: Pick<EvidenceItem, 'id' | 'url'>): { key: string; kind: string | null } {
  let url: URL | null = null
  try {
    url = item.url ? new URL(item.url) : null
  } catch {}
  if (!url) return { key: item.url ? `url:${item.url}` : `id:${item.id}`, kind: item.url ? null : 'id' }
  const host = url.hostname.toLowerCase().replace(/^www\./, '')
  const param = (...names: string[]) => names.map((n) => url.searchParams.get(n)).find((v) => v)
  if (/(?:^|\.)xiaohongshu\.com$/.test(host)) {
    const note = XHS_NOTE.exec(url.pathname)?.[1]
    if (note) return { key: `xiaohongshu:${note.toLowerCase()}`, kind: 'xiaohongshu' }
  }
  if (/(?:^|\.)(?:douyin\.com|iesdouyin\.com)$/.test(host)) {
    const video = DOUYIN_POST.exec(url.pathname)?.[1] ?? param('modal_id')
    if (video && /^\d{8,20}$/.test(video)) return { key: `douyin:${video}`, kind: 'douyin' }
  }
  if (host === 'mp.weixin.qq.com') {
    const short = /^\/s\/([\w-]{8,})\/?$/.exec(url.pathname)?.[1]
    if (short) return { key: `wechat-s:${short}`, kind: 'wechat-s' }
    const [biz, mid, idx] = [param('__biz'), param('mid', 'appmsgid'), param('idx', 'itemidx')]
    if (biz && mid) return { key: `wechat:${biz}/${mid}/${idx ?? '1'}`, kind: 'wechat' }
  }
  const kept = [...url.searchParams].filter(([name]) => !TRACKING.some((t) => t.hosts.test(host) && t.names.test(name)))
  kept.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0))
  const query = kept.length ? `?${new URLSearchParams(kept)}` : ''
  return { key: `url:${host}${url.port ? `:${url.port}` : ''}${url.pathname.replace(/\/+$/, '')}${query}`, kind: null }
}

/** Title, text and publication day, when the text is more than the title (else null: a title alone is no identity). */
function contentOf(item: EvidenceItem): string | null {
  if (!item.url || !item.text || item.text === item.title) return null
  return `${item.title}\n${item.text}\n${item.publishedAt.toISOString().slice(0, 10)}`
}

type Identity = ReturnType<typeof keyOf> & { content: string | null }
/** Identities computed once per item: paging, the lanes and momentum each ask for them. */
const identities = new WeakMap<EvidenceItem, Identity>()
function identityOf(item: EvidenceItem): Identity {
  let identity = identities.get(item)
  if (!identity) identities.set(item, (identity = { ...keyOf(item), content: contentOf(item) }))
  return identity
}

/** Posts seen so far: `add` keeps an item unless it is a post already added (see the module comment). */
export class PostSet {
  private readonly keys = new Set<string>()
  /** The kinds of id (null: a URL) of the items added with each title, text and day. */
  private readonly contents = new Map<string, (string | null)[]>()

  /** Whether `item` is a post already added. */
  has(item: EvidenceItem): boolean {
    const { key, kind, content } = identityOf(item)
    if (this.keys.has(key)) return true
    const kinds = content === null ? undefined : this.contents.get(content)
    // Two ids of one kind are two posts; a URL without an id, or ids of two kinds, may be the same post.
    return kinds !== undefined && kinds.some((k) => k === null || kind === null || k !== kind)
  }

  /** Adds `item`; false when it is a copy of a post already added. */
  add(item: EvidenceItem): boolean {
    if (this.has(item)) return false
    const { key, kind, content } = identityOf(item)
    this.keys.add(key)
    if (content !== null) this.contents.set(content, [...(this.contents.get(content) ?? []), kind])
    return true
  }
}
