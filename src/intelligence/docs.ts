/** The README's table of China-intelligence rules, rendered from the constants the code computes with. */
import {
  BUDGET_BANDS,
  CONFIDENCE,
  COST_FLOOR_CNY,
  COST_PER_FOLLOWER_CNY,
  COST_SPREAD,
  CREATOR_TIERS,
  KOL,
  LIVE_RESULTS_PER_CALL,
  MOMENTUM,
  PROVIDER_LIMITS,
  RELEVANCE,
  SENTIMENT_ITEM_THRESHOLD,
  SENTIMENT_MIXED_SHARE,
  SENTIMENT_NET_THRESHOLD,
  STRONG_NATIVE_EVIDENCE,
  THIN_EVIDENCE,
  TIMEFRAME_DEFAULT,
  TIMEFRAME_MAX_DAYS,
  TIMEFRAME_MIN_DAYS,
  VENDOR_PAGE_RESULTS_MAX,
  WEEKLY_DECIDES_RATIO,
} from '../catalog'

const withCommas = (x: number) => x.toLocaleString('en')
const mib = (bytes: number) => `${bytes / 1024 / 1024} MiB`

/** How live items are told apart (post-identity.ts). */
const ONE_POST =
  "an item is the post its URL names on its platform (Xiaohongshu `/explore/<id>`, `/discovery/item/<id>`; Douyin `/video/<id>`, `iesdouyin.com/share/video/<id>`, `modal_id`; WeChat `__biz` + `mid` + `idx`, or `/s/<key>`), else its URL without tracking and share parameters (`utm_*`, `xsec_token`, `xsec_source`, `share_id`, ...), fragment, scheme, `www.` and trailing slashes (`&amp;` read as `&`), else (no link, or one that is not http(s)) the provider's id; items with the same title, text and day are one post unless ids of one kind differ among them (two note ids are two notes, and a link without an id beside them could be either, so it stays its own), whatever the order they came in. One item of a post is kept (a native result, else one whose link names the post's id); the copies are dropped and counted as `duplicate`."

