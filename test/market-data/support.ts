/**
 * Helpers of the market-data route tests (the paying client is support/paying-client.ts): the sample
 * notice, rounding and change arithmetic as documented, and an independent DuckDB that reads the shipped
 * Parquet files directly, so the expected figures never come from the code under test.
 */
import { beforeAll, expect, test } from 'bun:test'
import { expectDocumentedData, expectPaidEnvelope, route, type Answer, type Client, type Query } from '../../support/paying-client'

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
