/** Bounded analysis work: the sample text analysis reads, and the slices that let other requests run. */
import { describe, expect, test } from 'bun:test'
import { TEXT_ANALYSIS_MAX_ITEMS } from '../../src/catalog/evidence-rules'
import { eachSliced, evenSample, inBackground, SLICE_MS } from '../../src/intelligence/turns'
import { startApi } from '../../support/api-during-tests'
import type { Client as Api } from '../../support/paying-client'

describe('evenSample', () => {
  test('keeps everything up to the maximum, else evenly spaced items in order, the same every time', () => {
    const xs = Array.from({ length: 10 }, (_, i) => i)
    expect(evenSample(xs, 20)).toEqual(xs)
    expect(evenSample(xs, 5)).toEqual([0, 2, 4, 6, 8])
    expect(evenSample(xs, 3)).toEqual(evenSample(xs, 3))
  })
})

describe('eachSliced', () => {
  test('lets a callback queued by another request run before a long loop ends', async () => {
    const order: string[] = []
    setImmediate(() => order.push('other request'))
    const busy = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until);
    }
    await eachSliced(Array.from({ length: 64 }), (_, i) => {
      busy(SLICE_MS / 4)
      if (i === 63) order.push('loop done')
    })
    expect(order).toEqual(['other request', 'loop done'])
  })
})

describe('background work (warming answers)', () => {
  test('gives way to a request: once the request loop waits for a slice, no background item runs until it is done', async () => {
    const busy = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until);
    }
    const order: string[] = []
    const background = inBackground(() => eachSliced(Array.from({ length: 40 }), () => (busy(SLICE_MS / 4), order.push('b'))))
    // The request starts while the background loop holds the event loop's turns.
    await new Promise((resolve) => setTimeout(resolve, 0))
    const request = eachSliced(Array.from({ length: 40 }), () => (busy(SLICE_MS / 4), order.push('r')))
    await Promise.all([background, request])
    const firstR = order.indexOf('r')
    const lastR = order.lastIndexOf('r')
    expect(firstR).toBeGreaterThanOrEqual(0)
    // Between the request's first and last item, only request items: the background waited.
    expect(order.slice(firstR, lastR + 1).every((x) => x === 'r')).toBe(true)
    // And the background loop still finished afterwards.
    expect(order.filter((x) => x === 'b')).toHaveLength(40)
  })

  test('two request loops still take turns with each other', async () => {
    const busy = (ms: number) => {
      const until = performance.now() + ms
      while (performance.now() < until);
    }
    const order: string[] = []
    const a = eachSliced(Array.from({ length: 40 }), () => (busy(SLICE_MS / 4), order.push('a')))
    const b = eachSliced(Array.from({ length: 40 }), () => (busy(SLICE_MS / 4), order.push('b')))
    await Promise.all([a, b])
    // b ran before a finished: neither request loop waited for the other to end.
    expect(order.indexOf('b')).toBeLessThan(order.lastIndexOf('a'))
  })
})

describe('a year of a category', () => {
  let api: Api
  startApi((client) => (api = client))

  test(`sentiment scores an even sample of at most ${TEXT_ANALYSIS_MAX_ITEMS} items and says so; counts still stand for every item`, async () => {
    const d = await api.data('china.sentiment', { entity: 'travel', timeframe: '365d' })
    // Thousands of posts match; the answer read an evenly drawn sample of them, and scored every relevant one read.
    expect(d.evidence.total_items).toBeGreaterThan(4 * TEXT_ANALYSIS_MAX_ITEMS)
    const read = d.evidence.sampled.items_read
    expect(read).toBeGreaterThan(TEXT_ANALYSIS_MAX_ITEMS / 2)
    expect(d.analysed_items).toBe(Math.min(read, TEXT_ANALYSIS_MAX_ITEMS))
    const { positive, neutral, negative } = d.distribution
    expect(positive.items + neutral.items + negative.items).toBe(d.analysed_items)
    expect(d.summary.narrative).toContain(`an even sample of ${d.analysed_items} of ${d.evidence.total_items} items`)
    expect(d.evidence.sampled.note).toContain('estimated')
    const corpus = d.data_quality.providers.filter((p: { sampled?: unknown }) => p.sampled)
    expect(corpus.length).toBeGreaterThan(0)
    // Estimated counts still add up: the parts a buyer sums give the total.
    const sum = (counts: Record<string, number>) => Object.values(counts).reduce((a, b) => a + b, 0)
    expect(sum(d.evidence.by_platform)).toBe(d.evidence.total_items)
    expect(sum(d.evidence.by_source_kind)).toBe(d.evidence.total_items)
    expect(d.evidence.native_items + d.evidence.proxy_items).toBe(d.evidence.total_items)
  })
})
