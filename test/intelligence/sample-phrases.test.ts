/**
 * The sample corpus is written from phrase banks (scripts/sample/evidence-vocabulary.ts); its sentiment
 * examples only read as real posts when every praising clause scores positive, every complaint negative
 * and every aspect, detail and product name neutral under the lexicon the routes use.
 */
import { describe, expect, test } from 'bun:test'
import { CATEGORY_WORDS, NEUTRAL_WORDS, TONE_WORDS } from '../../scripts/sample/evidence-vocabulary'
import { TOPICS } from '../../scripts/sample/signals-vocabulary'
import { scoreText } from '../../src/intelligence/analysis/sentiment'

const phrases: [string, 'positive' | 'negative' | 'neutral'][] = [
  ...Object.values(TONE_WORDS.pos).flatMap((bank) => bank!.flat().map((p) => [p, 'positive'] as [string, 'positive'])),
  ...Object.values(TONE_WORDS.neg).flatMap((bank) => bank!.flat().map((p) => [p, 'negative'] as [string, 'negative'])),
  ...Object.values(CATEGORY_WORDS).flatMap((w) => (w.safety ?? []).flat().map((p) => [p, 'negative'] as [string, 'negative'])),
  ...[...NEUTRAL_WORDS, ...Object.values(CATEGORY_WORDS).flatMap((w) => [...w.aspects, ...w.details, ...w.products])]
    .flat()
    .map((p) => [p, 'neutral'] as [string, 'neutral']),
]

describe('the sample corpus phrase banks', () => {
  test('are large enough to read as varied posts', () => expect(phrases.length).toBeGreaterThan(300))

  test.each(phrases)('"%s" reads %s', (phrase, tone) => {
    expect(scoreText(phrase).tone).toBe(tone)
  })
})

test('a brand post names a product that is no topic of its category, so brand posts never count as topic posts', () => {
  for (const [category, words] of Object.entries(CATEGORY_WORDS)) {
    const topics = TOPICS[category as keyof typeof TOPICS].flatMap((t) => [t.zh, t.name.toLowerCase()])
    for (const [zh, en] of words.products)
      expect(
        topics.filter((t) => zh.includes(t) || en.toLowerCase().includes(t)),
        `${category}: ${zh} / ${en}`,
      ).toEqual([])
  }
})
