/**
 * Shared helpers of the market-data route tests: a paying client over the in-process runtime, envelope
 * and schema checks, and an independent DuckDB that reads the shipped Parquet files directly, so the
 * expected figures never come from the code under test.
 */
import { resolve } from 'node:path'
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api'
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { beforeAll, expect, test } from 'bun:test'
import { routeById, type RouteSpec } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { DATASETS } from '../../src/data/contracts'
import { createPayer } from '../../support/payer'
import { routeUrl } from '../../support/route-url'
import { BASE, testRuntime } from '../helpers/runtime'

export const DATASETS_DIR = resolve(import.meta.dir, '../../datasets')
export const LATEST_MONTH = '2026-10'

export type Query = Record<string, string | number>
type TestRuntime = Awaited<ReturnType<typeof testRuntime>>

export function route(id: string): RouteSpec {
  const r = routeById.get(id)
  if (!r) throw new Error(`no catalog route ${id}`)
  return r
}

/** The catalog's `limit`-style bounds of a query parameter (default and maximum). */
export function bounds(id: string, parameter: string): { default: number; maximum: number } {
  const p = route(id).query.properties[parameter] as {
    anyOf?: { type?: string; default?: number; maximum?: number }[]
    default?: number
    maximum?: number
  }
  const numeric = p.anyOf?.find((b) => b.type === 'integer') ?? p
  if (numeric.default === undefined || numeric.maximum === undefined) throw new Error(`${id}.${parameter} has no default/maximum`)
  return { default: numeric.default, maximum: numeric.maximum }
}

export interface Answer {
  status: number
  headers: Headers
  body: any
}

/** Calls catalog routes in-process; `paid` signs a fresh single-use proof for exactly the route's price. */
export class Client {
  readonly payer = createPayer()
  private constructor(readonly rt: TestRuntime) {}

  static async start(env: Record<string, string> = {}): Promise<Client> {
    return new Client(await testRuntime(env))
  }

  close(): void {
    this.rt.close()
  }

  path(id: string, query: Query = {}): string {
    return routeUrl(id, query)
  }

  proof(id: string): Promise<string> {
    return this.payer.proof({ value: usdToAtomic(route(id).priceUsd) })
  }

  async paid(id: string, query: Query = {}, proof?: string): Promise<Answer> {
    return this.send(id, query, { 'x402-payment': proof ?? (await this.proof(id)) })
  }

  /** No payment header at all: 400/404 must come back without asking for money. */
  async free(id: string, query: Query = {}): Promise<Answer> {
    return this.send(id, query, {})
  }

  /** A paid call that must succeed; returns `data`. */
  async data(id: string, query: Query = {}): Promise<any> {
    const a = await this.paid(id, query)
    if (a.status !== 200) throw new Error(`${this.path(id, query)} answered ${a.status}: ${JSON.stringify(a.body)}`)
    return a.body.data
  }

