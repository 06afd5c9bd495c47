/**
 * The five destination-spend routes over the shipped sample data. Expected figures come from a separate
 * DuckDB that reads datasets/spend.parquet directly, never from the code under test.
 */
import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { describeAnswerCache, describeMonthsRoute, describeSharedContract, testFreeErrors } from './support'
import { directionOf, expectRoundedFrom, expectUnknownName, LATEST_MONTH, pctChange, rowOfMonth, sameAnswerFor } from './support'
import { startApiAndReader } from '../../support/api-during-tests'
import type { Parquet } from '../../support/parquet'
import { bounds, expectClientError, route, strictSchema, type Client, type Query } from '../../support/paying-client'
import type { CountryMonth } from '../../src/data/market-totals'

let api: Client
let pq: Parquet
startApiAndReader((client, reader) => ([api, pq] = [client, reader]))

/** One country's monthly totals straight from the Parquet, oldest first. */
async function countryMonths(country: string): Promise<CountryMonth[]> {
  return pq.rows<CountryMonth>(
    `SELECT month, SUM(total_cards)::BIGINT AS cards, SUM(luxury_spend_cny) AS luxury, SUM(accommodation_spend_cny) AS accommodation,
            SUM(dining_spend_cny) AS dining, SUM(retail_spend_cny) AS retail
       FROM spend WHERE country = $1 GROUP BY month ORDER BY month`,
    [country],
  )
}

const byMonth = rowOfMonth<CountryMonth>

describe('every spend route', () => {
  const samples: [string, Query][] = [
    ['spend.months', {}],
    ['spend.countries', {}],
    ['spend.summary', { country: 'Japan' }],
    ['spend.trends', { country: 'Japan' }],
    ['spend.series', { country: 'Japan', metric: 'total_cards' }],
  ]
  const answers = describeSharedContract(() => api, 'spend', samples)

  test('the schema check is strict: an integer sent as a string fails it', () => {
    const data = structuredClone(answers.get('spend.countries')!.body.data)
    data.countries[0].total_cards = String(data.countries[0].total_cards)
    expect(Value.Check(strictSchema(route('spend.countries').data), data)).toBe(false)
  })
})

describeMonthsRoute(
  () => api,
  () => pq,
  'spend',
)

describe('GET /v1/market-data/spend/countries', () => {
  test('uses the latest month when month is omitted', async () => {
    expect((await api.data('spend.countries')).month).toBe(LATEST_MONTH)
  })

  test('lists every country with its cards in the month, largest first, as in the Parquet', async () => {
    const expected = await pq.rows(
      `SELECT country, country_code, SUM(total_cards)::BIGINT AS total_cards FROM spend WHERE month = '2024-03'
        GROUP BY country, country_code ORDER BY total_cards DESC, country`,
    )
    const data = await api.data('spend.countries', { month: '2024-03' })
    expect(data.month).toBe('2024-03')
    expect(data.countries).toEqual(expected)
  })

  test('covers at least 25 countries', async () => {
    const data = await api.data('spend.countries')
    expect(data.countries.length).toBeGreaterThanOrEqual(25)
    expect(new Set(data.countries.map((c: { country: string }) => c.country)).size).toBe(data.countries.length)
  })

  testFreeErrors(() => api, 'spend.countries', [
    ['a month without data is a free 404 naming month', { month: '2031-01' }, 404, 'month'],
    ['a malformed month is a free 400 naming month', { month: '2026-13' }, 400, 'month'],
  ])
})

