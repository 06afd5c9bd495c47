import { afterAll, beforeAll, expect, test } from 'bun:test'
import { routeById } from '../../../src/catalog'
import { loadConfig } from '../../../src/config/config'
import { createLogger } from '../../../src/core/logger'
import { usdToAtomic } from '../../../src/core/usdc'
import { createRuntime, type Runtime } from '../../../src/composition/runtime'
import { createPayer } from '../../../support/payer'

const lines: string[] = []
let rt: Runtime
beforeAll(async () => {
  rt = await createRuntime(
    loadConfig({ LEDGER_PATH: ':memory:' }),
    createLogger('info', (l) => lines.push(l)),
  )
})
afterAll(() => rt.close())

const lastLog = async () => JSON.parse(lines.at(-1)!)

test('each request is one JSON log line with request id, route, status, latency and payer', async () => {
  const payer = createPayer()
  const proof = await payer.proof({ value: usdToAtomic(routeById.get('spend.months')!.priceUsd) })
  const res = await rt.app.handle(new Request('http://localhost/v1/market-data/spend/months', { headers: { 'x402-payment': proof } }))
  await res.text()
  const log = await lastLog()
  expect(log).toMatchObject({
    level: 'info',
    msg: 'request',
    method: 'GET',
    path: '/v1/market-data/spend/months',
    status: 200,
    payer: payer.address.toLowerCase(),
  })
  expect(log.request_id).toBe(res.headers.get('x-request-id')!)
  expect(typeof log.latency_ms).toBe('number')
  expect(Date.parse(log.time)).not.toBeNaN()
})

test('an error is logged with the status the client received', async () => {
  const res = await rt.app.handle(new Request('http://localhost/v1/market-data/spend/summary'))
  await res.text()
  const log = await lastLog()
  expect(log).toMatchObject({ status: 400, path: '/v1/market-data/spend/summary' })
  expect(log.payer).toBeUndefined()
})

test('LOG_LEVEL=warn drops request lines', () => {
  const out: string[] = []
  const log = createLogger('warn', (l) => out.push(l))
  log.info('request')
  log.warn('careful')
  expect(out.map((l) => JSON.parse(l).msg)).toEqual(['careful'])
})
