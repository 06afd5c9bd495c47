/** Pieces every China intelligence answer shares: evidence references, the evidence summary, rounding. */
import { countOf, engagementOf, evidenceMode, publisherOf, weightedCountOf, type EvidenceItem } from '../evidence'
import type { LaneReport } from '../lanes'

export const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits

export function median(values: readonly number[]): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  const middle = sorted.length >> 1
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

export const isoDay = (d: Date) => d.toISOString().slice(0, 10)
export const isoTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, 'Z')

const EXCERPT = 160

/** An evidence item as answers cite it. */
export function ref(item: EvidenceItem) {
  const body = item.title && !item.text.startsWith(item.title) ? `${item.title} — ${item.text}` : item.text
  return {
    id: item.id,
    url: item.url,
    platform: item.platform,
    retrieval: item.retrieval,
    source_kind: item.sourceKind,
    author: item.author,
    ...(item.site ? { site: item.site } : {}),
    published_at: isoTime(item.publishedAt),
    language: item.language,
    excerpt: body.length > EXCERPT ? `${body.slice(0, EXCERPT - 1)}…` : body,
    engagement: item.engagement,
    provider: item.provider,
  }
}

const SAMPLED_NOTE =
  'The counts are estimated: an evenly drawn sample of the matching posts was read (every platform and window in the same proportion) and each post read counts for those it was drawn from; shares, themes, authors and examples come from the posts read.'
/** A KOL answer whose creators' posts were drawn (corpus/corpus.ts CREATOR_READ_MAX): what is exact and what is estimated. */
export const CREATOR_DRAWN_NOTE =
  "Each creator's posts were read one in k (at least 20 of each creator, every post of one with fewer), each counting for those it was drawn from: a creator's post count is exact; the posts on the category, engagement rates and flags are estimated from the posts read."

/** Strongest first: posts about the subject before passing mentions (relevance), then by engagement, then newest. */
export const byStrength = (a: EvidenceItem, b: EvidenceItem) =>
  (b.relevance ?? 1) - (a.relevance ?? 1) || engagementOf(b) - engagementOf(a) || b.publishedAt.getTime() - a.publishedAt.getTime()

/**
 * Items per key, as the items stand for them (a sampled item counts its weight), in whole numbers that
 * add up to the rounded total (largest remainders first): a buyer summing the parts finds `total_items`.
 */
const countBy = (items: readonly EvidenceItem[], key: (item: EvidenceItem) => string) => {
  const sums: Record<string, number> = {}
  for (const i of items) sums[key(i)] = (sums[key(i)] ?? 0) + (i.weight ?? 1)
  const out: Record<string, number> = {}
  for (const [k, n] of Object.entries(sums)) out[k] = Math.floor(n)
  let left = Math.round(countOf(items)) - Object.values(out).reduce((a, b) => a + b, 0)
  for (const [k] of Object.entries(sums).sort(([, a], [, b]) => (b % 1) - (a % 1))) {
    if (left <= 0) break
    out[k]!++
    left--
  }
  return out
}

const counted = (items: readonly EvidenceItem[]) => Math.round(countOf(items))

/** `note`: what a sampled answer says was estimated (SAMPLED_NOTE, or the KOL answer's CREATOR_DRAWN_NOTE). */
export function evidenceSummary(items: readonly EvidenceItem[], lanes: readonly LaneReport[], note = SAMPLED_NOTE) {
  const times = items.map((i) => i.publishedAt.getTime())
  const [first, last] = times.reduce(([lo, hi], t) => [Math.min(lo, t), Math.max(hi, t)], [Infinity, -Infinity])
  const total = counted(items)
  const byRetrieval = countBy(items, (i) => i.retrieval)
  return {
    total_items: total,
    // Beside the count, what it amounts to as posts about the subject: a passing mention is part of one.
    weighted_items: round(weightedCountOf(items), 1),
    native_items: byRetrieval.native ?? 0,
    proxy_items: byRetrieval.proxy ?? 0,
    by_source_kind: countBy(items, (i) => i.sourceKind),
    by_platform: countBy(items, (i) => i.platform),
    // Among the items read: a sampled answer's authors are those of its sample.
    distinct_authors: new Set(items.map(publisherOf)).size,
    ...(total > items.length ? { sampled: { items_read: items.length, note } } : {}),
    date_range: items.length ? { earliest: isoTime(new Date(first)), latest: isoTime(new Date(last)) } : null,
    lanes: [...lanes],
  }
}

/** `evidence_mode` is stated only when the evidence is not all native (the spec's optional field). */
export function modeField(items: readonly EvidenceItem[]): { evidence_mode?: 'proxy' | 'mixed' } {
  const mode = evidenceMode(items)
  return mode === 'native' ? {} : { evidence_mode: mode }
}
