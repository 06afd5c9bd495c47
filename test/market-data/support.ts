/**
 * Helpers of the market-data route tests (the paying client is support/paying-client.ts): the sample
 * notice, rounding and change arithmetic as documented, and an independent DuckDB that reads the shipped
 * Parquet files directly, so the expected figures never come from the code under test.
 */
import { beforeAll, describe, expect, test } from 'bun:test'
import { expectCachedOnRepeat, startApi } from '../../support/api-during-tests'
import type { Parquet } from '../../support/parquet'
import {
  expectClientError,
  expectDocumentedData,
  expectPaidEnvelope,
  route,
  type Answer,
  type Client,
  type Query,
} from '../../support/paying-client'

export const LATEST_MONTH = '2026-10'

/** Every dataset answer says it is a generated sample. */
export function expectSampleNotice(data: any, dataset: 'flights' | 'spend'): void {
  expect(data.data_quality.sample).toBe(true)
  expect(data.data_quality.notice).toMatch(/generated/i)
  expect(data.data_quality.notice).toMatch(/sample/i)
  expect(data.data_quality.notice).toMatch(/not real/i)
  expect(data.data_quality.dataset).toBe(dataset)
  expect(data.data_quality.source_period).toEqual({ from: '2019-01', to: LATEST_MONTH })
}

/** A value the API rounded to `digits` decimals lies within half a unit of the last digit of the exact value. */
export function expectRoundedFrom(actual: number, exact: number, digits: number): void {
  expect(Math.abs(actual - exact)).toBeLessThanOrEqual(0.5 * 10 ** -digits + 1e-9)
  expect(actual).toBe(Number(actual.toFixed(digits)))
}

/** Percent change with one decimal, null without a base: the arithmetic the API documents. */
export const pctChange = (value: number, base: number | undefined): number | null =>
  base === undefined || base === 0 ? null : Math.round(((value - base) / base) * 1000) / 10

export const roundTo = (n: number, digits: number) => Math.round(n * 10 ** digits) / 10 ** digits

/** Direction as documented in the catalog: up/down beyond ±3 %, otherwise flat. */
export const directionOf = (change: number | null) => (change === null || Math.abs(change) <= 3 ? 'flat' : change > 0 ? 'up' : 'down')

/**
 * The contract every dataset route shares, as tests: the paid envelope at the catalog price, every
 * documented data field with its type, and the sample-data notice. Returns the answers for more checks.
 */
export function describeSharedContract(api: () => Client, dataset: 'flights' | 'spend', samples: [string, Query][]): Map<string, Answer> {
  const answers = new Map<string, Answer>()
  const ids = samples.map(([id]) => id)

  beforeAll(async () => {
    for (const [id, query] of samples) answers.set(id, await api().paid(id, query))
  })

  test.each(ids)('%s answers 200 with the paid success envelope at its catalog price', (id) => {
    expectPaidEnvelope(answers.get(id)!, route(id))
  })

  test.each(ids)('%s returns every documented data field with its documented type', (id) => {
    expectDocumentedData(route(id), answers.get(id)!.body.data)
  })

  test.each(ids)('%s says its figures are a generated sample', (id) => {
    expectSampleNotice(answers.get(id)!.body.data, dataset)
  })
  return answers
}

/** The row of `month` among a dataset's monthly rows (a missing month is a broken fixture, not a finding). */
export function rowOfMonth<Row extends { month: string }>(rows: Row[], month: string): Row {
  const row = rows.find((candidate) => candidate.month === month)
  if (!row) throw new Error(`no row for ${month}`)
  return row
}

/** The months route of a dataset: exactly the months its Parquet holds, oldest first, from 2019-01 to the latest. */
export function describeMonthsRoute(api: () => Client, reader: () => Parquet, dataset: 'flights' | 'spend'): void {
  describe(`GET /v1/market-data/${dataset}/months`, () => {
    test('lists exactly the months present in the Parquet, oldest first', async () => {
      const expected = (await reader().rows<{ month: string }>(`SELECT DISTINCT month FROM ${dataset} ORDER BY month`)).map(
        (row) => row.month,
      )
      const data = await api().data(`${dataset}.months`)
      expect(data.months).toEqual(expected)
      expect(data.count).toBe(expected.length)
      expect(data.earliest).toBe('2019-01')
      expect(data.latest).toBe(LATEST_MONTH)
    })
  })
}

/** Client errors of one route, a test each: answered without payment, naming the offending parameter. */
export function testFreeErrors(
  api: () => Client,
  id: string,
  cases: [title: string, query: Query, status: 400 | 404, parameter: string][],
): void {
  for (const [title, query, status, parameter] of cases)
    test(title, async () => expectClientError(await api().free(id, query), status, parameter))
}

/** Every spelling of one name gets the same answer; returns it. */
export async function sameAnswerFor(api: Client, id: string, [first, ...others]: [Query, ...Query[]]): Promise<any> {
  const answer = await api.data(id, first)
  for (const query of others) expect(await api.data(id, query)).toEqual(answer)
  return answer
}

/** An unknown name is a free 404 naming its parameter, echoing the name and listing known ones; returns the list. */
export async function expectUnknownName(api: Client, id: string, query: Query, parameter: string, known: string): Promise<string[]> {
  const answer = await api.free(id, query)
  expectClientError(answer, 404, parameter)
  expect(answer.body.error.details.value).toBe(query[parameter])
  expect(answer.body.error.details.known).toContain(known)
  return answer.body.error.details.known
}

/**
 * The answer cache, on a runtime of its own so that no other test has filled it: a repeated request is served from
 * the cache, and so is the same place asked for by its code.
 */
export function describeAnswerCache(
  repeated: [id: string, query: Query],
  byCode: { title: string; id: string; name: Query; code: Query },
): void {
  describe('answer cache', () => {
    let fresh: Client
    startApi((client) => (fresh = client))

    test('an identical paid request is computed once (miss) and then served from the materialised answer (hit)', () =>
      expectCachedOnRepeat(fresh, ...repeated))

    test(byCode.title, async () => {
      const byName = await fresh.paid(byCode.id, byCode.name)
      const asCode = await fresh.paid(byCode.id, byCode.code)
      expect(byName.body.meta.cache_status).toBe('miss')
      expect(asCode.body.meta.cache_status).toBe('hit')
    })
  })
}
