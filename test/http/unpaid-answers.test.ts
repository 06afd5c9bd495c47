/**
 * The remembered unpaid 402 (http/unpaid-answers.ts): a repeat of an unpaid request is answered ahead
 * of the framework with the very answer the full path gave, and nothing else is.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { CATALOG, type RouteSpec } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { implementedRouteIds } from '../../src/composition/handler-map'
import { ApiError } from '../../src/core/errors'
import { createLogger } from '../../src/core/logger'
import { RequestLog } from '../../src/http/requests/request-log'
import { UnpaidAnswers } from '../../src/http/unpaid-answers'
import type { Runtime } from '../../src/composition/runtime'
import { nativeServer, type NativeServer } from '../../support/native-server'
import { challengeFixed } from '../../support/sign-in-challenge'

describe('UnpaidAnswers', () => {
  const lines: string[] = []
  const log = new RequestLog(createLogger('info', (l) => lines.push(l)))
  const required = new ApiError('payment_required', 'Payment required.', undefined, { retryAfterSeconds: 7 })
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    new Request(`http://localhost${path}`, { method, headers })

  test('answers a remembered request only: same URL and Accept, by GET, without a proof', async () => {
    const unpaid = new UnpaidAnswers(log)
    unpaid.addRoute('/v1/x', false)
    const ahead = unpaid.ahead('/v1/x')!
    expect(ahead(get('/v1/x?a=1'))).toBeUndefined() // nothing remembered yet
    unpaid.remember(get('/v1/x?a=1'), required)

    const answer = ahead(get('/v1/x?a=1'))!
    expect(answer.status).toBe(402)
    expect(answer.headers.get('retry-after')).toBe('7')
    const body = (await answer.json()) as { error: { code: string }; meta: { request_id: string } }
    expect(body.error.code).toBe('payment_required')
    expect(answer.headers.get('x-request-id')).toBe(body.meta.request_id)
    expect(ahead(get('/v1/x?a=1', { 'x-request-id': 'mine-1' }))!.headers.get('x-request-id')).toBe('mine-1')

    expect(ahead(get('/v1/x?a=2'))).toBeUndefined()
    expect(ahead(get('/v1/x?a=1', { accept: 'text/csv' }))).toBeUndefined()
    expect(ahead(get('/v1/x?a=1', {}, 'HEAD'))).toBeUndefined()
    for (const name of ['x402-payment', 'x-payment', 'payment-signature'])
      expect(ahead(get('/v1/x?a=1', { [name]: 'proof' }))).toBeUndefined()
    expect(unpaid.ahead('/v1/other')).toBeUndefined()
  })

  test('each answer is logged once, with its status and route', () => {
    const unpaid = new UnpaidAnswers(log)
    unpaid.addRoute('/v1/items/:id', true)
    unpaid.remember(get('/v1/items/7?q=1'), required)
    lines.length = 0
    unpaid.ahead('/v1/items/:id')!(get('/v1/items/7?q=1', { 'x-request-id': 'mine-2' }))
    expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([
      { msg: 'request', request_id: 'mine-2', method: 'GET', path: '/v1/items/7', status: 402 },
    ])
  })

  test('a request with a proof, by HEAD, or longer than 1,024 characters is not remembered', () => {
    const unpaid = new UnpaidAnswers(log)
    unpaid.remember(get('/v1/x', { 'x402-payment': 'proof' }), required)
    unpaid.remember(get('/v1/x', {}, 'HEAD'), required)
    unpaid.remember(get(`/v1/x?q=${'a'.repeat(1024)}`), required)
    expect(unpaid.size).toBe(0)
  })

  test('a new data generation forgets every remembered answer', () => {
    let generation = 1
    const unpaid = new UnpaidAnswers(log, () => generation)
    unpaid.addRoute('/v1/x', false)
    unpaid.remember(get('/v1/x?a=1'), required)
    expect(unpaid.ahead('/v1/x')!(get('/v1/x?a=1'))).toBeDefined()
    generation = 2
    expect(unpaid.ahead('/v1/x')!(get('/v1/x?a=1'))).toBeUndefined()
    expect(unpaid.size).toBe(0)
  })

  test('bounded: past 4,096 requests it starts over instead of growing', () => {
    const unpaid = new UnpaidAnswers(log)
    for (let i = 0; i < 10_000; i++) unpaid.remember(get(`/v1/x?n=${i}`), required)
    expect(unpaid.size).toBeLessThanOrEqual(4096)
    expect(unpaid.size).toBe(10_000 % 4096)
  })
})

describe('over a socket, in front of the framework', () => {
  let service: NativeServer
  let runtime: Runtime
  const lines: string[] = []
  beforeAll(async () => {
    service = await nativeServer({}, lines)
    runtime = service.runtime
  })
  afterAll(() => service?.stop())

  const url = (path: string) => service.url(path)
  const exampleUrl = (route: RouteSpec) => {
    const call = exampleCall(route)
    const query = new URLSearchParams(Object.entries(call.input).map(([k, v]) => [k, String(v)])).toString()
    return call.path + (query ? `?${query}` : '')
  }
  /** Everything of an answer but its request id (and the date), to compare two answers. */
  const shape = async (r: Response) => {
    const id = r.headers.get('x-request-id')!
    const headers: Record<string, string> = {}
    // The sign-in challenge's fresh fields (each 402 its own) fixed.
    r.headers.forEach(
      (value, name) =>
        void (name !== 'date' && name !== 'x-request-id' && (headers[name] = name === 'payment-required' ? challengeFixed(value)! : value)),
    )
    return { status: r.status, headers, body: (await r.text()).replaceAll(id, '<id>') }
  }

  const served = implementedRouteIds()
  const implemented = CATALOG.filter((r) => served.has(r.id) && r.methods.includes('GET'))
  test.each(implemented.map((r) => [r.id, r] as const))(
    '%s: the repeat is the first answer, remembered, with its own request id and log line',
    async (_, route) => {
      const path = exampleUrl(route)
      const before = runtime.app.unpaid.size
      const first = await fetch(url(path))
      expect(first.status).toBe(402)
      expect(runtime.app.unpaid.size).toBe(before + 1)
      lines.length = 0
      const again = await fetch(url(path))
      const [a, b] = [first.headers.get('x-request-id'), again.headers.get('x-request-id')]
      expect(a).not.toBe(b)
      expect(await shape(again)).toEqual(await shape(first))
      expect(lines.map((l) => JSON.parse(l) as Record<string, unknown>)).toMatchObject([
        { msg: 'request', request_id: b!, status: 402, client_ip: '127.0.0.1' },
      ])
    },
  )

  test('what the full path must still see: a browser, a proof, HEAD, a bad parameter', async () => {
    const path = exampleUrl(CATALOG.find((r) => r.id === 'flights.summary')!)
    expect((await fetch(url(path))).status).toBe(402)
    expect((await fetch(url(path))).status).toBe(402) // remembered from here on

    const page = await fetch(url(path), { headers: { accept: 'text/html' } })
    expect(page.status).toBe(402)
    expect(page.headers.get('content-type')).toContain('text/html')

    const forged = await fetch(url(path), { headers: { 'x402-payment': 'bm90IGEgcHJvb2Y=' } })
    expect(forged.status).toBe(402)
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe('payment_invalid')

    const head = await fetch(url(path), { method: 'HEAD' })
    expect(head.status).toBe(402)
    expect(head.headers.get('payment-required')).toBeTruthy()

    const size = runtime.app.unpaid.size
    const bad = await fetch(url(`${path}&limit=-1`))
    expect(bad.status).toBe(400)
    expect(runtime.app.unpaid.size).toBe(size)
  })

  test('the metrics count remembered answers like the others', async () => {
    const path = exampleUrl(CATALOG.find((r) => r.id === 'spend.summary') ?? CATALOG[0]!)
    const count = async () => {
      const text = await (await fetch(url('/metrics'))).text()
      const line = text
        .split('\n')
        .find((l) => l.startsWith('http_requests_total{') && l.includes('status="402"') && l.includes(`route="${path.split('?')[0]}"`))
      return line ? Number(line.split(' ').pop()) : 0
    }
    const before = await count()
    for (let i = 0; i < 3; i++) expect((await fetch(url(path))).status).toBe(402)
    expect(await count()).toBe(before + 3)
  })
})
