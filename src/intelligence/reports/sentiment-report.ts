/** `data` of the sentiment route: distribution, net score, narrative frames with examples, in en or zh. */
import { SENTIMENT_MIXED_SHARE, SENTIMENT_NET_THRESHOLD, TEXT_ANALYSIS_MAX_ITEMS } from '../../catalog'
import { confidence } from '../analysis/confidence'
import { countOf, engagementOf, type EvidenceItem, type Platform } from '../evidence'
import type { Asked } from '../names/asked'
import { droppedTotals } from '../lanes'
import type { ProviderSpend } from '../../core'
import { coveredShareOf, windowsOf } from '../analysis/momentum'
import { byStrength, evidenceSummary, isoDay, modeField, ref, round } from './report'
import type { FrameDef } from '../analysis/lexicon'
import { framesOf, framesFor, scoreText, type FrameSet, type Tone } from '../analysis/sentiment'
import type { Computed } from './evidence-answer'
import { eachSliced, evenSample } from '../turns'
import type { EvidenceSources } from '../sources'
import { gatherAsked, PLATFORM_LABEL } from './trend-report'

export interface SentimentRequest {
  /** The resolved entity's name in the answer's language. */
  entity: string
  asked: Asked
  platform: Platform | 'all'
  days: number
  timeframe: string
  industry: string | null
  lang: 'en' | 'zh'
}

type Label = 'positive' | 'negative' | 'mixed' | 'neutral'

const WORDS = {
  en: { positive: 'positive', negative: 'negative', mixed: 'mixed', neutral: 'neutral' },
  zh: { positive: '正面', negative: '负面', mixed: '褒贬不一', neutral: '中性' },
} as const

const EXAMPLES_PER_FRAME = 2
const FRAMES_IN_NARRATIVE = 2

/** Net score -100..100 of a set of tones. */
const net = (tones: readonly Tone[]) =>
  tones.length
    ? Math.round((100 * (tones.filter((t) => t === 'positive').length - tones.filter((t) => t === 'negative').length)) / tones.length)
    : 0

function labelOf(netScore: number, pos: number, neg: number): Label {
  if (netScore >= SENTIMENT_NET_THRESHOLD) return 'positive'
  if (netScore <= -SENTIMENT_NET_THRESHOLD) return 'negative'
  return pos >= SENTIMENT_MIXED_SHARE && neg >= SENTIMENT_MIXED_SHARE ? 'mixed' : 'neutral'
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n))

interface Scored {
  item: EvidenceItem
  tone: Tone
  score: number
  frames: string[]
}

/** Tone, score and frames of an even sample of the items (text analysis is capped at TEXT_ANALYSIS_MAX_ITEMS). */
async function scoreItems(items: EvidenceItem[], set: FrameSet): Promise<Scored[]> {
  const scored: Scored[] = []
  await eachSliced(evenSample(items, TEXT_ANALYSIS_MAX_ITEMS), (item) => {
    const text = `${item.title} ${item.text}`
    const sentiment = scoreText(text, item.language)
    scored.push({ item, tone: sentiment.tone, score: sentiment.score, frames: framesOf(text, set) })
  })
  return scored
}

/** Net score -100..100 where a post many people engaged with counts for more (weight 1 + log10(1 + engagement)). */
function engagementWeightedNet(scored: readonly Scored[]): number {
  const weight = (s: Scored) => 1 + Math.log10(1 + engagementOf(s.item))
  const totalWeight = scored.reduce((a, s) => a + weight(s), 0)
  const signedWeight = scored.reduce((a, s) => a + weight(s) * (s.tone === 'positive' ? 1 : s.tone === 'negative' ? -1 : 0), 0)
  return Math.round((100 * signedWeight) / totalWeight)
}

/** How the analysed items split by tone, and the overall label. */
interface Distribution {
  analysed: number
  pos: number
  neu: number
  neg: number
  netScore: number
  label: Label
}

function distributionOf(scored: readonly Scored[]): Distribution {
  const analysed = scored.length
  const count = (t: Tone) => scored.filter((s) => s.tone === t).length
  const [pos, neu, neg] = [count('positive'), count('neutral'), count('negative')]
  const netScore = net(scored.map((s) => s.tone))
  return { analysed, pos, neu, neg, netScore, label: labelOf(netScore, pos / analysed, neg / analysed) }
}

/** One frame: the items speaking to it, their tone, a one-line summary, and its strongest examples of the dominant tone first. */
function frameReport(id: string, def: FrameDef, scored: readonly Scored[], lang: SentimentRequest['lang']) {
  const analysed = scored.length
  const words = WORDS[lang]
  const members = scored.filter((s) => s.frames.includes(id))
  const frameNet = net(members.map((s) => s.tone))
  const tone = labelOf(
    frameNet,
    members.filter((s) => s.tone === 'positive').length / (members.length || 1),
    members.filter((s) => s.tone === 'negative').length / (members.length || 1),
  )
  const frameLabel = def.label[lang]
  const pct = Math.round((100 * members.length) / analysed)
  const dominant = members.filter((s) => s.tone === (frameNet < 0 ? 'negative' : 'positive')).sort((a, b) => byStrength(a.item, b.item))
  const rest = members.filter((s) => !dominant.includes(s)).sort((a, b) => byStrength(a.item, b.item))
  return {
    frame: id,
    label: frameLabel,
    items: members.length,
    share: round(members.length / analysed, 3),
    net_score: frameNet,
    tone,
    summary:
      lang === 'zh'
        ? `${frameLabel}：占${pct}%，${tone === 'mixed' || tone === 'neutral' ? `整体${words[tone]}` : `以${words[tone]}为主`}（净值${signed(frameNet)}）。`
        : `${frameLabel}: ${pct}% of items, ${tone === 'mixed' || tone === 'neutral' ? tone : `mostly ${tone}`} (net ${signed(frameNet)}).`,
    examples: [...dominant, ...rest].slice(0, EXAMPLES_PER_FRAME).map((s) => ({ ...ref(s.item), tone: s.tone, sentiment_score: s.score })),
  }
}

