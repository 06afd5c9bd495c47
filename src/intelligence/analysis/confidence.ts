/** Confidence tied to evidence strength: volume, diversity, recency, and how much of it is native. See CONFIDENCE. */
import { CONFIDENCE } from '../../catalog'
import { countOf, publisherOf, type EvidenceItem } from '../evidence'

const DAY_MS = 86_400_000
const round = (n: number, d = 2) => Math.round(n * 10 ** d) / 10 ** d

export interface ConfidenceResult {
  value: number
  volume: number
  diversity: number
  recency: number
  native_share: number
  /** Mean relevance of the items (RELEVANCE): passing mentions weigh less than posts about the subject. */
  relevance: number
  /** Share of the asked days the evidence covers (a provider whose results do not reach back covers less). */
  coverage: number
  /** Share kept for generated sample evidence (CONFIDENCE.sampleShare); 1 for live evidence. */
  sample: number
}

export function confidence(items: readonly EvidenceItem[], asOf: Date, days: number, coverage = 1, isSample = false): ConfidenceResult {
  const rules = CONFIDENCE
  const sample = isSample ? rules.sampleShare : 1
  if (items.length === 0)
    return { value: 0, volume: 0, diversity: 0, recency: 0, native_share: 0, relevance: 0, coverage: round(coverage), sample }
  const volume = Math.min(1, Math.log1p(countOf(items)) / Math.log1p(rules.fullVolumeItems))
  const kinds = new Set(items.map((i) => i.sourceKind)).size
  const authors = new Set(items.map(publisherOf)).size
  const diversity = (Math.min(1, kinds / rules.fullKinds) + Math.min(1, authors / rules.fullAuthors)) / 2
  const newest = items.reduce((t, i) => Math.max(t, i.publishedAt.getTime()), -Infinity)
  const ageDays = Math.max(0, (asOf.getTime() - newest) / DAY_MS)
  const recency = Math.max(0, 1 - ageDays / Math.max(rules.minRecencyDays, days))
  const nativeShare = items.filter((i) => i.retrieval === 'native').length / items.length
  const strength = rules.weights.volume * volume + rules.weights.diversity * diversity + rules.weights.recency * recency
  const relevance = items.reduce((s, i) => s + (i.relevance ?? 1), 0) / items.length
  const value =
    strength *
    (rules.proxyFloor + (1 - rules.proxyFloor) * nativeShare) *
    relevance *
    (rules.coverageFloor + (1 - rules.coverageFloor) * coverage) *
    sample
  return {
    value: round(value),
    volume: round(volume),
    diversity: round(diversity),
    recency: round(recency),
    native_share: round(nativeShare),
    relevance: round(relevance),
    coverage: round(coverage),
    sample,
  }
}
