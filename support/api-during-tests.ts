/**
 * The set-up the route tests of the China intelligence, market-data and signals suites share: the API in
 * process (support/paying-client.ts), with or without the independent Parquet reader (support/parquet.ts),
 * started before the tests of the enclosing file or describe and closed after them; and the answer-cache
 * check those routes make.
 */
import { afterAll, beforeAll, expect } from 'bun:test'
import { Parquet } from './parquet'
import { Client, type Query } from './paying-client'

/**
 * Starts the API before the tests of the enclosing scope and closes it after; `assign` hands it to the
 * scope's variable (a callback, so that the tests keep their own short name for it).
 */
export function startApi(assign: (api: Client) => void, env: Record<string, string> = {}): void {
  let started: Client | undefined
  beforeAll(async () => {
    started = await Client.start(env)
    assign(started)
  })
  afterAll(() => started?.close())
}

/** `startApi` with the independent reader of the shipped Parquet files beside it, both opened at once. */
export function startApiAndReader(assign: (api: Client, reader: Parquet) => void): void {
  let started: [Client, Parquet] | undefined
  beforeAll(async () => {
    started = await Promise.all([Client.start(), Parquet.open()])
    assign(...started)
  })
  afterAll(() => {
    started?.[0].close()
    started?.[1].close()
  })
}

/** A paid request asked twice: computed once (miss), then served from the materialised answer (hit) under a new request id. */
export async function expectCachedOnRepeat(api: Client, id: string, query: Query): Promise<void> {
  const first = await api.paid(id, query)
  const second = await api.paid(id, query)
  expect(first.body.meta.cache_status).toBe('miss')
  expect(second.body.meta.cache_status).toBe('hit')
  expect(second.body.data).toEqual(first.body.data)
  expect(second.body.meta.request_id).not.toBe(first.body.meta.request_id)
}