describe('GET /v1/market-data/spend/summary', () => {
  test("reports Japan's cards, average luxury and accommodation spend and top source city as in the Parquet", async () => {
    const cur = byMonth(await countryMonths('Japan'), '2025-07')
    const top = await pq.one<{ source_city: string }>(
      `SELECT source_city FROM spend WHERE country = 'Japan' AND month = '2025-07'
        GROUP BY source_city ORDER BY SUM(total_cards) DESC, source_city LIMIT 1`,
    )
    const data = await api.data('spend.summary', { country: 'Japan', month: '2025-07' })
    expect(data.country).toBe('Japan')
    expect(data.country_code).toBe('JP')
    expect(data.source_month).toBe('2025-07')
    expect(data.summary.total_cards).toBe(cur.cards)
    expectRoundedFrom(data.summary.estimated_average_luxury_spend_cny, cur.luxury / cur.cards, 2)
    expectRoundedFrom(data.summary.estimated_average_accommodation_spend_cny, cur.accommodation / cur.cards, 2)
    expect(data.summary.top_source_city).toBe(top.source_city)
  })

  test('computes month-over-month and year-over-year card changes from the neighbouring months', async () => {
    const rows = await countryMonths('Japan')
    const cards = (m: string) => byMonth(rows, m).cards
    const data = await api.data('spend.summary', { country: 'Japan', month: '2025-07' })
    expect(data.highlights.total_cards_mom_pct).toBe(pctChange(cards('2025-07'), cards('2025-06')))
    expect(data.highlights.total_cards_yoy_pct).toBe(pctChange(cards('2025-07'), cards('2024-07')))
  })

  test('breaks total spend into a mix that matches the category totals and sums to about 100 %', async () => {
    const cur = byMonth(await countryMonths('Japan'), '2025-07')
    const total = cur.luxury + cur.accommodation + cur.dining + cur.retail
    const h = (await api.data('spend.summary', { country: 'Japan', month: '2025-07' })).highlights
    expectRoundedFrom(h.total_spend_cny, total, 2)
    expectRoundedFrom(h.spend_mix_pct.luxury, (cur.luxury / total) * 100, 1)
    expectRoundedFrom(h.spend_mix_pct.accommodation, (cur.accommodation / total) * 100, 1)
    expectRoundedFrom(h.spend_mix_pct.dining, (cur.dining / total) * 100, 1)
    expectRoundedFrom(h.spend_mix_pct.retail, (cur.retail / total) * 100, 1)
    const mix = h.spend_mix_pct.luxury + h.spend_mix_pct.accommodation + h.spend_mix_pct.dining + h.spend_mix_pct.retail
    expect(Math.abs(mix - 100)).toBeLessThanOrEqual(0.2)
  })

  test('lists the five largest source cities with their share of the cards', async () => {
    const expected = await pq.rows<{ city: string; cards: number }>(
      `SELECT source_city AS city, SUM(total_cards)::BIGINT AS cards FROM spend WHERE country = 'Japan' AND month = '2025-07'
        GROUP BY source_city ORDER BY cards DESC, city LIMIT 5`,
    )
    const cur = byMonth(await countryMonths('Japan'), '2025-07')
    const cities = (await api.data('spend.summary', { country: 'Japan', month: '2025-07' })).highlights.top_source_cities
    expect(cities.map((c: { city: string; total_cards: number }) => [c.city, c.total_cards])).toEqual(
      expected.map((e) => [e.city, e.cards]),
    )
    cities.forEach((c: { share_pct: number; total_cards: number }) => expectRoundedFrom(c.share_pct, (c.total_cards / cur.cards) * 100, 1))
  })

  test('uses the latest month when month is omitted', async () => {
    expect((await api.data('spend.summary', { country: 'Japan' })).source_month).toBe(LATEST_MONTH)
  })

  test('matches the country by name in any case and by ISO code', async () => {
    const answer = await sameAnswerFor(api, 'spend.summary', [
      { country: 'japan', month: '2025-07' },
      { country: 'JAPAN', month: '2025-07' },
      { country: 'JP', month: '2025-07' },
    ])
    expect(answer.country).toBe('Japan')
  })

  test('an unknown country is a free 404 naming country and listing the known ones', async () => {
    await expectUnknownName(api, 'spend.summary', { country: 'Atlantis' }, 'country', 'Japan')
  })

  testFreeErrors(() => api, 'spend.summary', [
    ['a missing country is a free 400 naming country', {}, 400, 'country'],
    ['a month without data is a free 404 naming month', { country: 'Japan', month: '2031-01' }, 404, 'month'],
    ['a malformed month is a free 400 naming month', { country: 'Japan', month: '2026-13' }, 400, 'month'],
  ])
})

