/** Shapes of `data` of the China intelligence routes; every field is described (OpenAPI shows these). */
import { Type as t } from '@sinclair/typebox'
import { CONFIDENCE, KOL, KOL_FLAGS, MOMENTUM, MOMENTUM_VALUES, RELEVANCE, STRONG_NATIVE_EVIDENCE, TEXT_ANALYSIS_MAX_ITEMS, THIN_EVIDENCE, TIER_VALUES, BUDGET_VALUES, WEEKLY_DECIDES_RATIO } from '../evidence-rules'

const Lit = <V extends readonly string[]>(values: V, description: string) => t.Union(values.map((v) => t.Literal(v)) as never, { description })
const Int = (description: string) => t.Integer({ description })
const Num = (description: string) => t.Number({ description })
const Str = (description: string) => t.String({ description })
const Nullable = <S extends Parameters<typeof t.Union>[0][number]>(s: S, description: string) => t.Union([s, t.Null()], { description })
const Counts = (description: string) => t.Record(t.String(), t.Integer(), { description })

export const EvidenceModeField = t.Optional(
  Lit(['proxy', 'mixed'] as const, 'Present when the evidence is not all native: `proxy` = only open-web evidence (reports, analysis, platform-adjacent coverage), `mixed` = native and open-web items together.'),
)

const Window = t.Object(
  { from: Str('first day, YYYY-MM-DD (UTC)'), to: Str('last day, YYYY-MM-DD (UTC)'), as_of: Str('end of the window (exclusive), ISO 8601: the day after the sample corpus ends, or the request time with live providers') },
  { description: 'Time window the evidence was retrieved for.' },
)

const Engagement = t.Object(
  {
    likes: Int('likes'),
    comments: Int('comments'),
    shares: Int('shares, reposts or forwards'),
    views: Nullable(t.Integer(), 'views or reads; null when not reported'),
  },
  { description: 'Engagement figures as the source reported them.' },
)

export const EvidenceRef = t.Object(
  {
    id: Str('item id at its source (sample ids for the sample corpus)'),
    url: Nullable(t.String(), 'link to the item; null when the source gives none (sample items have none)'),
    platform: Str('where it was published: xiaohongshu, douyin, wechat, or web'),
    retrieval: Lit(['native', 'proxy'] as const, 'native = first-party platform discovery; proxy = open web'),
    source_kind: Str('note, video, article, web_page, report or news'),
    author: Nullable(t.String(), 'creator handle; null for web pages (their publisher is `site`) and when the source names none'),
    site: t.Optional(Str('web site (or publication) a web page was published on')),
    published_at: Str('publication time, ISO 8601 UTC'),
    language: Lit(['zh', 'en'] as const, 'language of the text'),
    excerpt: Str('title and the start of the text, at most 160 characters'),
    engagement: Nullable(Engagement, 'engagement figures; null for web pages and sources that report none'),
    provider: Str('provider that returned the item'),
  },
  { description: 'One evidence item.' },
)

const LaneReport = t.Object(
  {
    platform: Str('platform lane'),
    policy: Lit(['native_first', 'proxy_read'] as const, `native_first (douyin, wechat): broadened to web evidence only when native evidence is thin (< ${THIN_EVIDENCE.items} items or < ${THIN_EVIDENCE.authors} authors); proxy_read (xiaohongshu): open-web evidence unless native evidence is strong (>= ${STRONG_NATIVE_EVIDENCE.items} items and >= ${STRONG_NATIVE_EVIDENCE.authors} authors)`),
    native_items: Int('native items the lane kept'),
    proxy_items: Int('open-web items the lane kept'),
    native_sufficient: t.Boolean({ description: 'whether the native evidence met the policy’s bar (not thin, or strong for a proxy read)' }),
    broadened: t.Boolean({ description: 'whether web evidence was retrieved' }),
  },
  { description: 'How one platform lane retrieved its evidence.' },
)