export function intelligenceRules(): string {
  const weights = CONFIDENCE.weights
  const limits = PROVIDER_LIMITS
  const fitWeights = KOL.fitWeights
  const tiers = CREATOR_TIERS.map((t, i) =>
    i === CREATOR_TIERS.length - 1
      ? `${t.tier} < ${withCommas(CREATOR_TIERS[i - 1]!.minFollowers)}`
      : `${t.tier} >= ${withCommas(t.minFollowers)}`,
  ).join(', ')
  const bands = BUDGET_BANDS.map((b, i) =>
    Number.isFinite(b.maxCny) ? `${b.band} < ${withCommas(b.maxCny)}` : `${b.band} >= ${withCommas(BUDGET_BANDS[i - 1]!.maxCny)}`,
  ).join(', ')
  const rows: [string, string][] = [
    [
      'Timeframe',
      `\`<n>d\`, ${TIMEFRAME_MIN_DAYS}-${TIMEFRAME_MAX_DAYS} days, default ${TIMEFRAME_DEFAULT}. Trends read the timeframe (recent window) and the window before it (prior); sentiment reads the timeframe.`,
    ],
    [
      'Too thin (douyin, wechat)',
      `fewer than ${THIN_EVIDENCE.items} native items or fewer than ${THIN_EVIDENCE.authors} distinct authors: the lane adds web evidence.`,
    ],
    [
      'Strong native (xiaohongshu)',
      `at least ${STRONG_NATIVE_EVIDENCE.items} native items and ${STRONG_NATIVE_EVIDENCE.authors} distinct authors: answered natively instead of as a proxy read.`,
    ],
    [
      'Live results per call',
      `${LIVE_RESULTS_PER_CALL} asked for. Our own search protocol: only the first ${LIVE_RESULTS_PER_CALL} of an answer are read. A vendor page (SearXNG, Bocha, TikHub) is read whole, up to ${VENDOR_PAGE_RESULTS_MAX} dated results, sampled evenly over time past that.`,
    ],
    [
      'Live answer limits',
      `a search answer over ${mib(limits.searchResponseBytes)}, or a model answer over ${mib(limits.summaryResponseBytes)}, or JSON nested deeper than ${withCommas(limits.jsonDepth)} levels or with more than ${withCommas(limits.jsonKeys)} keys (shapes that would hold the service in JSON.parse), fails the call (\`bad_response\`, the lane falls back), checked while reading and from Content-Length; titles are cut to ${withCommas(limits.titleChars)} characters, texts to ${withCommas(limits.textChars)}, other strings (id, url, author ...) to ${withCommas(limits.fieldChars)}, before any matching or scoring.`,
    ],
    [
      'Momentum score',
      `${MOMENTUM.volumeWeight} x ln((recent W + 1) / (prior W + 1)) + ${MOMENTUM.engagementWeight} x ln((recent E + 1) / (prior E + 1)), W = items weighted by relevance (a passing mention counts ${RELEVANCE.mention}: \`weighted_items\`), E = sum of relevance x ln(1 + likes + comments + shares) per item; both per covered day, scaled to the timeframe; volume only when no item reports engagement.`,
    ],
    [
      'Momentum value',
      `\`rising\` when score >= ${MOMENTUM.threshold} and z >= ${MOMENTUM.minZ}; \`falling\` when score <= -${MOMENTUM.threshold} and z <= -${MOMENTUM.minZ}; else \`stable\`; \`insufficient_evidence\` below ${MOMENTUM.minItems} items in both windows. z = ln W ratio / sqrt(1/(recent W+1) + 1/(prior W+1)), the count-noise guard. A rise or fall whose score on the posts about the subject alone (relevance ${RELEVANCE.subject}) stays within ±${MOMENTUM.threshold} is \`stable\`: the change is in passing mentions (\`momentum_detail.reason\`); only when those posts number at least ${MOMENTUM.minItems} in both windows (fewer cannot tell a direction: the weighted call stands).`,
    ],
    [
      'The stronger reading',
      `where the weekly ranking of the same topic or brand covers both windows with at least ${WEEKLY_DECIDES_RATIO}x as many posts (mentions) as the evidence items read and reads otherwise, its direction is the trend's (\`summary.momentum_source\`: \`weekly_ranking\`); the evidence's own reading stays in \`momentum_detail\` and the headline.`,
    ],
    [
      'Honest windows',
      `only providers whose results cover at least ${MOMENTUM.minCoveredShare * 100}% of each window's days are counted (from where the least-reaching of them starts; the others' items stay in the answer, \`uncounted_items\`); with none, \`insufficient_evidence\` and the reason. A provider's answer covers a window when a result is dated before its start, or when the provider filters by date and had no more; otherwise from its oldest dated result. A count cut off by the page budget in relevance order is a lower bound: only a direction toward that window is called.`,
    ],
    ['One post', ONE_POST],
    [
      'Relevance',
      `an item is evidence only when it names what was asked (any of its names; Latin names as whole words with a plural, Chinese names as written, free-text Chinese on word boundaries; a longer known name of another category hides a shorter one inside it): ${RELEVANCE.subject} when named in the title, a hashtag or the first ${RELEVANCE.openingChars} characters, ${RELEVANCE.mention} when only mentioned further on.`,
    ],
    [
      'Confidence',
      `(${weights.volume} x volume + ${weights.diversity} x diversity + ${weights.recency} x recency) x (${CONFIDENCE.proxyFloor} + ${1 - CONFIDENCE.proxyFloor} x native share) x mean relevance x (${CONFIDENCE.coverageFloor} + ${1 - CONFIDENCE.coverageFloor} x coverage) x ${CONFIDENCE.sampleShare} on the generated sample corpus (never certain), coverage = share of the asked days the evidence covers; volume = min(1, ln(1 + items) / ln(1 + ${CONFIDENCE.fullVolumeItems})); diversity = mean of min(1, source kinds / ${CONFIDENCE.fullKinds}) and min(1, authors / ${CONFIDENCE.fullAuthors}); recency = max(0, 1 - days since the newest item / max(${CONFIDENCE.minRecencyDays}, timeframe days)).`,
    ],
    [
      'Sentiment',
      `an item is positive at lexicon score >= ${SENTIMENT_ITEM_THRESHOLD}, negative at <= -${SENTIMENT_ITEM_THRESHOLD}; net score = 100 x (positive - negative) / items; label positive/negative at ±${SENTIMENT_NET_THRESHOLD} or beyond, mixed when both sides reach ${SENTIMENT_MIXED_SHARE * 100}% of items, else neutral.`,
    ],
    ['Creator tiers (followers)', tiers],
    ['KOL look-back and shortlist', `${KOL.lookbackDays} days; up to ${KOL.shortlistSize} creators.`],
    [
      'KOL fit',
      `(n x raw + ${KOL.priorPosts} x ${KOL.prior}) / (n + ${KOL.priorPosts}), n = the creator's posts in the look-back (few posts pull the fit toward ${KOL.prior}); raw = ${fitWeights.relevance} x relevance (share of posts on the category) + ${fitWeights.quality} x engagement quality + ${fitWeights.activity} x activity (min(1, matching posts / ${KOL.fullActivityPosts})) + ${fitWeights.reach} x reach (followers on a log scale, 0 at ${KOL.reachFrom.toLocaleString('en')}, 1 at ${KOL.reachFull.toLocaleString('en')}) + ${KOL.industryBonus} when most of the creator's posts are in the industry (\`industry_match\`; the asked category when no industry is given), at most 1.`,
    ],
    [
      'Engagement quality',
      `min(1, (median engagement rate / tier median) / 2), 0.5 without ${KOL.minPeers}+ peers or when the rate is an outlier, minus ${KOL.flagPenalty} per flag; flags: \`engagement_spike\` (a post above ${KOL.spikeFactor}x the creator's median, 4+ posts), \`low_comment_ratio\` (a post with 50+ likes and fewer than ${KOL.minCommentRatio} comments per like), \`engagement_rate_outlier\` (median engagement rate above ${KOL.outlierFactor}x the tier median).`,
    ],
    [
      'Estimated cost per post',
      `max(CNY ${COST_FLOOR_CNY}, followers x ${Object.entries(COST_PER_FOLLOWER_CNY)
        .map(([p, r]) => `${r} (${p})`)
        .join(' / ')}), shown ±${COST_SPREAD * 100}%; bands in CNY: ${bands}. A rule of thumb, not a quote.`,
    ],
  ]
  return ['| Rule | Value |', '|---|---|', ...rows.map(([k, v]) => `| ${k} | ${v.replaceAll('|', '\\|')} |`)].join('\n')
}
