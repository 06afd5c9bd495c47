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
 * 3. without a URL, or with one that is not http(s) (`about:blank`, `mailto:`, `javascript:` name no page),
 *    the provider's own id (the corpus, native results without links).
 *
 * A link scraped from a page often keeps its HTML escape: `&amp;` between parameters is read as `&`.
 *
 * Two items with different keys are still one post when their title, text and publication day are the same
 * (a short link such as `xhslink.com/a/…` carries no id, and `/s/<key>` cannot be turned into `__biz`), unless
 * ids of one kind differ among the items with that title, text and day: two note ids are two notes, and then a
 * link without an id (or an id of another kind) could be a copy of either, so it stays a post of its own. The
 * posts found do not depend on the order the items come in (postsOf). Items without an http(s) URL are told
 * apart by id alone, and a result whose text is only its title is not matched on its title.
 *
 * Of the items of one post, the one shown (top_evidence) is a native result first, then one whose link names
 * the post's id, then the first that came.
 */
import type { EvidenceItem } from '../evidence'

/**
 * Parameters that say who shared a link or how it was reached, never which post it is. Sources: ClearURLs'
 * rules (its published rule list: the global rules and those for xiaohongshu.com), the share links the platforms'
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
    url = item.url ? new URL(item.url.replace(/&(?:amp;)+/gi, '&')) : null
  } catch {}
  if (!url) return { key: item.url ? `url:${item.url}` : `id:${item.id}`, kind: item.url ? null : 'id' }
  // No page: every `about:blank` would be one post.
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { key: `id:${item.id}`, kind: 'id' }
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

/**
 * Title, text and publication day of an item with a page's URL (its key is not the provider's id), when the
 * text is more than the title (else null: a title alone is no identity).
 */
function contentOf(item: EvidenceItem, kind: string | null): string | null {
  if (kind === 'id' || !item.text || item.text === item.title) return null
  return `${item.title}\n${item.text}\n${item.publishedAt.toISOString().slice(0, 10)}`
}

type Identity = ReturnType<typeof keyOf> & { content: string | null }
/** Identities computed once per item: paging, the lanes and momentum each ask for them. */
const identities = new WeakMap<EvidenceItem, Identity>()
function identityOf(item: EvidenceItem): Identity {
  let identity = identities.get(item)
  if (!identity) {
    const key = keyOf(item)
    identities.set(item, (identity = { ...key, content: contentOf(item, key.kind) }))
  }
  return identity
}

/** Which item of a post is shown: a native result, then a link naming its id, then the first (a stable sort). */
const rank = (item: EvidenceItem) => (item.retrieval === 'native' ? 0 : 2) + (identityOf(item).kind === null ? 1 : 0)

/**
 * The posts among `items` (see the module comment): each the list of its items, the one shown first, in the order
 * of their first items. Which items are one post does not depend on the order of `items`.
 */
export function postsOf(items: readonly EvidenceItem[]): EvidenceItem[][] {
  // Items with one key are one post; keys are joined by title, text and day (union-find over the keys).
  const parent = new Map<string, string>()
  const find = (key: string): string => {
    let root = key
    while (parent.get(root) !== root) root = parent.get(root)!
    for (let at = key; at !== root; ) {
      const next = parent.get(at)!
      parent.set(at, root)
      at = next
    }
    return root
  }
  /** Per title, text and day: the keys with it, and the ids among them by kind. */
  const contents = new Map<string, { keys: Set<string>; ids: Map<string, Set<string>> }>()
  for (const item of items) {
    const { key, kind, content } = identityOf(item)
    if (!parent.has(key)) parent.set(key, key)
    if (content === null) continue
    let same = contents.get(content)
    if (!same) contents.set(content, (same = { keys: new Set(), ids: new Map() }))
    same.keys.add(key)
    if (kind === null) continue
    let ids = same.ids.get(kind)
    if (!ids) same.ids.set(kind, (ids = new Set()))
    ids.add(key)
  }
  for (const { keys, ids } of contents.values()) {
    // Two ids of one kind are two posts: a link without an id, or an id of another kind, could be either.
    if ([...ids.values()].some((kindIds) => kindIds.size > 1)) continue
    let root: string | undefined
    for (const key of keys) {
      const other = find(key)
      if (root === undefined) root = other
      else if (other !== root) parent.set(other, root)
    }
  }
  const posts = new Map<string, EvidenceItem[]>()
  for (const item of items) {
    const root = find(identityOf(item).key)
    const post = posts.get(root)
    if (post) post.push(item)
    else posts.set(root, [item])
  }
  return [...posts.values()].map((post) => (post.length > 1 ? post.sort((a, b) => rank(a) - rank(b)) : post))
}

/** Each post of `items` once (the item shown), in the order of their first items, and the copies left out. */
export function distinctPosts(items: readonly EvidenceItem[]): { kept: EvidenceItem[]; copies: EvidenceItem[] } {
  const posts = postsOf(items)
  return { kept: posts.map((post) => post[0]!), copies: posts.flatMap((post) => post.slice(1)) }
}