export const EvidenceSummary = t.Object(
  {
    total_items: Int('items behind the answer'),
    weighted_items: Num(`the same items weighted by relevance: a post about the subject counts ${RELEVANCE.subject}, a passing mention ${RELEVANCE.mention} (what momentum compares)`),
    native_items: Int('items from first-party platform discovery'),
    proxy_items: Int('items from the open web'),
    by_source_kind: Counts('items per source kind (note, video, article, web_page, report, news)'),
    by_platform: Counts('items per publishing platform (xiaohongshu, douyin, wechat, web)'),
    distinct_authors: Int('distinct creators or publishers'),
    date_range: Nullable(t.Object({ earliest: Str('oldest item, ISO 8601'), latest: Str('newest item, ISO 8601') }), 'publication dates covered; null without items'),
    lanes: t.Array(LaneReport, { description: 'the lanes that retrieved the evidence' }),
  },
  { description: 'What the evidence is made of.' },
)

const ProviderReport = t.Object(
  {
    provider: Str('provider name (host and model for live providers; never keys)'),
    role: Lit(['native', 'web', 'summary'] as const, 'native discovery, web evidence, or the language model that summarised themes'),
    platform: Nullable(t.String(), 'lane the call served; null when not lane-specific'),
    status: Lit(['ok', 'empty', 'failed', 'timeout', 'rate_limited'] as const, 'outcome of the call'),
    items: Int('relevant items it returned (or themes, for the summary)'),
    requests: t.Optional(Int('HTTP requests (result pages) the call made; live providers only')),
    off_topic: t.Optional(Int('results that were not about what was asked (dropped)')),
    dropped: t.Optional(t.Object(
      {
        undated: Int('results without a readable publication date'),
        out_of_window: Int('results dated outside the window asked for (engines that ignore the date range return these)'),
        duplicate: Int('the same result again (another page, or the other window)'),
        unreadable: t.Optional(Int('results with no text or address to read')),
      },
      { description: 'results dropped before relevance, by reason' },
    )),
    coverage: t.Optional(t.Array(
      t.Object({
        from: Str('start of the window asked for, ISO 8601'),
        to: Str('end of the window (exclusive), ISO 8601'),
        covered_from: Nullable(t.String(), 'from when on the results are all the provider has (or a fair page of it): the window start when its results reach back past it or it filters by date and had no more; else its oldest dated result; null when nothing is covered'),
        capped: t.Boolean({ description: 'stopped at the page budget with more results left, ranked by relevance: the window’s count is a lower bound' }),
      }),
      { description: 'how far back the results reach, per window asked for (trends ask a date-filtering provider for each window on its own); live providers only' },
    )),
    partial: t.Optional(Str('a later page failed; the items of the earlier pages are kept')),
    retry_after_seconds: t.Optional(Int('with status `rate_limited`: when the provider said to retry, in seconds')),
    error: t.Optional(Str('why it failed; a failed lane step falls back as the lane policy says')),
  },
  { description: 'One provider call made for this answer.' },
)

export const EvidenceQuality = t.Object(
  {
    sample: t.Boolean({ description: 'true when the evidence is the generated sample corpus, not real observations' }),
    notice: Str('provenance and caveats'),
    dataset: t.Optional(Str('dataset name (sample corpus only)')),
    dataset_version: t.Optional(Str('content-addressed version of evidence.parquet (sample corpus only)')),
    schema_version: t.Optional(Int('schema version of the corpus (sample corpus only)')),
    source_period: t.Optional(t.Object({ from: Str('first month, YYYY-MM'), to: Str('last month, YYYY-MM') }, { description: 'months the corpus covers (sample corpus only)' })),
    dropped: t.Optional(t.Object(
      {
        undated: Int('results without a readable publication date'),
        out_of_window: Int('results dated outside the window'),
        off_topic: Int('results not about what was asked'),
        duplicate: Int('repeats: across pages, windows, and lanes sharing a provider'),
        unreadable: Int('results with no text or address'),
      },
      { description: 'results the providers returned that are not in the answer, by reason (totals of `providers`)' },
    )),
    providers: t.Array(ProviderReport, { description: 'every provider call behind the answer' }),
  },
  { description: 'Where the evidence comes from: the sample corpus (sample: true) or the live providers named.' },
)

