/**
 * A buyer never pays to learn what is already known: a keyword the evidence has already been searched for
 * in vain gets the free 404 before the 402 (as long as that search's answer would have been reused), over
 * the real server, its unpaid fast path included; and "did you mean" offers only names that are close.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { usdToAtomic } from '../../../src/core/usdc'
import { routeById } from '../../../src/catalog'
import { createPayer } from '../../../support/payer'
import { routeUrl } from '../../../support/route-url'
import { startServer, type StartedServer } from '../../../support/server'

let server: StartedServer
const payer = createPayer()
const price = usdToAtomic(routeById.get('china.trends')!.priceUsd)

beforeAll(async () => {
  server = await startServer()
}, 60_000)
afterAll(async () => {
  await server?.stop()
})

const trends = async (keyword: string, proof?: string) => {
  const r = await fetch(server.url + routeUrl('china.trends', { keyword, timeframe: '30d' }), {
    headers: proof ? { 'x402-payment': proof } : {},
  })
  return { status: r.status, body: (await r.json()) as any }
}

describe('no evidence, already known', () => {
  test('the first buyer learns it with a proof, free; every later ask gets the 404 before any 402, the fast path included', async () => {
    const keyword = 'Nike'
    // Unknown yet: asked twice, so the unpaid fast path remembers the 402.
    expect((await trends(keyword)).status).toBe(402)
    expect((await trends(keyword)).status).toBe(402)
    const proof = await payer.proof({ value: price })
    const paid = await trends(keyword, proof)
    expect([paid.status, paid.body.error.code]).toEqual([404, 'not_found'])
    const unpaid = await trends(keyword)
    expect([unpaid.status, unpaid.body.error.code, unpaid.body.accepts]).toEqual([404, 'not_found', undefined])
    expect(unpaid.body.error.message).toBe(paid.body.error.message)
    expect(unpaid.body.meta.request_id).not.toBe(paid.body.meta.request_id)
    // The proof was never spent: it still buys an answer the evidence has.
    expect((await trends('露营', proof)).status).toBe(200)
  })

  test('a keyword with evidence is still sold (402), however often a miss was learned for another', async () => {
    expect((await trends('Tesla', await payer.proof({ value: price }))).status).toBe(404)
    expect((await trends('露营')).status).toBe(402)
  })
})

describe('did you mean', () => {
  test('offers only close names: a homophone slip of a two-character brand, never another two-character place', async () => {
    const rong = await trends('绒娥', await payer.proof({ value: price }))
    expect(rong.status).toBe(404)
    expect(rong.body.error.details.did_you_mean.map((c: { id: string }) => c.id)).toEqual(['brand:velvet-moth'])
    for (const keyword of ['大理', '北京']) {
      const far = await trends(keyword, await payer.proof({ value: price }))
      expect([keyword, far.status]).toEqual([keyword, 404])
      expect(far.body.error.details.did_you_mean).toBeUndefined()
      expect(far.body.error.message).not.toMatch(/did you mean/)
    }
  })
})
