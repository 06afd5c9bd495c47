/** The wrapper cost block on constructed leg outcomes: the price against the legs bought one by one. */
import { describe, expect, test } from 'bun:test'
import { costOf, type LegOutcome } from '../../src/capabilities/legs'

describe('wrapper cost', () => {
  const ran = (name: string, price_usd: string, status: LegOutcome['status'] = 'ran'): LegOutcome => ({
    name,
    route: `/v1/${name}`,
    price_usd,
    required: false,
    status,
  })

  test('difference_usd is price - legs bought separately, signed, so the figures add up', () => {
    // The buyer's case: 0.63 against 0.23 of legs showed a difference of "0.00".
    expect(
      costOf('0.63', { a: ran('a', '0.10'), b: ran('b', '0.13', 'reused'), c: ran('c', '0.40', 'skipped'), d: ran('d', '0.50', 'failed') }),
    ).toEqual({
      price_usd: '0.63',
      legs_bought_separately_usd: '0.23',
      difference_usd: '0.40',
      legs_used: 2,
    })
    expect(costOf('0.20', { a: ran('a', '0.10'), b: ran('b', '0.10'), c: ran('c', '0.05') }).difference_usd).toBe('-0.05')
    expect(costOf('0.20', { a: ran('a', '0.10'), b: ran('b', '0.10') }).difference_usd).toBe('0.00')
  })
})
