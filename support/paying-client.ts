/**
 * The paying client of the tests: catalog routes called in-process over the test runtime, each paid with
 * a fresh single-use proof for exactly the route's price, and the checks every route family's tests make
 * of the envelope and of `data` against the catalog's schema.
 */
import type { TSchema } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'
import { expect } from 'bun:test'
import { routeById, type RouteSpec } from '../src/catalog'
import { usdToAtomic } from '../src/core/usdc'
import { createPayer } from './payer'
import { routeUrl } from './route-url'
import { BASE, testRuntime } from './runtime'

export type Query = Record<string, string | number>
type TestRuntime = Awaited<ReturnType<typeof testRuntime>>

export function route(id: string): RouteSpec {
  const routeSpec = routeById.get(id)
  if (!routeSpec) throw new Error(`no catalog route ${id}`)
  return routeSpec
}

/** The catalog's `limit`-style bounds of a query parameter (default and maximum). */
export function bounds(id: string, parameter: string): { default: number; maximum: number } {
  const schema = route(id).query.properties[parameter] as {
    anyOf?: { type?: string; default?: number; maximum?: number }[]
    default?: number
    maximum?: number
  }
  const numeric = schema.anyOf?.find((b) => b.type === 'integer') ?? schema
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
    const answer = await this.paid(id, query)
    if (answer.status !== 200) throw new Error(`${this.path(id, query)} answered ${answer.status}: ${JSON.stringify(answer.body)}`)
    return answer.body.data
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
export function expectClientError(answer: Answer, status: 400 | 404, parameter: string): void {
  expect(answer.status).toBe(status)
  expect(answer.body.success).toBe(false)
  expect(answer.body.error.code).toBe(status === 400 ? 'invalid_parameter' : 'not_found')
  expect(answer.body.error.details?.parameter).toBe(parameter)
  expect(typeof answer.body.meta.request_id).toBe('string')
  expect(answer.body.accepts).toBeUndefined() // no payment requirements: nothing is asked for
}

/** The success envelope of a paid answer at the route's catalog price. */
export function expectPaidEnvelope(answer: Answer, routeSpec: RouteSpec): void {
  expect(answer.status).toBe(200)
  expect(answer.body.success).toBe(true)
  expect(typeof answer.body.data).toBe('object')
  expect(answer.body.meta.request_id).toMatch(/^\S+$/)
  expect(new Date(answer.body.meta.generated_at).toISOString()).toBe(answer.body.meta.generated_at)
  expect(answer.body.meta.pipeline_version).toBe('v1')
  expect(answer.body.meta.artifact_path).toMatch(/^\/v1\/artifacts\/\S+$/)
  expect(answer.body.pricing).toEqual({ amount_usd: routeSpec.priceUsd, payment_status: 'paid' })
}

/**
 * Elysia's `t.Integer()` is a union with a numeric *string*, so `Value.Check` alone would accept
 * `"123"` for an integer field. This copy keeps only the numeric branch, so the check is strict.
 */
export function strictSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(strictSchema) as T
  if (!schema || typeof schema !== 'object') return schema
  const schemaObject = schema as Record<PropertyKey, unknown> & { anyOf?: { type?: string; format?: string }[] }
  if (schemaObject.anyOf?.length === 2) {
    const numeric = schemaObject.anyOf.find((b) => b.type === 'integer' || b.type === 'number')
    const numericString = schemaObject.anyOf.find((b) => b.type === 'string' && (b.format === 'integer' || b.format === 'numeric'))
    if (numeric && numericString) return strictSchema(numeric) as T
  }
  const out: Record<PropertyKey, unknown> = {}
  for (const k of Reflect.ownKeys(schemaObject)) out[k] = strictSchema(schemaObject[k])
  return out as T
}

/** `data` has every documented field with the documented type (strictly: integers are numbers). */
export function expectDocumentedData(routeSpec: RouteSpec, data: unknown): void {
  const strict = strictSchema(routeSpec.data as TSchema)
  expect([...Value.Errors(strict, data)].map((e) => `${e.path}: ${e.message}`)).toEqual([])
  expect(Value.Check(routeSpec.data, data)).toBe(true)
  expect(Value.Check(strict, data)).toBe(true)
}
