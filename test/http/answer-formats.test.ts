/**
 * Table answers in CSV and Arrow: every table route answers its table in the format asked (the
 * `format` parameter or Accept), for the same price; read back with apache-arrow and with DuckDB's
 * read_csv, the table equals the JSON answer value for value. What the envelope says around the
 * table travels in headers; errors and 402s stay JSON; the artifact and a retry give the same bytes.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC } from 'apache-arrow'
import { DuckDBInstance } from '@duckdb/node-api'
import { CATALOG, routeById, type RouteSpec } from '../../src/catalog'
import { columnsOf } from '../../src/catalog/table'
import { exampleCall } from '../../src/catalog/examples'
import { usdToAtomic } from '../../src/core/usdc'
import { Client, type Query } from '../../support/paying-client'

const TABLE_ROUTES = CATALOG.filter((r) => r.table)
/** The headers OpenAPI and llms.txt name for a CSV or Arrow answer. */
const HEADERS = [
  'x-answer-request-id',
  'x-generated-at',
  'x-artifact-path',
  'x-cache-status',
  'x-amount-usd',
  'x-dataset-version',
  'x-source-period',
  'x-sample-data',
  'x-data-notice',
  'x-answer-context',
]
const ARROW = 'application/vnd.apache.arrow.stream'

let api: Client
let duck: Awaited<ReturnType<typeof DuckDBInstance.create>>
const scratch = mkdtempSync(join(tmpdir(), 'formats-'))

beforeAll(async () => {
  api = await Client.start()
  duck = await DuckDBInstance.create(':memory:', { autoinstall_known_extensions: 'false', autoload_known_extensions: 'false' })
})
afterAll(() => {
  api.close()
  duck.closeSync()
})

/** The route's example call as a query (path parameters by name, see routeUrl). */
const example = (r: RouteSpec): Query => {
  const { params, input } = exampleCall(r)
  return { ...params, ...input } as Query
}

async function raw(path: string, headers: Record<string, string>) {
  const res = await api.rt.get(path, headers)
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) }
}

async function pay(id: string, query: Query, headers: Record<string, string> = {}, proof?: string) {
  return raw(api.path(id, query), { 'x402-payment': proof ?? (await api.proof(id)), ...headers })
}

/** The JSON answer's table as records (an array of plain values becomes one named column). */
function jsonTable(r: RouteSpec, data: Record<string, unknown>): Record<string, unknown>[] {
  const rows = data[r.table!.field] as unknown[]
  return r.table!.column ? rows.map((v) => ({ [r.table!.column!]: v })) : (rows as Record<string, unknown>[])
}

/** An Arrow value as JSON writes it: int64 as a number, a date32 month as YYYY-MM, a list as an array. */
function fromArrow(kind: string, v: unknown): unknown {
  if (v === null) return null
  if (kind === 'integer') return Number(v as bigint)
  if (kind === 'month') return new Date(v as number).toISOString().slice(0, 7)
  if (kind === 'text_list') return [...(v as Iterable<unknown>)]
  return v
}

