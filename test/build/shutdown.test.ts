import { afterAll, expect, test } from 'bun:test'
import { dirname } from 'node:path'
import { createPayer } from '../helpers/payer'
import { cleanEnv, cleanupBinaryTests, installedBinary, scratchDir, serveBinary } from './binary-process'

afterAll(() => cleanupBinaryTests())

// Under Bun's fetch limit of 256 connections per host, so every request is on the wire at once.
const REQUESTS = 200
const ROUTE = '/v1/market-data/flights/summary?destination=Tokyo'

test('SIGTERM with requests in flight: every one gets its complete answer, then the process exits 0', async () => {
  const payer = createPayer()
  const proofs = await Promise.all(Array.from({ length: REQUESTS / 2 }, () => payer.proof({ value: 100_000n })))
  const bin = await installedBinary()
  const server = await serveBinary(bin, dirname(bin), cleanEnv(scratchDir('home')))

  // Half paid (signature recovery, ledger, DuckDB-backed answer), half unpaid (402).
  let answered = 0
  let firstAnswer!: () => void
  const first = new Promise<void>((resolve) => (firstAnswer = resolve))
  const requests = Array.from({ length: REQUESTS }, async (_, i) => {
    const paid = i % 2 === 0
    try {
      const res = await fetch(`${server.url}${ROUTE}`, { headers: paid ? { 'x402-payment': proofs[i / 2]! } : {} })
      const body = await res.json() // throws on a body cut short
      answered++
      firstAnswer()
      return { paid, status: res.status, success: body.success, paymentStatus: body.pricing?.payment_status }
    } catch (e) {
      firstAnswer()
      return { paid, error: String(e) }
    }
  })

  await first
  server.proc.kill('SIGTERM')
  const answeredBeforeSignal = answered
  const results = await Promise.all(requests)

  expect(answeredBeforeSignal).toBeLessThan(REQUESTS) // the signal really came while requests were in flight
  expect(results.filter((r) => 'error' in r)).toEqual([])
  expect(results.filter((r) => r.paid).every((r) => r.status === 200 && r.success && r.paymentStatus === 'paid')).toBe(true)
  expect(results.filter((r) => !r.paid).every((r) => r.status === 402)).toBe(true)
  expect(await server.proc.exited).toBe(0)
  expect(server.output()).toContain('"msg":"shutting down","signal":"SIGTERM"')
  // Stopped accepting: a new connection is refused.
  await expect(fetch(`${server.url}/health`)).rejects.toThrow()
}, 300_000)
