/**
 * Property-based fuzzing of every catalog route in process (fast-check; fixed seed, so a failure is
 * reproducible): whatever the parameters, body and payment header, the answer is the JSON envelope
 * with the request id, and never a server error (5xx other than 501 for a planned route). A real
 * proof used by a fuzzed request may pay for it; that is allowed, it just must not fail.
 * Figures over HTTP with timing and memory: scripts/bench-hostile.ts.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import fc from 'fast-check'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { Client } from '../../support/paying-client'
import { hostileRequest } from './requests'

let api: Client
let proofs: string[]
beforeAll(async () => {
  api = await Client.start()
  // Real proofs for a few prices: fuzzed requests reuse and mutate them.
  proofs = await Promise.all(
    ['spend.summary', 'china.trends', 'capabilities.visibility', 'spend.months'].map((id) =>
      api.payer.proof({ value: usdToAtomic(routeById.get(id)!.priceUsd) }),
    ),
  )
})
afterAll(() => api?.close())

const RUNS = Number(process.env.FUZZ_RUNS ?? 2000)

test(`${RUNS} hostile requests over every catalog route: the error envelope with its request id, never a 5xx`, async () => {
  const statuses = new Map<number, number>()
  await fc.assert(
    fc.asyncProperty(hostileRequest(proofs), async (r) => {
      const headers = r.pay ? { ...r.headers, 'x402-payment': await api.proof(r.route) } : r.headers
      const res = await api.rt.app.handle(
        new Request(`http://localhost:3000${r.path}`, { method: r.method, headers, ...(r.body === undefined ? {} : { body: r.body }) }),
      )
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
      if (res.status >= 500 && res.status !== 501)
        throw new Error(`${r.method} ${r.path.slice(0, 200)} -> ${res.status} ${(await res.text()).slice(0, 300)}`)
      if (r.method === 'HEAD') return
      const text = await res.text()
      const body = JSON.parse(text) as { success: boolean; meta: { request_id: string } }
      // A retry with a proof already paid for this request gets the stored answer, which keeps the request id of the paid run.
      const expectedId = res.headers.get('x-payment-replay') ? body.meta.request_id : res.headers.get('x-request-id')
      if (typeof body.success !== 'boolean' || !/^req_/.test(body.meta.request_id) || body.meta.request_id !== expectedId) {
        throw new Error(
          `${r.method} ${r.path.slice(0, 200)} -> ${res.status}, x-request-id ${res.headers.get('x-request-id')}: ${text.slice(0, 300)}`,
        )
      }
    }),
    { numRuns: RUNS, seed: 20261122, endOnFailure: true },
  )
  console.log(`fuzz: ${RUNS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`)
  // The generator must reach the interesting answers, or the property proves little.
  for (const s of [200, 400, 402, 404]) expect([s, statuses.get(s) ?? 0]).not.toEqual([s, 0])
}, 300_000)