describe('every table route answers Arrow and CSV equal to its JSON answer', () => {
  test.each(TABLE_ROUTES.map((r) => r.id))(
    '%s',
    async (id) => {
      const r = routeById.get(id)!
      const query = example(r)
      const json = await api.paid(id, query)
      expect(json.status).toBe(200)
      const expected = jsonTable(r, json.body.data)
      expect(expected.length).toBeGreaterThan(0)
      const quality = json.body.data.data_quality
      const columns = columnsOf(r)

      // Arrow: typed columns in the catalog's order, values equal to the JSON answer's.
      const arrow = await pay(id, { ...query, format: 'arrow' })
      expect(arrow.status).toBe(200)
      expect(arrow.headers.get('content-type')).toBe(ARROW)
      const table = tableFromIPC(arrow.bytes)
      expect(table.schema.fields.map((f) => f.name)).toEqual(columns.map((c) => c.name))
      const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]))
      for (const c of columns) {
        expect(types[c.name]).toBe(
          { integer: 'Int64', double: 'Float64', text: 'Utf8', month: 'Date32<DAY>', boolean: 'Bool', text_list: 'List<Utf8>' }[c.kind],
        )
      }
      const fromIpc = table.toArray().map((row) => Object.fromEntries(columns.map((c) => [c.name, fromArrow(c.kind, row[c.name])])))
      expect(fromIpc).toEqual(expected.map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.name] ?? null]))))
      expect(table.schema.metadata.get('dataset_version')).toBe(quality.dataset_version)
      expect(table.schema.metadata.get('request_id')).toBe(arrow.headers.get('x-answer-request-id')!)

      // CSV: what an analyst's DuckDB reads with plain read_csv (types detected) equals the JSON answer.
      const csv = await pay(id, query, { accept: 'text/csv' })
      expect(csv.status).toBe(200)
      expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8; header=present')
      const text = new TextDecoder().decode(csv.bytes)
      expect(text.split('\r\n')[0]).toBe(columns.map((c) => c.name).join(','))
      expect(text.endsWith('\r\n')).toBe(true)
      const file = join(scratch, `${id}.csv`)
      writeFileSync(file, csv.bytes)
      const conn = await duck.connect()
      const read = (await conn.runAndReadAll(`SELECT * FROM read_csv('${file}')`)).getRowObjectsJS()
      conn.closeSync()
      const fromCsv: Record<string, unknown>[] = read.map((row) =>
        Object.fromEntries(
          columns.map((c) => {
            const v = row[c.name]
            if (v === null || v === undefined) return [c.name, c.kind === 'text_list' ? [] : null]
            if (c.kind === 'text_list') return [c.name, String(v).split(';')]
            if (c.kind === 'month') return [c.name, String(v)]
            return [c.name, typeof v === 'bigint' ? Number(v) : v]
          }),
        ),
      )
      expect(fromCsv).toEqual(expected.map((row) => Object.fromEntries(columns.map((c) => [c.name, row[c.name] ?? null]))))

      // The envelope's provenance travels as headers, the same in both formats.
      for (const answer of [arrow, csv]) {
        for (const h of HEADERS) expect(answer.headers.get(h)).not.toBeNull() // every documented header is sent
        expect(answer.headers.get('x-dataset-version')).toBe(quality.dataset_version)
        expect(answer.headers.get('x-source-period')).toBe(`${quality.source_period.from}/${quality.source_period.to}`)
        expect(answer.headers.get('x-sample-data')).toBe('true')
        expect(answer.headers.get('x-data-notice')).toBe(quality.notice)
        expect(answer.headers.get('x-amount-usd')).toBe(r.priceUsd)
        expect(answer.headers.get('x-answer-request-id')).toBe(answer.headers.get('x-request-id'))
        expect(answer.headers.get('vary')).toBe('accept')
      }
    },
    30_000,
  )
})

describe('choosing the format', () => {
  const id = 'signals.brands.rankings'
  const query = { category: 'beauty' }

  test('Accept chooses; the format parameter wins over it; JSON on */*, a tie and types we do not serve', async () => {
    const kind = async (headers: Record<string, string>, q: Query = query) => (await pay(id, q, headers)).headers.get('content-type')
    expect(await kind({ accept: ARROW })).toBe(ARROW)
    expect(await kind({ accept: 'text/csv' })).toStartWith('text/csv')
    expect(await kind({ accept: 'text/csv;q=0.5, application/json' })).toStartWith('application/json')
    expect(await kind({ accept: `application/json;q=0.2, ${ARROW};q=0.9` })).toBe(ARROW)
    expect(await kind({ accept: '*/*' })).toStartWith('application/json')
    expect(await kind({ accept: 'application/xml' })).toStartWith('application/json')
    expect(await kind({ accept: 'text/csv' }, { ...query, format: 'json' })).toStartWith('application/json')
    expect(await kind({ accept: 'text/csv' }, { ...query, format: 'arrow' })).toBe(ARROW)
  }, 30_000)

  test('the context of the table travels as a header: the week and category a default picked', async () => {
    const csv = await pay(id, query, { accept: 'text/csv' })
    const context = JSON.parse(csv.headers.get('x-answer-context')!)
    expect(context).toMatchObject({ category: 'beauty', rank_type: 'brand_visibility', week_start: '2026-11-09', week_end: '2026-11-15' })
  })

  test('an unknown format is a free 400 naming the parameter; a non-table route has no format', async () => {
    const bad = await api.free(id, { ...query, format: 'xml' })
    expect(bad.status).toBe(400)
    expect(bad.body.error.code).toBe('invalid_parameter')
    expect(bad.body.error.details.parameter).toBe('format')
    const summary = await api.free('spend.summary', { country: 'Japan', format: 'csv' })
    expect(summary.status).toBe(400)
    expect(summary.body.error.details.parameter).toBe('format')
  })

  test('the 402 and client errors stay JSON, at the same price as a JSON answer', async () => {
    const unpaid = await raw(api.path(id, { ...query, format: 'csv' }), { accept: 'text/csv' })
    expect(unpaid.status).toBe(402)
    expect(unpaid.headers.get('content-type')).toStartWith('application/json')
    const body = JSON.parse(new TextDecoder().decode(unpaid.bytes))
    expect(body.accepts[0].maxAmountRequired).toBe(usdToAtomic(routeById.get(id)!.priceUsd).toString())
    const notFound = await pay('spend.series', { country: 'Atlantis', metric: 'total_cards', format: 'arrow' })
    expect(notFound.status).toBe(404)
    expect(notFound.headers.get('content-type')).toStartWith('application/json')
    expect(JSON.parse(new TextDecoder().decode(notFound.bytes)).error.code).toBe('not_found')
  })
})