const WindowStats = t.Object(
  {
    from: Str('first day, YYYY-MM-DD'),
    to: Str('last day, YYYY-MM-DD'),
    items: Int('items published in the window'),
    weighted_items: Num(`the items weighted by relevance (a passing mention counts ${RELEVANCE.mention}): the volume the momentum compares`),
    engagement: Num('damped engagement: sum of ln(1 + likes + comments + shares) over the items, weighted by relevance'),
    covered_days: Num('days of the window the counted evidence covers (from where the least-reaching counted provider starts)'),
    capped: t.Boolean({ description: 'a counted provider stopped at its result cap in this window: the count is a lower bound' }),
  },
  { description: 'Evidence volume and engagement of one window.' },
)

const Momentum = Lit(
  MOMENTUM_VALUES,
  `rising when the momentum score >= ${MOMENTUM.threshold} and the volume change's z >= ${MOMENTUM.minZ}, falling when <= -${MOMENTUM.threshold} and z <= -${MOMENTUM.minZ}, otherwise stable (also when the posts about the subject alone do not score past the threshold that way: a change in passing mentions); insufficient_evidence with fewer than ${MOMENTUM.minItems} items in both windows, when the evidence covers less than ${MOMENTUM.minCoveredShare * 100}% of either window's days, or when a direction points away from a window whose count is capped (momentum_detail.reason says which)`,
)

/** Kinds of entity a keyword can resolve to (src/intelligence/names/entities.ts). */
export const ENTITY_KINDS = ['category', 'topic', 'brand', 'creator', 'destination', 'country', 'term'] as const

/** What a keyword resolved to (src/intelligence/names/entities.ts): the answer is about this, whatever language asked. */
export const Resolved = t.Object(
  {
    kind: Lit([...ENTITY_KINDS, 'free_text'] as const, 'what kind of thing it is; free_text when it names nothing known'),
    id: Nullable(t.String(), 'stable entity id (category:beauty, topic:camping, brand:aurora-skin, destination:TYO, country:JP, term:ev); null for free text'),
    name: Str('display name, English'),
    name_zh: Nullable(t.String(), 'display name, Chinese'),
    matched: Str('the name, code or slug the input matched (compared in any case, width, punctuation and spacing, or written as one word)'),
    stripped: t.Optional(t.Array(t.String(), { description: 'intent words taken off the input to find the name (日本旅游 -> 日本: 旅游; "Aurora Skin review": review)' })),
    corrected_from: t.Optional(Str('the input as written, when it was a clear slip of this one name: one letter or character added, dropped or replaced (not two swapped) in a name of 8 letters or 5 Chinese characters and more, no other name as near')),
    search_names: t.Array(t.String(), { description: 'the names searched for in evidence text, every language' }),
    includes: t.Optional(t.Array(t.String(), { description: 'member entities whose evidence also counts (a category\'s topics, brands and terms; a country\'s destinations)' })),
  },
  { description: 'what the input resolved to; the evidence is what is about it (whole words, segmented Chinese, known names)' },
)

/** The label every China answer and wrapper answer carries first in `data` (its summary sentence says so too). */
export const SampleFlag = t.Boolean({ description: 'true when the answer rests on generated sample data (the embedded evidence corpus or the sample datasets), not real observations; its summary sentence says so' })