describe('GET /v1/market-data/spend/trends', () => {
  const months = bounds('spend.trends', 'months')

  test(`returns the latest ${months.default} months by default, oldest first, ending at the latest month`, async () => {
    const expected = (await countryMonths('Japan')).slice(-months.default)
    const data = await api.data('spend.trends', { country: 'Japan' })
    expect(data.latest_month).toBe(LATEST_MONTH)
    expect(data.series.map((p: { month: string; total_cards: number }) => [p.month, p.total_cards])).toEqual(
      expected.map((r) => [r.month, r.cards]),
    )
    data.series.forEach((p: { estimated_average_luxury_spend_cny: number }, i: number) =>
      expectRoundedFrom(p.estimated_average_luxury_spend_cny, expected[i]!.luxury / expected[i]!.cards, 2),
    )
  })

  test(`returns ${months.maximum} months at the maximum and rejects more for free, naming months`, async () => {
    const data = await api.data('spend.trends', { country: 'Japan', months: months.maximum })
    expect(data.series).toHaveLength(months.maximum)
    expect(data.series.at(-1).month).toBe(LATEST_MONTH)
    expectClientError(await api.free('spend.trends', { country: 'Japan', months: months.maximum + 1 }), 400, 'months')
  })

  test('computes MoM and YoY card changes and YoY per-card spend changes from the Parquet', async () => {
    const rows = await countryMonths('Japan')
    const [latest, previous, yearAgo] = [byMonth(rows, '2026-10'), byMonth(rows, '2026-09'), byMonth(rows, '2025-10')]
    const { changes } = await api.data('spend.trends', { country: 'Japan' })
    expect(changes.total_cards_mom_pct).toBe(pctChange(latest.cards, previous.cards))
    expect(changes.total_cards_yoy_pct).toBe(pctChange(latest.cards, yearAgo.cards))
    // per-card averages are rounded to cents before the change is taken: allow one step of the last digit
    expect(
      Math.abs(changes.average_luxury_spend_yoy_pct - pctChange(latest.luxury / latest.cards, yearAgo.luxury / yearAgo.cards)!),
    ).toBeLessThanOrEqual(0.1)
    expect(
      Math.abs(
        changes.average_accommodation_spend_yoy_pct -
          pctChange(latest.accommodation / latest.cards, yearAgo.accommodation / yearAgo.cards)!,
      ),
    ).toBeLessThanOrEqual(0.1)
  })

  test('derives direction and recovery from the latest three months against a year before and against 2019', async () => {
    const rows = await countryMonths('Japan')
    const sum = (ms: string[]) => ms.reduce((t, m) => t + byMonth(rows, m).cards, 0)
    const recent = sum(['2026-08', '2026-09', '2026-10'])
    const data = await api.data('spend.trends', { country: 'Japan' })
    expect(data.direction).toBe(directionOf(pctChange(recent, sum(['2025-08', '2025-09', '2025-10']))))
    expect(data.recovery_vs_2019_pct).toBe(pctChange(recent, sum(['2019-08', '2019-09', '2019-10'])))
  })

  test('an unknown country is a free 404 naming country', async () => {
    expectClientError(await api.free('spend.trends', { country: 'Narnia' }), 404, 'country')
  })
})

describe('GET /v1/market-data/spend/series', () => {
  test('returns the per-card luxury spend of each month between from and to, as in the Parquet', async () => {
    const expected = (await countryMonths('Japan')).filter((r) => r.month >= '2024-01' && r.month <= '2024-12')
    const data = await api.data('spend.series', {
      country: 'JP',
      metric: 'estimated_average_luxury_spend_cny',
      from: '2024-01',
      to: '2024-12',
    })
    expect(data.country).toBe('Japan')
    expect(data.metric).toBe('estimated_average_luxury_spend_cny')
    expect(data.unit).toBe('CNY per card')
    expect(data.points.map((p: { month: string }) => p.month)).toEqual(expected.map((r) => r.month))
    data.points.forEach((p: { value: number }, i: number) => expectRoundedFrom(p.value, expected[i]!.luxury / expected[i]!.cards, 2))
  })

  test('returns total spend as the sum of the four spend categories', async () => {
    const expected = (await countryMonths('Thailand')).filter((r) => r.month >= '2023-06' && r.month <= '2023-08')
    const data = await api.data('spend.series', { country: 'Thailand', metric: 'total_spend_cny', from: '2023-06', to: '2023-08' })
    expect(data.unit).toBe('CNY')
    expect(data.points).toHaveLength(3)
    data.points.forEach((p: { value: number }, i: number) => {
      const r = expected[i]!
      expectRoundedFrom(p.value, r.luxury + r.accommodation + r.dining + r.retail, 2)
    })
  })

  test('covers every month of the dataset when from and to are omitted', async () => {
    const expected = await countryMonths('Japan')
    const data = await api.data('spend.series', { country: 'Japan', metric: 'total_cards' })
    expect(data.unit).toBe('cards')
    expect(data.points).toEqual(expected.map((r) => ({ month: r.month, value: r.cards })))
  })

  testFreeErrors(() => api, 'spend.series', [
    ['a from after to is a free 400 naming from', { country: 'Japan', metric: 'total_cards', from: '2025-05', to: '2025-01' }, 400, 'from'],
    ['an unknown metric is a free 400 naming metric', { country: 'Japan', metric: 'average_happiness' }, 400, 'metric'],
    [
      'a range before the data is a free 404 naming from, not a paid empty series',
      { country: 'Japan', metric: 'total_cards', from: '2018-01', to: '2018-05' },
      404,
      'from',
    ],
    ['a to month without data is a free 404 naming to', { country: 'Japan', metric: 'total_cards', to: '2031-01' }, 404, 'to'],
  ])
})

describeAnswerCache(['spend.summary', { country: 'Japan', month: '2024-01' }], {
  title: 'the same country by ISO code is the same answer, served from the cache',
  id: 'spend.trends',
  name: { country: 'Thailand' },
  code: { country: 'th' },
})
