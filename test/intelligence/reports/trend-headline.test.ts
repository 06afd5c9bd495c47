/** The trends headline on constructed momentum results: a stable call says when a large change is noise. */
import { describe, expect, test } from 'bun:test'
import { MOMENTUM } from '../../../src/catalog/evidence-rules'
import type { MomentumResult } from '../../../src/intelligence/analysis/momentum'
import { headline } from '../../../src/intelligence/reports/trend-report'

const request: Parameters<typeof headline>[0] = { subject: '露营', platform: 'all', days: 30 }
const window = (items: number, from = '2026-10-01', to = '2026-10-30') => ({
  from,
  to,
  items,
  weighted_items: items,
  engagement: 0,
  covered_days: 30,
  capped: false,
})

function result(o: Partial<MomentumResult>): MomentumResult {
  return {
    momentum: 'stable',
    score: 0.2,
    volume_z: 1.4,
    recent: window(37),
    prior: window(22, '2026-09-01', '2026-09-30'),
    volume_change_pct: 68.2,
    engagement_change_pct: null,
    reason: null,
    ...o,
  }
}

const line = (o: Partial<MomentumResult>) => headline(request, result(o), 0.41, 59, 'mixed')

describe('trends headline', () => {
  test('stable with a large volume change under the noise guard states its windows and says the change is within count noise', () => {
    expect(line({})).toBe(
      `"露营" is stable on all three platforms: 37 items in the last 30 days vs 22 in the 30 before (2026-10-01 to 2026-10-30 vs 2026-09-01 to 2026-09-30); +68.2% volume is within count noise (z 1.4 < ${MOMENTUM.minZ}); confidence 0.41 from 59 items, mixed evidence.`,
    )
    expect(line({ volume_z: -1.1, volume_change_pct: -45, recent: window(11), prior: window(20) })).toContain(
      `-45% volume is within count noise (z -1.1 > -${MOMENTUM.minZ})`,
    )
  })

  test('a small change, or one that stands out from noise, keeps the plain figure', () => {
    expect(line({ volume_change_pct: 4, volume_z: 0.2 })).toContain(
      'vs 22 in the 30 before (2026-10-01 to 2026-10-30 vs 2026-09-01 to 2026-09-30; +4% volume); confidence',
    )
    expect(line({ momentum: 'rising', volume_z: 3.1 })).toContain(
      'is rising on all three platforms: 37 items in the last 30 days vs 22 in the 30 before (2026-10-01 to 2026-10-30 vs 2026-09-01 to 2026-09-30; +68.2% volume); confidence',
    )
    expect(line({ volume_z: 2.5 })).not.toContain('noise')
  })

  test('stable although the volume change stands out from noise says engagement pulled the other way', () => {
    expect(line({ volume_z: -2.4, volume_change_pct: -44, score: -0.1 })).toContain(
      `; -44% volume, but engagement moved the other way (score -0.1 within ±${MOMENTUM.threshold})`,
    )
  })

  test('passing mentions: both counts side by side, and a change they carry is said to be theirs', () => {
    const reason = 'the rise is in passing mentions: the posts about it alone (60 vs 60) score 0, within ±0.15'
    const recent = { ...window(116), weighted_items: 88 }
    expect(line({ volume_z: 2.28, volume_change_pct: 46.7, recent, prior: window(60, '2026-09-01', '2026-09-30'), reason })).toContain(
      `: 116 items in the last 30 days vs 60 in the 30 before, 88 vs 60 weighted by relevance (2026-10-01 to 2026-10-30 vs 2026-09-01 to 2026-09-30; +46.7% volume); ${reason}; confidence`,
    )
    // No prior volume to compare with: the windows alone, no empty figure.
    expect(line({ volume_change_pct: null, recent, prior: window(0, '2026-09-01', '2026-09-30'), reason })).toContain(
      `(2026-10-01 to 2026-10-30 vs 2026-09-01 to 2026-09-30); ${reason}; confidence`,
    )
    // Counts that differ by rounding only (a sampled corpus) are not restated.
    expect(line({ recent: { ...window(37), weighted_items: 37.4 } })).not.toContain('weighted')
  })

  test('insufficient evidence keeps its own sentence, with the reason', () => {
    const reason =
      'the evidence covers 6 days of the 30-day prior window (2026-09-01 to 2026-09-30); a direction needs at least 50% of each window covered'
    expect(line({ momentum: 'insufficient_evidence', volume_z: null, volume_change_pct: null, reason })).toBe(
      `No direction can be called for "露营" on all three platforms: ${reason} (confidence 0.41 from 59 items, mixed evidence).`,
    )
  })
})