export const TrendsData = t.Object({
  sample: SampleFlag,
  keyword: Str('the keyword as given (trimmed, NFKC-normalised)'),
  resolved: Resolved,
  platform: Str('platform lane (aliases resolved), or `all` when none was given: the three lanes merged'),
  timeframe: Str('length of the recent window, <days>d'),
  window: Window,
  summary: t.Object(
    {
      momentum: Momentum,
      momentum_source: Lit(
        ['evidence', 'weekly_ranking'] as const,
        `evidence: the momentum of the evidence read for this answer (momentum_detail); weekly_ranking: the direction of the weekly ranking of the same topic or brand over the same whole weeks (weekly_ranking), which decides where it counts at least ${WEEKLY_DECIDES_RATIO} times as many posts as the evidence items and reads otherwise`,
      ),
      confidence: t.Number({ minimum: 0, maximum: 1, description: 'evidence strength in [0, 1]: see confidence_detail and the README formula' }),
      themes: t.Array(t.String(), { description: 'what the conversation is about (extractive terms, or written by the configured language model)' }),
      headline: Str('the reading of the above in English: its windows and counts, then the weekly ranking beside it ("Weekly: ...") and the sample label when they apply'),
    },
    { description: 'The answer in brief.' },
  ),
  momentum_detail: t.Object(
    {
      score: Nullable(t.Number(), `${MOMENTUM.volumeWeight} x ln(volume ratio) + ${MOMENTUM.engagementWeight} x ln(engagement ratio), recent vs prior window, per covered day, +1 smoothed (volume only when no item reports engagement); null when insufficient`),
      volume_z: Nullable(t.Number(), `ln volume ratio / sqrt(1/(recent+1) + 1/(prior+1)); a direction needs |z| >= ${MOMENTUM.minZ} as well as the score threshold; null when insufficient`),
      recent: WindowStats,
      prior: WindowStats,
      volume_change_pct: Nullable(t.Number(), 'change of relevance-weighted items per day, recent vs prior, percent'),
      engagement_change_pct: Nullable(t.Number(), 'change of damped engagement per day, percent; null without engagement figures'),
      reason: Nullable(t.String(), 'why there is no direction (insufficient_evidence): too few items, a window the evidence does not cover, or a capped count; or why a change reads stable: it is in passing mentions, not in the posts about the subject; null otherwise'),
      counted_items: Int('items counted in the two windows: those of providers whose results cover both windows, from where the least-reaching of them starts'),
      uncounted_items: Int('items in the answer left out of the counts (a provider whose results do not reach back, e.g. a web engine returning recent pages only)'),
    },
    { description: 'How the momentum was computed: recent window against the prior window of the same length.' },
  ),
  confidence_detail: t.Object(
    {
      volume: Num(`min(1, ln(1 + items) / ln(1 + ${CONFIDENCE.fullVolumeItems}))`),
      diversity: Num(`mean of min(1, source kinds / ${CONFIDENCE.fullKinds}) and min(1, authors / ${CONFIDENCE.fullAuthors})`),
      recency: Num(`1 - age of the newest item in days / max(${CONFIDENCE.minRecencyDays}, timeframe days), floored at 0`),
      native_share: Num('share of native items; proxy evidence scales confidence down'),
      relevance: Num(`mean relevance of the items: ${RELEVANCE.subject} for a post about the subject, ${RELEVANCE.mention} for a passing mention`),
      coverage: Num('share of the two windows\' days the evidence covers'),
      sample: Num(`${CONFIDENCE.sampleShare} on the generated sample corpus (no observation of the world earns certainty), 1 on live evidence`),
    },
    { description: `Components of confidence = (${CONFIDENCE.weights.volume} volume + ${CONFIDENCE.weights.diversity} diversity + ${CONFIDENCE.weights.recency} recency) x (${CONFIDENCE.proxyFloor} + ${1 - CONFIDENCE.proxyFloor} native_share) x relevance x (${CONFIDENCE.coverageFloor} + ${1 - CONFIDENCE.coverageFloor} coverage) x sample.` },
  ),
  weekly_ranking: Nullable(
    t.Object({
      source: Lit(['signal_topics', 'signal_brands'] as const, 'the weekly dataset read: topic posts, or brand mentions'),
      measure: Lit(['posts', 'mentions'] as const, 'what is counted'),
      recent: t.Object({ from: Str('first week start, YYYY-MM-DD'), to: Str('last day of the last week'), weeks: Int('whole weeks inside the recent window'), per_week: Num('count per week') }, { description: 'the whole published weeks inside the recent window' }),
      prior: t.Object({ from: Str('first week start, YYYY-MM-DD'), to: Str('last day of the last week'), weeks: Int('whole weeks inside the prior window'), per_week: Num('count per week') }, { description: 'the whole published weeks inside the prior window' }),
      change_pct: Num('change of the count per week, recent vs prior, percent'),
      direction: Lit(['rising', 'falling', 'flat'] as const, `rising at a ratio of e^${MOMENTUM.threshold} (+${Math.round((Math.exp(MOMENTUM.threshold) - 1) * 100)}%) or more, falling at its inverse or less, else flat`),
      agrees: Nullable(t.Boolean(), 'whether the momentum reads the same way (stable = flat); null when no direction is called'),
      note: Str('the weekly figure in a sentence, and why the two readings differ when they do (also in the headline)'),
    }),
    'the weekly ranking of the same topic or brand over the whole weeks of the same windows; null when the keyword is no topic or brand, when the published weeks do not cover both windows, or on live evidence while the weekly signals are the sample',
  ),
  related_keywords: t.Array(t.Object({ keyword: Str('term or hashtag co-occurring with the keyword'), mentions: Int('items that mention it') }), {
    description: 'Related keywords, ranked by engagement-weighted mentions.',
  }),
  content_angles: t.Array(
    t.Object({
      angle: Str('content idea'),
      rationale: Str('why, from the evidence'),
      example_evidence_id: Nullable(t.String(), 'an evidence item that illustrates it'),
    }),
    { description: 'Content angles for a brand.' },
  ),
  themes_source: Lit(['extractive', 'llm'] as const, 'extractive = counted from the evidence; llm = written by the configured chat-completions model from the evidence'),
  evidence: EvidenceSummary,
  top_evidence: t.Array(EvidenceRef, { description: 'the strongest items (by engagement, then recency)' }),
  evidence_mode: EvidenceModeField,
  data_quality: EvidenceQuality,
})

