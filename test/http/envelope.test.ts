import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { testRuntime } from '../../support/runtime'
import { signatureRecovery } from '../../src/payments/chain/secp256k1'

let rt: Awaited<ReturnType<typeof testRuntime>>
beforeAll(async () => {
  rt = await testRuntime()
})
afterAll(() => rt.close())

async function error(res: Response, status: number, code: string) {
  expect(res.status).toBe(status)
  const body = await res.json()
  expect(body).toMatchObject({ success: false, error: { code } })
  expect(typeof body.error.message).toBe('string')
  expect(body.meta.request_id).toBe(res.headers.get('x-request-id')!)
  return body
}

describe('request ids', () => {
  test('every answer carries a request id in the header and, for errors, in meta', async () => {
    const res = await rt.get('/v1/market-data/flights/summary')
    const body = await error(res, 400, 'invalid_parameter')
    expect(body.meta.request_id).toMatch(/^req_[0-9a-f]{28}$/)
  })

  test('minted ids differ from request to request', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, async () => (await rt.get('/health')).headers.get('x-request-id')))
    expect(new Set(ids).size).toBe(20)
  })

  test('a safe incoming x-request-id is kept', async () => {
    const res = await rt.get('/health', { 'x-request-id': 'agent-42.run:7' })
    expect(res.headers.get('x-request-id')).toBe('agent-42.run:7')
    expect((await res.json()).meta.request_id).toBe('agent-42.run:7')
  })

  test('an unsafe incoming x-request-id is replaced', async () => {
    const res = await rt.get('/health', { 'x-request-id': 'bad id with spaces <script>' })
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
  })
})

describe('error envelope', () => {
  test('an unknown route is a 404 not_found envelope', async () => {
    await error(await rt.get('/v1/nothing-here'), 404, 'not_found')
  })

  test('a known path with the wrong method is a 405 naming the allowed methods', async () => {
    const res = await rt.app.handle(new Request('http://localhost/v1/market-data/spend/months', { method: 'DELETE' }))
    const body = await error(res, 405, 'method_not_allowed')
    expect(body.error.details.allowed).toEqual(['GET'])
    expect(res.headers.get('allow')).toBe('GET')
  })

  test('a missing required parameter is a 400 naming it', async () => {
    const body = await error(await rt.get('/v1/market-data/spend/summary'), 400, 'invalid_parameter')
    expect(body.error.details).toEqual({ parameter: 'country', reason: 'is required' })
  })

  test('an unknown parameter is a 400 listing the allowed ones', async () => {
    const body = await error(await rt.get('/v1/market-data/spend/summary?country=Japan&contry=x'), 400, 'invalid_parameter')
    expect(body.error.details).toEqual({ parameter: 'contry', reason: 'unknown parameter', allowed: ['country', 'month'] })
  })

  test('an enum parameter outside its values is a 400 listing the allowed values', async () => {
    const body = await error(await rt.get('/v1/market-data/spend/series?country=Japan&metric=profit'), 400, 'invalid_parameter')
    expect(body.error.details.parameter).toBe('metric')
    expect(body.error.details.allowed).toContain('total_cards')
  })

  for (const limit of ['0', '121', 'ten', '2.5']) {
    test(`limit=${limit} is a 400 naming limit and its bounds`, async () => {
      const body = await error(await rt.get(`/v1/market-data/flights/trend?destination=Tokyo&limit=${limit}`), 400, 'invalid_parameter')
      expect(body.error.details).toEqual({ parameter: 'limit', reason: 'must be an integer from 1 to 120' })
    })
  }

  test('a malformed month is a 400 that says the format', async () => {
    const body = await error(await rt.get('/v1/market-data/spend/summary?country=Japan&month=2026-13'), 400, 'invalid_parameter')
    expect(body.error.details.parameter).toBe('month')
    expect(body.error.details.reason).toContain('YYYY-MM')
  })
})

describe('free service routes', () => {
  test('/health answers without payment', async () => {
    const res = await rt.get('/health')
    expect(res.status).toBe(200)
    expect((await res.json()).data.status).toBe('ok')
  })

  test('/ready reports DuckDB, the loaded dataset versions and which signer recovery runs', async () => {
    const body = await (await rt.get('/ready')).json()
    expect(body.data.ready).toBe(true)
    expect(body.data.checks.duckdb).toBe('ok')
    expect(body.data.checks.signature_recovery).toEqual(signatureRecovery())
    const manifest = JSON.parse(await Bun.file(`${import.meta.dir}/../../datasets/manifest.json`).text())
    for (const name of ['flights', 'spend', 'signal_creators', 'signal_topics', 'signal_brands']) {
      expect(body.data.checks.datasets.versions[name]).toBe(manifest.datasets[name].version)
    }
  })
})