type FrameReport = ReturnType<typeof frameReport>

/** The frames any analysed item speaks to, most discussed first. */
function frameBreakdown(scored: readonly Scored[], set: FrameSet, lang: SentimentRequest['lang']): FrameReport[] {
  return Object.entries(set.frames)
    .map(([id, def]) => frameReport(id, def, scored, lang))
    .filter((f) => f.items > 0)
    .sort((a, b) => b.items - a.items || a.frame.localeCompare(b.frame))
}

/** What the narrative says beyond the distribution: the leading frames, and caveats on the evidence. */
interface NarrativeContext {
  /** Items found, before sampling. */
  found: number
  top: readonly FrameReport[]
  proxy: boolean
  coverage: number
}

function narrativeOf(request: SentimentRequest, distribution: Distribution, context: NarrativeContext): string {
  const { analysed, pos, neu, neg, netScore, label } = distribution
  const { found, top, coverage, proxy } = context
  const words = WORDS[request.lang]
  const coveredDays = Math.round(coverage * request.days * 10) / 10
  const pc = (k: number) => Math.round((100 * k) / analysed)
  return request.lang === 'zh'
    ? `“${request.entity}”在${PLATFORM_LABEL.zh[request.platform]}近${request.days}天的情绪${words[label]}（净值${signed(netScore)}，${analysed < found ? `从${found}条中均匀抽取${analysed}条` : `共${analysed}条`}）：正面${pc(pos)}%，中性${pc(neu)}%，负面${pc(neg)}%。` +
        (top.length
          ? `讨论集中在${top.map((f) => `${f.label}（占${Math.round(f.share * 100)}%，净值${signed(f.net_score)}）`).join('和')}。`
          : '') +
        (proxy ? '部分或全部证据来自公开网络内容（代理读取），并非平台原生内容。' : '') +
        (coverage < 1 ? `证据来源的结果仅覆盖所问${request.days}天中的${coveredDays}天。` : '')
    : `Sentiment on "${request.entity}" on ${PLATFORM_LABEL.en[request.platform]} over the last ${request.days} days is ${words[label]} (net ${signed(netScore)} across ${analysed < found ? `an even sample of ${analysed} of ${found} items` : `${analysed} items`}): ${pc(pos)}% positive, ${pc(neu)}% neutral, ${pc(neg)}% negative.` +
        (top.length
          ? ` The conversation centres on ${top.map((f) => `${f.label.toLowerCase()} (${Math.round(f.share * 100)}%, net ${signed(f.net_score)})`).join(' and ')}.`
          : '') +
        (proxy ? ' Some or all of the evidence is open-web coverage (a proxy read), not the platform’s own posts.' : '') +
        (coverage < 1 ? ` The providers' results cover only ${coveredDays} of the ${request.days} days asked for.` : '')
}

export async function sentimentReport(src: EvidenceSources, request: SentimentRequest, spend?: ProviderSpend[]): Promise<Computed> {
  const asOf = src.asOf()
  const { recent } = windowsOf(asOf, request.days)
  const gathered = await gatherAsked(src, request, { from: recent.from, to: asOf }, spend)
  const set = framesFor(request.industry ?? undefined)
  const scored = await scoreItems(gathered.items, set)
  const tones = distributionOf(scored)
  const share = (k: number) => round(k / tones.analysed, 3)
  const frames = frameBreakdown(scored, set, request.lang)
  const mode = modeField(gathered.items)
  const coverage = coveredShareOf(gathered.sets, recent)
  const rated = confidence(gathered.items, asOf, request.days, coverage, src.quality().sample)
  const top = frames.slice(0, FRAMES_IN_NARRATIVE)
  const narrative = narrativeOf(request, tones, {
    found: Math.round(countOf(gathered.items)),
    top,
    proxy: Boolean(mode.evidence_mode),
    coverage,
  })
  return {
    data: {
      entity: request.asked.input,
      resolved: request.asked.resolved,
      platform: request.platform,
      timeframe: request.timeframe,
      industry: request.industry,
      industry_frames: set.industry,
      lang: request.lang,
      window: { from: isoDay(recent.from), to: isoDay(new Date(asOf.getTime() - 1)), as_of: asOf.toISOString() },
      summary: {
        label: tones.label,
        net_score: tones.netScore,
        engagement_weighted_net_score: engagementWeightedNet(scored),
        confidence: rated.value,
        narrative,
      },
      analysed_items: tones.analysed,
      distribution: {
        positive: { items: tones.pos, share: share(tones.pos) },
        neutral: { items: tones.neu, share: share(tones.neu) },
        negative: { items: tones.neg, share: share(tones.neg) },
      },
      frames,
      evidence: evidenceSummary(gathered.items, gathered.lanes),
      ...mode,
    },
    calls: gathered.calls,
    dropped: droppedTotals(gathered),
  }
}