const ToneCount = (tone: string) => t.Object({ items: Int('items'), share: t.Number({ minimum: 0, maximum: 1, description: 'share of all items' }) }, { description: `${tone} items` })
const Tone = Lit(['positive', 'neutral', 'negative'] as const, 'tone of the item by the lexicon score')
const Label = Lit(['positive', 'negative', 'mixed', 'neutral'] as const, 'positive/negative when the net score is beyond ±20; mixed when both sides reach 25% of items; otherwise neutral')

export const SentimentData = t.Object({
  sample: SampleFlag,
  entity: Str('the entity as given'),
  resolved: Resolved,
  platform: Str('platform lane, or `all`'),
  timeframe: Str('look-back, <days>d'),
  industry: Nullable(t.String(), 'industry as given'),
  industry_frames: Nullable(t.String(), 'industry whose extra frames were used (travel, outdoor, fashion, beauty); null when none was recognised — then every industry frame is considered if no industry was given, only the base frames otherwise'),
  lang: Lit(['en', 'zh'] as const, 'language of labels, summaries and the narrative'),
  window: Window,
  summary: t.Object(
    {
      label: Label,
      net_score: t.Integer({ minimum: -100, maximum: 100, description: '100 x (positive - negative) / items' }),
      engagement_weighted_net_score: t.Integer({ minimum: -100, maximum: 100, description: 'the same with each item weighted 1 + log10(1 + engagement)' }),
      confidence: t.Number({ minimum: 0, maximum: 1, description: 'evidence strength, same formula as the trends route' }),
      narrative: Str('the reading in `lang`'),
    },
    { description: 'The answer in brief.' },
  ),
  analysed_items: Int(`items scored: all of them, or an even sample of ${TEXT_ANALYSIS_MAX_ITEMS} when there are more (evidence.total_items)`),
  distribution: t.Object({ positive: ToneCount('positive'), neutral: ToneCount('neutral'), negative: ToneCount('negative') }, { description: 'Items per tone.' }),
  frames: t.Array(
    t.Object({
      frame: Str('frame id (price_value, quality_efficacy, experience_service, safety_trust, aesthetics_lifestyle, or an industry frame)'),
      label: Str('frame name in `lang`'),
      items: Int('items that speak to it'),
      share: t.Number({ minimum: 0, maximum: 1, description: 'share of all items' }),
      net_score: t.Integer({ description: 'net score within the frame, -100..100' }),
      tone: Label,
      summary: Str('one line in `lang`'),
      examples: t.Array(t.Composite([EvidenceRef, t.Object({ tone: Tone, sentiment_score: Num('lexicon score of the item') })]), { description: 'example evidence, the dominant tone first' }),
    }),
    { description: 'Narrative frames: what the conversation is about, with its tone; largest first.' },
  ),
  evidence: EvidenceSummary,
  evidence_mode: EvidenceModeField,
  data_quality: EvidenceQuality,
})

