/** `data` of the sentiment route: distribution, net score, narrative frames with examples, in en or zh. */
import { LIVE_RESULTS_PER_CALL, SENTIMENT_MIXED_SHARE, SENTIMENT_NET_THRESHOLD, TEXT_ANALYSIS_MAX_ITEMS } from '../catalog/evidence-rules'
import { confidence } from './confidence'
import { engagementOf, type EvidenceItem, type Platform } from './evidence'
import { nearNameCheck, nearNames, type Asked } from './asked'
import { droppedTotals, gather } from './lanes'
import type { ProviderSpend } from '../core/provider-spend'
import { coveredShareOf, windowsOf } from './momentum'
import { byStrength, evidenceSummary, isoDay, modeField, ref, round } from './report'
import { framesOf, framesFor, scoreText, type Tone } from './sentiment'
import type { Computed } from './evidence-answer'
import { eachSliced, evenSample } from './turns'
import type { EvidenceSources } from './sources'
import { PLATFORM_LABEL } from './trend-report'

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

export async function sentimentReport(src: EvidenceSources, r: SentimentRequest, spend?: ProviderSpend[]): Promise<Computed> {
  const asOf = src.asOf()
  const { recent } = windowsOf(asOf, r.days)
  const a = r.asked
  const g = await nearNames(
    a,
    gather(src, r.platform, {
      keyword: a.input,
      match: a.match,
      query: a.query,
      from: recent.from,
      to: asOf,
      limit: LIVE_RESULTS_PER_CALL,
      ...(spend ? { spend } : {}),
    }),
  )
  nearNameCheck(a, g.items.length)
  const set = framesFor(r.industry ?? undefined)
  const scored: Scored[] = []
  await eachSliced(evenSample(g.items, TEXT_ANALYSIS_MAX_ITEMS), (item) => {
    const text = `${item.title} ${item.text}`
    const s = scoreText(text, item.language)
    scored.push({ item, tone: s.tone, score: s.score, frames: framesOf(text, set) })
  })
  const n = scored.length
  const count = (t: Tone) => scored.filter((s) => s.tone === t).length
  const share = (k: number) => round(k / n, 3)
  const [pos, neu, neg] = [count('positive'), count('neutral'), count('negative')]
  const netScore = net(scored.map((s) => s.tone))
  // Engagement-weighted: a post many people engaged with counts for more (1 + log10(1 + engagement)).
  const w = (s: Scored) => 1 + Math.log10(1 + engagementOf(s.item))
  const totalW = scored.reduce((a, s) => a + w(s), 0)
  const weightedNet = Math.round(
    (100 * scored.reduce((a, s) => a + w(s) * (s.tone === 'positive' ? 1 : s.tone === 'negative' ? -1 : 0), 0)) / totalW,
  )
  const label = labelOf(netScore, pos / n, neg / n)
  const words = WORDS[r.lang]

  const frames = Object.entries(set.frames)
    .map(([id, def]) => {
      const members = scored.filter((s) => s.frames.includes(id))
      const frameNet = net(members.map((s) => s.tone))
      const tone = labelOf(
        frameNet,
        members.filter((s) => s.tone === 'positive').length / (members.length || 1),
        members.filter((s) => s.tone === 'negative').length / (members.length || 1),
      )
      const frameLabel = def.label[r.lang]
      const pct = Math.round((100 * members.length) / n)
      const dominant = members.filter((s) => s.tone === (frameNet < 0 ? 'negative' : 'positive')).sort((a, b) => byStrength(a.item, b.item))
      const rest = members.filter((s) => !dominant.includes(s)).sort((a, b) => byStrength(a.item, b.item))
      return {
        frame: id,
        label: frameLabel,
        items: members.length,
        share: share(members.length),
        net_score: frameNet,
        tone,
        summary:
          r.lang === 'zh'
            ? `${frameLabel}：占${pct}%，${tone === 'mixed' || tone === 'neutral' ? `整体${words[tone]}` : `以${words[tone]}为主`}（净值${signed(frameNet)}）。`
            : `${frameLabel}: ${pct}% of items, ${tone === 'mixed' || tone === 'neutral' ? tone : `mostly ${tone}`} (net ${signed(frameNet)}).`,
        examples: [...dominant, ...rest]
          .slice(0, EXAMPLES_PER_FRAME)
          .map((s) => ({ ...ref(s.item), tone: s.tone, sentiment_score: s.score })),
      }
    })
    .filter((f) => f.items > 0)
    .sort((a, b) => b.items - a.items || a.frame.localeCompare(b.frame))

  const mode = modeField(g.items)
  const coverage = coveredShareOf(g.sets, recent)
  const coveredDays = Math.round(coverage * r.days * 10) / 10
  const c = confidence(g.items, asOf, r.days, coverage, src.quality().sample)
  const top = frames.slice(0, FRAMES_IN_NARRATIVE)
  const pc = (k: number) => Math.round((100 * k) / n)
  const narrative =
    r.lang === 'zh'
      ? `“${r.entity}”在${PLATFORM_LABEL.zh[r.platform]}近${r.days}天的情绪${words[label]}（净值${signed(netScore)}，${n < g.items.length ? `从${g.items.length}条中均匀抽取${n}条` : `共${n}条`}）：正面${pc(pos)}%，中性${pc(neu)}%，负面${pc(neg)}%。` +
        (top.length
          ? `讨论集中在${top.map((f) => `${f.label}（占${Math.round(f.share * 100)}%，净值${signed(f.net_score)}）`).join('和')}。`
          : '') +
        (mode.evidence_mode ? '部分或全部证据来自公开网络内容（代理读取），并非平台原生内容。' : '') +
        (coverage < 1 ? `证据来源的结果仅覆盖所问${r.days}天中的${coveredDays}天。` : '')
      : `Sentiment on "${r.entity}" on ${PLATFORM_LABEL.en[r.platform]} over the last ${r.days} days is ${words[label]} (net ${signed(netScore)} across ${n < g.items.length ? `an even sample of ${n} of ${g.items.length} items` : `${n} items`}): ${pc(pos)}% positive, ${pc(neu)}% neutral, ${pc(neg)}% negative.` +
        (top.length
          ? ` The conversation centres on ${top.map((f) => `${f.label.toLowerCase()} (${Math.round(f.share * 100)}%, net ${signed(f.net_score)})`).join(' and ')}.`
          : '') +
        (mode.evidence_mode ? ' Some or all of the evidence is open-web coverage (a proxy read), not the platform’s own posts.' : '') +
        (coverage < 1 ? ` The providers' results cover only ${coveredDays} of the ${r.days} days asked for.` : '')

  return {
    data: {
      entity: a.input,
      resolved: a.resolved,
      platform: r.platform,
      timeframe: r.timeframe,
      industry: r.industry,
      industry_frames: set.industry,
      lang: r.lang,
      window: { from: isoDay(recent.from), to: isoDay(new Date(asOf.getTime() - 1)), as_of: asOf.toISOString() },
      summary: { label, net_score: netScore, engagement_weighted_net_score: weightedNet, confidence: c.value, narrative },
      analysed_items: n,
      distribution: {
        positive: { items: pos, share: share(pos) },
        neutral: { items: neu, share: share(neu) },
        negative: { items: neg, share: share(neg) },
      },
      frames,
      evidence: evidenceSummary(g.items, g.lanes),
      ...mode,
    },
    calls: g.calls,
    dropped: droppedTotals(g),
  }
}
