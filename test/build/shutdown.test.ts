import { Database } from 'bun:sqlite'
import { afterAll, describe, expect, test } from 'bun:test'
import { dirname, join } from 'node:path'
import { createPayer } from '../../support/payer'
import { waitFor } from '../../support/until'
import { openSocket, rawGet, type RawResponse } from '../../support/raw-http'
import { cleanEnv, cleanupBinaryTests, installedBinary, scratchDir, serveBinary, type RunningBinary } from './binary-process'

afterAll(() => cleanupBinaryTests())

// Requests in flight at the signal, each on its own connection.
const REQUESTS = 200
const ROUTE = '/v1/market-data/flights/summary?destination=Tokyo'

test('SIGTERM with requests in flight: every one gets its complete answer, then the process exits 0', async () => {
  const payer = createPayer()
  const proofs = await Promise.all(Array.from({ length: REQUESTS / 2 }, () => payer.proof({ value: 100_000n })))
  const bin = await installedBinary()
  const server = await serveBinary(bin, dirname(bin), cleanEnv(scratchDir('home')))

  // Half paid (signature recovery, ledger, DuckDB-backed answer), half unpaid (402). Every connection
  // is open before any request is written, so none can still be connecting when the listener closes
  // (with fetch, a connection opened late on a loaded machine was refused: that is not an unanswered request).
  let answered = 0
  let firstAnswer!: () => void
  const first = new Promise<void>((resolve) => (firstAnswer = resolve))
  const port = Number(new URL(server.url).port)
  const sockets = await Promise.all(Array.from({ length: REQUESTS }, () => openSocket(port)))
  const requests = sockets.map(async (socket, i) => {
    const paid = i % 2 === 0
    try {
      const res = await socket.send(
        `GET ${ROUTE} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${paid ? `x402-payment: ${proofs[i / 2]!}\r\n` : ''}\r\n`,
      )
      const body = JSON.parse(res.body) // throws on a body cut short
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

// ---------------------------------------------------------------------------------------------------
// SHUTDOWN_TIMEOUT_SECONDS: requests that never end do not hold the exit, and no paid request is left
// unanswered in the ledger.

const DEADLINE_SECONDS = 2
/** How long after the deadline the process may take to exit: the 503s' flush (2 s) and a loaded machine. */
const EXIT_MARGIN_MS = 15_000

/** Polls until the process has exited, at most `ms`; its exit code, or null if it is still running. */
async function exitWithin(server: RunningBinary, ms: number): Promise<number | null> {
  const deadline = Date.now() + ms
  while (server.proc.exitCode === null && Date.now() < deadline) await Bun.sleep(50)
  return server.proc.exitCode
}

/** A search provider that takes every call and never answers (a live provider that hangs). */
function hangingProvider() {
  let calls = 0
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => (calls++, new Promise<Response>(() => {})) })
  return { url: `http://127.0.0.1:${server.port}`, calls: () => calls, stop: () => server.stop(true) }
}

const TRENDS = `/v1/china/trends?keyword=${encodeURIComponent('露营')}`

function expectShuttingDown(res: RawResponse) {
  expect(res.status).toBe(503)
  const body = JSON.parse(res.body)
  expect(body.success).toBe(false)
  expect(body.error.code).toBe('shutting_down')
  expect(body.meta.request_id).toBe(res.headers['x-request-id']!)
  return body
}

describe('the shutdown deadline (SHUTDOWN_TIMEOUT_SECONDS)', () => {
  test('an upload that never ends is answered 503 shutting_down at the deadline, not before, and the process exits 0', async () => {
    const bin = await installedBinary()
    const server = await serveBinary(
      bin,
      dirname(bin),
      cleanEnv(scratchDir('home'), { SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS) }),
    )
    const port = Number(new URL(server.url).port)
    // A wrapper's JSON body announced at 200 bytes, 12 sent: the body read waits for the rest forever.
    const stalled = await openSocket(port)
    stalled.write(
      'POST /v1/kol/shortlist HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{"category":',
    )
    // A request head that never ends (it never reaches the app) and an idle keep-alive connection: neither may hold the exit.
    const head = await openSocket(port)
    head.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ')
    const idle = await openSocket(port)
    idle.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
    await waitFor('the keep-alive request to be answered', () => server.output().includes('"path":"/health"'))

    const signalled = Date.now()
    server.proc.kill('SIGTERM')
    const answer = await stalled.response
    const answeredAfter = Date.now() - signalled
    expectShuttingDown(answer)
    expect(answeredAfter).toBeGreaterThanOrEqual(DEADLINE_SECONDS * 1000 - 100) // the request had its time
    expect(await exitWithin(server, DEADLINE_SECONDS * 1000 + EXIT_MARGIN_MS)).toBe(0)
    expect(server.output()).toContain('"msg":"shutdown deadline reached"')
    await expect(head.response).rejects.toThrow('connection closed without a response')
    idle.close()
  }, 120_000)

  test('a paid request whose provider hangs: its claim is released and it is answered 503 not_charged; after a restart the same proof buys the request, once', async () => {
    const bin = await installedBinary()
    const provider = hangingProvider()
    const ledger = join(scratchDir('ledger'), 'ledger.sqlite')
    const payer = createPayer()
    try {
      const live = await serveBinary(
        bin,
        dirname(bin),
        cleanEnv(scratchDir('home'), {
          LEDGER_PATH: ledger,
          SHUTDOWN_TIMEOUT_SECONDS: String(DEADLINE_SECONDS),
          WEB_SEARCH_URL: `${provider.url}/web`,
          WEB_SEARCH_TIMEOUT_MS: '25000',
          INTELLIGENCE_CACHE_TTL_SECONDS: '0',
          KOL_CACHE_TTL_SECONDS: '0',
        }),
      )
      const port = Number(new URL(live.url).port)
      const unpaid = await rawGet(port, TRENDS)
      expect(unpaid.status).toBe(402)
      const proof = await payer.proof({ value: BigInt(JSON.parse(unpaid.body).accepts[0].maxAmountRequired) })
      const paid = (await openSocket(port)).send(
        `GET ${TRENDS} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nx402-payment: ${proof}\r\n\r\n`,
      )
      await waitFor('the paid handler to call the provider', () => provider.calls() > 0) // claimed, verified, running

      live.proc.kill('SIGTERM')
      const body = expectShuttingDown(await paid)
      expect(body.error.details).toEqual({ payment: 'not_charged' })
      expect(await exitWithin(live, DEADLINE_SECONDS * 1000 + EXIT_MARGIN_MS)).toBe(0)
      expect(read(ledger, 'SELECT state FROM payments')).toEqual([{ state: 'failed' }])

      // The next start (the sample corpus this time): the buyer retries with the same proof.
      const next = await serveBinary(bin, dirname(bin), cleanEnv(scratchDir('home'), { LEDGER_PATH: ledger }))
      try {
        const nextPort = Number(new URL(next.url).port)
        const retry = await rawGet(nextPort, TRENDS, { 'x402-payment': proof })
        expect(retry.status).toBe(200)
        expect(retry.headers['x-payment-replay']).toBeUndefined()
        expect(JSON.parse(retry.body).pricing.payment_status).toBe('paid')
        const again = await rawGet(nextPort, TRENDS, { 'x402-payment': proof })
        expect(again.status).toBe(200)
        expect(again.headers['x-payment-replay']).toBe('stored-result')
      } finally {
        next.proc.kill('SIGTERM')
        expect(await next.proc.exited).toBe(0)
      }
      expect(read(ledger, 'SELECT state FROM payments')).toEqual([{ state: 'served' }])
      expect(read(ledger, 'SELECT event, detail FROM payment_events ORDER BY seq')).toEqual([
        { event: 'verified', detail: null },
        { event: 'failed', detail: 'shutdown: cut off before settlement' },
        { event: 'verified', detail: null },
        { event: 'served', detail: 'local' },
      ])
    } finally {
      await provider.stop()
    }
  }, 120_000)
})

function read(ledger: string, sql: string): unknown[] {
  const db = new Database(ledger, { readonly: true })
  try {
    return db.query(sql).all()
  } finally {
    db.close()
  }
}
