/**
 * Start-up: the service answers while its indexes build in the background. The build is held by a hook
 * (`beforeIndexing`), so "still building" is a state the test controls, not a race it hopes to win:
 * /health answers, /ready says `building` (503), and paid routes wait for the indexes and then answer in
 * full; a build that fails refuses them with 503 before any payment is taken.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { MCP_HEADERS, toolCallBody } from '../../support/mcp-messages'
import { createPayer } from '../../support/payer'
import { BASE, testRuntime } from '../../support/runtime'

type Rt = Awaited<ReturnType<typeof testRuntime>>

const payer = createPayer()
const proof = (routeId: string) => payer.proof({ value: usdToAtomic(routeById.get(routeId)!.priceUsd) })

/** A runtime whose index build waits for `release()` (or fails at `fail()`). */
async function heldRuntime() {
  let release!: () => void
  let fail!: (e: Error) => void
  const held = new Promise<void>((resolve, reject) => {
    release = resolve
    fail = reject
  })
  const rt = await testRuntime({}, { beforeIndexing: () => held })
  return { rt, release, fail }
}

/** Settles to the response; `done` says whether it has (read after other requests were answered, never after a sleep). */
function track(response: Promise<Response>) {
  const t = { done: false, response }
  void response.then(
    () => (t.done = true),
    () => (t.done = true),
  )
  return t
}

/** A tool call over /mcp, as an MCP client sends it (stateless, JSON answer). */
const mcpCall = (rt: Rt, name: string, args: Record<string, unknown>, payment?: unknown) =>
  rt.app.handle(new Request(`${BASE}/mcp`, { method: 'POST', headers: MCP_HEADERS, body: toolCallBody(name, args, payment) }))

const SUMMARY = '/v1/market-data/flights/summary?destination=Tokyo'
const TRENDS = `/v1/china/trends?keyword=${encodeURIComponent('露营')}`

let reference: Rt
beforeAll(async () => {
  reference = await testRuntime() // built before it answers: what every answer must equal
})
afterAll(() => reference.close())

describe('while the indexes are building', () => {
  let rt: Rt
  let release: () => void
  beforeAll(async () => {
    ;({ rt, release } = await heldRuntime())
  })
  afterAll(async () => {
    release()
    await rt.close()
  })

  test('/health answers, /ready is 503 and reports every index building, then 200 with every index ok', async () => {
    expect(rt.store.pending()).not.toBeNull()
    const health = await rt.get('/health')
    expect(health.status).toBe(200)
    expect((await health.json()).data.status).toBe('ok')

    const building = await rt.get('/ready')
    expect(building.status).toBe(503)
    const body = await building.json()
    expect(body.error.code).toBe('dataset_unavailable')
    expect(body.error.details.indexes).toEqual({ market: 'building', signals: 'building', evidence: 'building' })
    // The datasets themselves are loaded: their versions are known already.
    expect(body.error.details.datasets.versions).toEqual((await (await reference.get('/ready')).json()).data.checks.datasets.versions)

    // Paid and unpaid requests, HTTP and MCP, arrive during the build.
    const paid = track(rt.get(SUMMARY, { 'x402-payment': await proof('flights.summary') }))
    const evidence = track(rt.get(TRENDS, { 'x402-payment': await proof('china.trends') }))
    const unpaid = track(rt.get(SUMMARY))
    const unknown = track(rt.get('/v1/market-data/flights/summary?destination=Atlantis'))
    const tool = track(
      mcpCall(rt, 'spend_summary', { country: 'Japan' }, JSON.parse(Buffer.from(await proof('spend.summary'), 'base64').toString())),
    )
    // Other requests are answered meanwhile; none of these is, since the build is held.
    expect((await rt.get('/health')).status).toBe(200)
    expect((await rt.get('/ready')).status).toBe(503)
    expect([paid, evidence, unpaid, unknown, tool].map((t) => t.done)).toEqual([false, false, false, false, false])

    release()
    await rt.store.loaded
    // Then the sample corpus is indexed by name (about a second): /ready waits for that too.
    await rt.corpusPrepared
    const ready = await rt.get('/ready')
    expect(ready.status).toBe(200)
    const { checks } = (await ready.json()).data
    expect(checks.indexes).toEqual({ market: 'ok', signals: 'ok', evidence: 'ok' })
    expect(checks.sample_creator_posts).toBe('ready')

    // Each waited and got the whole answer the built service gives: not a partial one, not an error.
    const [paidRes, evidenceRes] = [await paid.response, await evidence.response]
    expect([paidRes.status, evidenceRes.status]).toEqual([200, 200])
    expect((await paidRes.json()).data).toEqual(
      (await (await reference.get(SUMMARY, { 'x402-payment': await proof('flights.summary') })).json()).data,
    )
    expect((await evidenceRes.json()).data).toEqual(
      (await (await reference.get(TRENDS, { 'x402-payment': await proof('china.trends') })).json()).data,
    )
    expect((await unpaid.response).status).toBe(402)
    // Resolved against the index, as always: an unknown place is a free 404, never a 402.
    expect((await unknown.response).status).toBe(404)
    const call = await (await tool.response).json()
    expect(call.result.isError).toBeFalsy()
    expect(call.result.structuredContent.data.country).toBe('Japan')
  })

  test('once built, nothing waits: pending() is null', () => {
    expect(rt.store.pending()).toBeNull()
  })
})

describe('when the index build fails', () => {
  test('paid requests are refused with 503 and Retry-After before any payment is taken; the same proof buys the answer once the datasets load', async () => {
    const { rt, fail } = await heldRuntime()
    try {
      const payment = await proof('flights.summary')
      const waiting = rt.get(SUMMARY, { 'x402-payment': payment })
      fail(new Error('disk on fire'))
      const refused = await waiting
      expect(refused.status).toBe(503)
      expect(refused.headers.get('retry-after')).toBe('5')
      const body = await refused.json()
      expect(body.error.code).toBe('dataset_unavailable')
      expect(body.error.details.reason).toBe('disk on fire')

      const notReady = await rt.get('/ready')
      expect(notReady.status).toBe(503)
      const why = (await notReady.json()).error
      expect(why.message).toContain('could not be indexed')
      expect(why.details.indexes).toEqual({
        market: 'failed: disk on fire',
        signals: 'failed: disk on fire',
        evidence: 'failed: disk on fire',
      })
      const tool = await (await mcpCall(rt, 'flights_summary', { destination: 'Tokyo' })).json()
      expect(tool.result.isError).toBe(true)
      expect(tool.result.structuredContent.error.code).toBe('dataset_unavailable')

      // A reload (the operator fixed the folder: SIGHUP or the manifest poll) builds the snapshot. The
      // refused proof was never claimed, so it still buys its answer, and it is not a replay.
      await rt.store.reload()
      expect(rt.store.pending()).toBeNull()
      expect((await rt.get('/ready')).status).toBe(200)
      const served = await rt.get(SUMMARY, { 'x402-payment': payment })
      expect(served.status).toBe(200)
      expect((await served.json()).data).toEqual(
        (await (await reference.get(SUMMARY, { 'x402-payment': await proof('flights.summary') })).json()).data,
      )
    } finally {
      await rt.close()
    }
  })
})