  /** The same route with its input as a JSON body (the wrappers accept POST). */
  async post(id: string, body: unknown, proof?: string | null): Promise<Answer> {
    const res = await this.rt.app.handle(
      new Request(`${BASE}${route(id).path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(proof !== null ? { 'x402-payment': proof ?? (await this.proof(id)) } : {}) },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    )
    return { status: res.status, headers: res.headers, body: await res.json() }
  }

  async send(id: string, query: Query, headers: Record<string, string>): Promise<Answer> {
    const res = await this.rt.get(this.path(id, query), headers)
    return { status: res.status, headers: res.headers, body: await res.json() }
  }

  /** The ledger row of a proof, once committed: how the gate recorded its payment (null when never claimed). */
  async ledgerState(proof: string): Promise<string | null> {
    await this.rt.ledger.durable()
    const nonce = JSON.parse(Buffer.from(proof, 'base64').toString()).payload.authorization.nonce
    const row = (this.rt.ledger as unknown as { db: import('bun:sqlite').Database }).db
      .query('SELECT state FROM payments WHERE nonce = ?')
      .get(nonce) as { state: string } | null
    return row?.state ?? null
  }

  /** The provider spend recorded for a request (live providers' requests, charged or not). */
  async spendOf(requestId: string): Promise<{ role: string; requests: number }[]> {
    await this.rt.ledger.durable()
    return (this.rt.ledger as unknown as { db: import('bun:sqlite').Database }).db
      .query('SELECT role, requests FROM provider_spend WHERE request_id = ? ORDER BY seq')
      .all(requestId) as { role: string; requests: number }[]
  }
}

/** The error envelope of a free client error, naming the offending parameter. */
export function expectClientError(a: Answer, status: 400 | 404, parameter: string): void {
  expect(a.status).toBe(status)
  expect(a.body.success).toBe(false)
  expect(a.body.error.code).toBe(status === 400 ? 'invalid_parameter' : 'not_found')
  expect(a.body.error.details?.parameter).toBe(parameter)
  expect(typeof a.body.meta.request_id).toBe('string')
  expect(a.body.accepts).toBeUndefined() // no payment requirements: nothing is asked for
}

/** The success envelope of a paid answer at the route's catalog price. */
export function expectPaidEnvelope(a: Answer, r: RouteSpec): void {
  expect(a.status).toBe(200)
  expect(a.body.success).toBe(true)
  expect(typeof a.body.data).toBe('object')
  expect(a.body.meta.request_id).toMatch(/^\S+$/)
  expect(new Date(a.body.meta.generated_at).toISOString()).toBe(a.body.meta.generated_at)
  expect(a.body.meta.pipeline_version).toBe('v1')
  expect(a.body.meta.artifact_path).toMatch(/^\/v1\/artifacts\/\S+$/)
  expect(a.body.pricing).toEqual({ amount_usd: r.priceUsd, payment_status: 'paid' })
}

/**
 * Elysia's `t.Integer()` is a union with a numeric *string*, so `Value.Check` alone would accept
 * `"123"` for an integer field. This copy keeps only the numeric branch, so the check is strict.
 */
export function strictSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(strictSchema) as T
  if (!schema || typeof schema !== 'object') return schema
  const s = schema as Record<PropertyKey, unknown> & { anyOf?: { type?: string; format?: string }[] }
  if (s.anyOf?.length === 2) {
    const numeric = s.anyOf.find((b) => b.type === 'integer' || b.type === 'number')
    const numericString = s.anyOf.find((b) => b.type === 'string' && (b.format === 'integer' || b.format === 'numeric'))
    if (numeric && numericString) return strictSchema(numeric) as T
  }
  const out: Record<PropertyKey, unknown> = {}
  for (const k of Reflect.ownKeys(s)) out[k] = strictSchema(s[k])
  return out as T
}

/** `data` has every documented field with the documented type (strictly: integers are numbers). */
export function expectDocumentedData(r: RouteSpec, data: unknown): void {
  const strict = strictSchema(r.data as TSchema)
  expect([...Value.Errors(strict, data)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
  expect(Value.Check(r.data, data)).toBe(true)
  expect(Value.Check(strict, data)).toBe(true)
}

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

/** A separate DuckDB over the shipped Parquet files: the independent source of expected values. */
export class Parquet {
  private constructor(
    private readonly instance: DuckDBInstance,
    private readonly conn: DuckDBConnection,
  ) {}

  static async open(): Promise<Parquet> {
    const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
    const conn = await instance.connect()
    for (const { name, file } of DATASETS) {
      await conn.run(`CREATE VIEW ${name} AS SELECT * FROM read_parquet('${resolve(DATASETS_DIR, file)}')`)
    }
    return new Parquet(instance, conn)
  }

  /** Rows as plain objects; BIGINT results are turned into numbers (cast sums in SQL to stay exact). */
  async rows<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params)
    return reader
      .getRowObjectsJS()
      .map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))) as T[]
  }

  async one<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T> {
    const rows = await this.rows<T>(sql, params)
    if (rows.length !== 1) throw new Error(`expected one row, got ${rows.length}: ${sql}`)
    return rows[0]!
  }

  close(): void {
    this.conn.closeSync()
    this.instance.closeSync()
  }
}

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
