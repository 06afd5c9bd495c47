/**
 * Helpers of the China intelligence tests: an in-process service (sample corpus, or live providers on
 * loopback), a paying client, and real HTTP provider servers started on 127.0.0.1, port 0.
 */
import { resolve } from 'node:path'
import { DuckDBInstance, type DuckDBConnection, type DuckDBValue } from '@duckdb/node-api'
import { routeById, type RouteSpec } from '../../src/catalog'
import { usdToAtomic } from '../../src/payments/networks'
import { createPayer } from '../helpers/payer'
import { routeUrl } from '../helpers/route-url'
import { BASE, testRuntime } from '../helpers/runtime'

export { expectClientError, expectDocumentedData, expectPaidEnvelope, strictSchema } from '../market-data/support'

export type Query = Record<string, string | number>
type TestRuntime = Awaited<ReturnType<typeof testRuntime>>

export function route(id: string): RouteSpec {
  const r = routeById.get(id)
  if (!r) throw new Error(`no catalog route ${id}`)
  return r
}

export interface Answer {
  status: number
  headers: Headers
  body: any
}

/** Calls catalog routes in-process; `paid` signs a fresh single-use proof for exactly the route's price. */
export class Api {
  readonly payer = createPayer()
  private constructor(readonly rt: TestRuntime) {}

  static async start(env: Record<string, string> = {}): Promise<Api> {
    return new Api(await testRuntime(env))
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
    const row = (this.rt.ledger as unknown as { db: import('bun:sqlite').Database }).db.query('SELECT state FROM payments WHERE nonce = ?').get(nonce) as { state: string } | null
    return row?.state ?? null
  }
}

/** A real HTTP server on loopback; the handler decides each answer. */
export interface Loopback {
  url: string
  /** Every request it received, in order. */
  requests: { url: URL; headers: Headers; body: string }[]
  stop(): void
}

export function loopback(handler: (req: Request, url: URL, body: string) => Response | Promise<Response>): Loopback {
  const requests: Loopback['requests'] = []
  const server = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    async fetch(req) {
      const url = new URL(req.url)
      const body = await req.text()
      requests.push({ url, headers: req.headers, body })
      return handler(req, url, body)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) }
}

/** A promise the test resolves: lets a server be slow exactly as long as the test wants. */
export function gate() {
  let open!: () => void
  const opened = new Promise<void>((r) => (open = r))
  return { opened, open }
}

const DAY_MS = 86_400_000

export interface SeriesOptions {
  /** Text of every item (must contain the keyword). */
  text: (i: number) => string
  /** Items published `daysAgo` days before now (0 = the last 24 hours). */
  perDay: (daysAgo: number) => number
  days: number
  authors?: number
  followers?: (author: number) => number
  likes?: (i: number) => number
  idPrefix?: string
  now?: number
}

/** Search results in the documented protocol, spread over the last `days` days. */
export function series(o: SeriesOptions): Record<string, unknown>[] {
  const now = o.now ?? Date.now()
  const out: Record<string, unknown>[] = []
  let i = 0
  for (let d = 0; d < o.days; d++) {
    for (let k = 0; k < o.perDay(d); k++, i++) {
      const author = i % (o.authors ?? 10)
      out.push({
        id: `${o.idPrefix ?? 'item'}-${i}`,
        url: `https://example.org/${o.idPrefix ?? 'item'}/${i}`,
        title: '',
        text: o.text(i),
        published_at: new Date(now - d * DAY_MS - (k + 1) * 60_000).toISOString(),
        author: `creator_${author}`,
        author_followers: o.followers?.(author) ?? 20_000 + author * 1000,
        likes: o.likes?.(i) ?? 100 + (i % 7) * 10,
        comments: 8,
        shares: 4,
        views: 3000,
      })
    }
  }
  return out
}

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

/** A separate DuckDB over the shipped evidence corpus: the independent source of expected values. */
export class Corpus {
  private constructor(private readonly instance: DuckDBInstance, private readonly conn: DuckDBConnection) {}

  static async open(): Promise<Corpus> {
    const instance = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
    const conn = await instance.connect()
    await conn.run(`CREATE VIEW evidence AS SELECT * FROM read_parquet('${resolve(import.meta.dir, '../../datasets/evidence.parquet')}')`)
    return new Corpus(instance, conn)
  }

  async rows<T = Record<string, unknown>>(sql: string, params: DuckDBValue[] = []): Promise<T[]> {
    const reader = await this.conn.runAndReadAll(sql, params)
    return reader.getRowObjectsJS().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]))) as T[]
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
