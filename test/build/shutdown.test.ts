import { afterAll, expect, test } from 'bun:test'
import { dirname } from 'node:path'
import { createPayer } from '../helpers/payer'
import { cleanEnv, cleanupBinaryTests, installedBinary, scratchDir, serveBinary } from './binary-process'

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
      const res = await socket.send(`GET ${ROUTE} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${paid ? `x402-payment: ${proofs[i / 2]!}\r\n` : ''}\r\n`)
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

/** A TCP connection to the server, open; `send` writes one request and resolves with the response once the server closes. */
function openSocket(port: number): Promise<{ send(request: string): Promise<{ status: number; body: string }> }> {
  return new Promise((opened, failed) => {
    let raw = ''
    let finish!: (r: { status: number; body: string }) => void
    let fail!: (e: Error) => void
    const done = new Promise<{ status: number; body: string }>((resolve, reject) => ((finish = resolve), (fail = reject)))
    void Bun.connect({
      hostname: '127.0.0.1',
      port,
      socket: {
        open: (socket) => opened({ send: (request) => (socket.write(request), done) }),
        data: (_, bytes) => void (raw += new TextDecoder().decode(bytes)),
        close: () => {
          const head = raw.indexOf('\r\n\r\n')
          if (head < 0) return fail(new Error(`connection closed without a response: ${JSON.stringify(raw.slice(0, 80))}`))
          finish({ status: Number(raw.slice(9, 12)), body: raw.slice(head + 4) })
        },
        error: (_, e) => fail(e),
        connectError: (_, e) => failed(e),
      },
    })
  })
}