describe('a cached answer is written once per format, and each request still gets its own metadata', () => {
  test('two paid Arrow answers of one cached table: the same rows, each with its own request id', async () => {
    const id = 'signals.creators.rankings'
    const query = { category: 'travel', limit: 100, format: 'arrow' }
    const [a, b] = [await pay(id, query), await pay(id, query)]
    expect(b.headers.get('x-cache-status')).toBe('hit')
    const [ta, tb] = [tableFromIPC(a.bytes), tableFromIPC(b.bytes)]
    expect(tb.numRows).toBe(ta.numRows)
    expect(tb.toArray().map((r) => r.toJSON())).toEqual(ta.toArray().map((r) => r.toJSON()))
    expect(ta.schema.metadata.get('request_id')).toBe(a.headers.get('x-answer-request-id')!)
    expect(tb.schema.metadata.get('request_id')).toBe(b.headers.get('x-answer-request-id')!)
    expect(tb.schema.metadata.get('request_id')).not.toBe(ta.schema.metadata.get('request_id'))
    const csv = [await pay(id, { ...query, format: 'csv' }), await pay(id, { ...query, format: 'csv' })]
    expect(csv[1]!.bytes).toEqual(csv[0]!.bytes)
    expect(new TextDecoder().decode(csv[0]!.bytes).split('\r\n').length).toBe(ta.numRows + 2) // header, rows, the final CRLF
  })
})

describe('the artifact and a retry give the same bytes in the same format', () => {
  test.each(['csv', 'arrow'])('%s', async (format) => {
    const id = 'flights.top_routes'
    const query = { destination: 'Tokyo', format }
    const proof = await api.proof(id)
    const first = await pay(id, query, {}, proof)
    expect(first.status).toBe(200)
    const again = await pay(id, query, {}, proof)
    expect(again.status).toBe(200)
    expect(again.headers.get('x-payment-replay')).toBe('stored-result')
    expect(again.bytes).toEqual(first.bytes)
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'))
    const artifact = await raw(first.headers.get('x-artifact-path')!, {})
    expect(artifact.status).toBe(200)
    expect(artifact.bytes).toEqual(first.bytes)
    for (const h of ['content-type', 'x-dataset-version', 'x-source-period', 'x-answer-request-id', 'x-data-notice']) {
      expect(artifact.headers.get(h)).toBe(first.headers.get(h))
    }
    // One proof buys one answer in one format: the same proof cannot buy the JSON answer as well.
    const json = await pay(id, { destination: 'Tokyo' }, {}, proof)
    expect(json.status).toBe(402)
    expect(JSON.parse(new TextDecoder().decode(json.bytes)).error.code).toBe('payment_replayed')
  })
})

describe('documentation', () => {
  test('OpenAPI lists the three media types and the format parameter on table routes only', async () => {
    const doc = await (await api.rt.get('/openapi/json')).json()
    for (const r of CATALOG) {
      const path = r.path.replace(/:(\w+)/g, '{$1}')
      const op = doc.paths[path].get
      const media = Object.keys(op.responses['200'].content)
      const format = (op.parameters ?? []).find((p: { name: string }) => p.name === 'format')
      if (r.table) {
        expect(media.sort()).toEqual(['application/json', ARROW, 'text/csv'].sort())
        expect(format?.in).toBe('query')
        expect(Object.keys(op.responses['200'].headers).sort()).toEqual(HEADERS.slice().sort())
      } else {
        expect(media).toEqual(['application/json'])
        expect(format).toBeUndefined()
        expect(op.responses['200'].headers).toBeUndefined()
      }
    }
  })

  test('llms.txt tells agents how to ask for CSV or Arrow', async () => {
    const text = await (await api.rt.get('/llms.txt')).text()
    expect(text).toContain('format=csv')
    expect(text).toContain(ARROW)
    for (const h of HEADERS) expect(text).toContain(`\`${h}\``)
  })
})
