/** Content angles cite evidence that shows what the angle says (constructed items, no corpus). */
import { describe, expect, test } from 'bun:test'
import type { EvidenceItem } from '../../../src/intelligence/evidence'
import type { Tone } from '../../../src/intelligence/analysis/sentiment'
import { extractiveAngles, type TermStat } from '../../../src/intelligence/analysis/themes'
import { evidenceItem } from '../synthetic'

/** Items with a given tone; the complaint is the most engaged, so "the strongest item" would be the wrong example. */
const items = (tones: [Tone, number][]) => tones.map(([tone, likes], n) => ({ item: evidenceItem(`${tone}-${n}`, { likes }), tone }))

function anglesOf(tones: [Tone, number][]) {
  const xs = items(tones)
  const tone = new Map<EvidenceItem, Tone>(xs.map((x) => [x.item, x.tone]))
  const theme: TermStat = { term: '豆子', mentions: xs.length, score: xs.length, items: xs.map((x) => x.item) }
  const [angle] = extractiveAngles([theme], theme.items, (i) => tone.get(i)!)
  return { angle: angle!, toneOf: (id: string | null) => xs.find((x) => x.item.id === id)?.tone }
}

describe('extractive content angles', () => {
  test('a showcase angle cites a praising post, even when a complaint is more engaged', () => {
    const { angle, toneOf } = anglesOf([
      ['negative', 5000],
      ['positive', 10],
      ['positive', 20],
      ['positive', 30],
      ['neutral', 900],
    ])
    expect(angle.angle).toStartWith('Showcase')
    expect(toneOf(angle.example_evidence_id)).toBe('positive')
    expect(angle.example_evidence_id).toBe('positive-3') // the strongest of the praising posts
  })

  test('an angle that answers doubts cites a complaint, even when praise is more engaged', () => {
    const { angle, toneOf } = anglesOf([
      ['positive', 5000],
      ['negative', 10],
      ['negative', 20],
      ['neutral', 30],
    ])
    expect(angle.angle).toStartWith('Answer the doubts')
    expect(toneOf(angle.example_evidence_id)).toBe('negative')
  })

  test('an explain angle may cite any post: the strongest', () => {
    const { angle } = anglesOf([
      ['neutral', 10],
      ['neutral', 20],
      ['positive', 5000],
      ['negative', 30],
      ['neutral', 40],
    ])
    expect(angle.angle).toStartWith('Explain')
    expect(angle.example_evidence_id).toBe('positive-2')
  })
})