export const KolsData = t.Object({
  sample: SampleFlag,
  category: Str('category as given'),
  resolved: Resolved,
  category_match: Str('how posts were matched to the category: its evidence category or its words in the text'),
  filters: t.Object(
    {
      platform: Nullable(t.String(), 'platform filter (aliases resolved)'),
      city: Nullable(t.String(), 'creator home city filter (known mainland cities in English)'),
      tier: Nullable(Lit(TIER_VALUES, 'tier filter'), 'tier filter'),
      budget_band: Nullable(Lit(BUDGET_VALUES, 'budget band filter'), 'budget band filter'),
      industry: Nullable(t.String(), `industry: a fit bonus of ${KOL.industryBonus} for creators whose main category is that industry`),
    },
    { description: 'The filters applied, echoed.' },
  ),
  window: Window,
  candidates_considered: Int('creators with at least one post on the category (platform filter applied)'),
  excluded_by_filters: Int('candidates the city, tier and budget filters removed'),
  shortlist: t.Array(
    t.Object({
      rank: Int('1 = best fit'),
      handle: Str('creator handle (fictional in the sample corpus)'),
      platform: Str('platform'),
      city: Nullable(t.String(), 'home city when known'),
      followers: Int('followers'),
      tier: Lit(TIER_VALUES, 'tier by followers: mega >= 5M, macro >= 1M, mid >= 100k, micro >= 10k, nano >= 1k, koc below'),
      fit_score: t.Number({
        minimum: 0,
        maximum: 1,
        description: `(n x raw + ${KOL.priorPosts} x ${KOL.prior}) / (n + ${KOL.priorPosts}), n = engagement.posts, raw = ${KOL.fitWeights.relevance} relevance + ${KOL.fitWeights.quality} engagement quality + ${KOL.fitWeights.activity} activity + ${KOL.fitWeights.reach} reach (+ industry bonus), at most 1: few posts pull the fit toward ${KOL.prior}`,
      }),
      fit: t.Object(
        {
          relevance: Num('share of the creator’s posts on the category; with live providers 1 (a creator’s posts are those the search for the category found)'),
          engagement_quality: Num('engagement.quality_score'),
          activity: Num(`min(1, matching posts / ${KOL.fullActivityPosts})`),
          reach: Num(`followers on a log scale: 0 at ${KOL.reachFrom.toLocaleString('en')}, 1 at ${KOL.reachFull.toLocaleString('en')} and above`),
          industry_match: t.Boolean({ description: 'most of the creator’s posts (over half) are in the industry: the one given, else on the sample corpus the category asked for (live search gives no post’s category: there only an industry given that is the category asked for counts); then the industry bonus applies' }),
        },
        { description: 'Components of the fit score.' },
      ),
      engagement: t.Object(
        {
          posts: Int(`posts in the last ${KOL.lookbackDays} days (estimated when the corpus is kept as a sample: data_quality.notice)`),
          matching_posts: Int('of which on the category'),
          median_engagement: Int('median likes + comments + shares per post'),
          engagement_rate_pct: Num('median per-post engagement / followers, percent'),
          tier_median_rate_pct: Nullable(t.Number(), `median engagement rate of the tier’s peers (same platform when ${KOL.minPeers}+ peers, else the tier across platforms); null with too few peers`),
          tier_peers: Nullable(Lit(['platform', 'tier'] as const, 'peer group'), 'which peer group the tier median comes from'),
          vs_tier_median: Nullable(t.Number(), 'engagement rate / tier median'),
          quality_score: Num(`min(1, vs_tier_median / 2) (0.5 without peers or with engagement_rate_outlier) - ${KOL.flagPenalty} per flag, floored at 0`),
          flags: t.Array(Lit(KOL_FLAGS, 'anomaly'), {
            description: `engagement_spike: a post above ${KOL.spikeFactor}x the creator’s median (4+ posts); low_comment_ratio: a post with 50+ likes and under ${KOL.minCommentRatio} comments per like; engagement_rate_outlier: median engagement rate above ${KOL.outlierFactor}x the tier median`,
          }),
        },
        { description: 'Engagement-quality estimate.' },
      ),
      estimated_cost: t.Object(
        {
          band: Lit(BUDGET_VALUES, 'budget band of the estimate'),
          cny_low: Int('low end, CNY per sponsored post'),
          cny_high: Int('high end, CNY per sponsored post'),
        },
        { description: 'Rule-of-thumb cost from followers (see README), not a quote.' },
      ),
      evidence_ids: t.Array(t.String(), { description: 'the creator’s strongest posts on the category' }),
      recommendation: Str('one-paragraph recommendation, English'),
    }),
    { description: `Up to ${KOL.shortlistSize} creators, best fit first.` },
  ),
  weekly_top_creators: t.Array(
    t.Object({
      handle: Str('creator handle'),
      platform: Str('platform of the weekly ranking row'),
      weekly_rank: Int('rank in the category’s weekly creator ranking (influence: engagement + views / 10), last published week'),
      week_start: Str('that week, YYYY-MM-DD'),
      standing: Lit(['shortlisted', 'below_shortlist', 'filtered_out', 'not_a_candidate'] as const, 'where the creator stands here: in the shortlist, scored below it, removed by the filters, or no post on the category in the look-back window'),
      shortlist_rank: Nullable(t.Integer(), 'rank by fit among the creators that pass the filters (the shortlist is the first ones)'),
      fit_score: Nullable(t.Number(), 'fit score, when scored'),
      behind_on: t.Optional(
        t.Array(Lit(['relevance', 'engagement_quality', 'activity', 'reach', 'industry_match'] as const, 'a part of fit'), {
          description: 'below the shortlist: the parts of fit on which the creator falls behind the last shortlisted one (what kept it out; summary says which ranking to trust for what)',
        }),
      ),
    }),
    { description: 'the category’s leading creators of the weekly creator ranking and where each stands in this shortlist (empty when the keyword is no weekly signal category, or on live evidence while the weekly signals are the sample)' },
  ),
  summary: Str('the shortlist in one paragraph; where the weekly leaders are not shortlisted, which ranking to trust for what'),
  evidence: EvidenceSummary,
  evidence_mode: EvidenceModeField,
  data_quality: EvidenceQuality,
})
