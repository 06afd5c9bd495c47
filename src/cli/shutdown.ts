import type { Server } from 'bun'
import { type Drain, errorResponse, type RequestLog } from '../http'
import { ApiError, type Logger } from '../core'
import type { CutOutcome, PaymentGate } from '../payments'
import type { PaymentLedger } from '../ledger'

/** After the deadline's 503s are written, how long connections may take to receive them before they are closed. */
const FLUSH_MS = 2000
/** Every request answered: how long connections still open may take before they are closed. */
const ANSWERED_GRACE_MS = 10_000

export interface Stopping {
  server: Server<undefined>
  drain: Drain
  gate: PaymentGate
  ledger: PaymentLedger
  log: RequestLog
  logger: Logger
  timeoutMs: number
}

const PAYMENT_TEXT: Record<CutOutcome, [string, string]> = {
  released: ['not_charged', 'Nothing was charged: the same proof buys this request when you retry it.'],
  settling: [
    'settling',
    'The payment was settling: retry the same request with the same proof to receive the answer once the settlement is seen on chain; it is never charged twice.',
  ],
  served: [
    'served',
    'The payment is settled and the answer stored: retry the same request with the same proof to receive it, without a second charge.',
  ],
}

/** The 503 of a request cut off by the deadline, saying what became of its payment when it had one. */
function cutOffError(outcome: CutOutcome | undefined): ApiError {
  const base = 'The service is shutting down and this request did not finish in time.'
  if (!outcome)
    return new ApiError('shutting_down', `${base} Retry it; a payment proof sent with it can be sent again and is never charged twice.`)
  const [payment, text] = PAYMENT_TEXT[outcome]
  return new ApiError('shutting_down', `${base} ${text}`, { payment })
}

/**
 * SIGTERM/SIGINT: stop accepting, let requests in flight finish for up to `timeoutMs`, then answer the
 * rest `503 shutting_down`. Before that answer, the gate settles nothing more and the ledger commits
 * what became of each payment still running (see `PaymentGate.cutOff`), so a retry never pays twice.
 * Resolves once every request has its answer (or the connections that cannot take it are closed).
 */
export async function stopServing(stopping: Stopping): Promise<{ cut: number }> {
  // Without `true`: closes the listener at once and resolves when every request in flight is answered;
  // idle keep-alive connections do not hold it (test/build/shutdown.test.ts).
  const stopped = stopping.server.stop()
  let timer: ReturnType<typeof setTimeout> | undefined
  // Every request answered, but a connection still holds the exit: the rest of a refused upload that its
  // client stopped sending (the 413 is kept open so that clients can read it), or a slow reader still
  // receiving its answer: ANSWERED_GRACE_MS for them (Bun's own idle timeout), then they are closed.
  const answered = stopping.drain
    .idle()
    .then(() => Promise.race([stopped, Bun.sleep(Math.min(ANSWERED_GRACE_MS, stopping.timeoutMs))]))
    .then(() => 'answered' as const)
  const outcome = await Promise.race([
    stopped.then(() => 'stopped' as const),
    answered,
    new Promise<'late'>((r) => (timer = setTimeout(() => r('late'), stopping.timeoutMs))),
  ])
  clearTimeout(timer)
  if (outcome === 'stopped') return { cut: 0 }
  if (outcome === 'answered') {
    await stopping.server.stop(true)
    return { cut: 0 }
  }

  const outcomes = stopping.gate.cutOff()
  // The released claims and parked settlements are on disk before any buyer is told to retry.
  await stopping.ledger
    .durable()
    .catch((e: unknown) => stopping.logger.error('ledger commit failed at the shutdown deadline', { error: String(e) }))
  const cut = stopping.drain.cut((request) => {
    const id = stopping.log.id(request)
    const error = cutOffError(outcomes.get(id))
    stopping.log.finish(request, error.status)
    return errorResponse(error, id)
  })
  stopping.logger.warn('shutdown deadline reached', {
    timeout_seconds: stopping.timeoutMs / 1000,
    cut_off: cut,
    payments: Object.fromEntries(countOf(outcomes.values())),
  })
  // A connection still sending its request head never reached the app: it has no answer to wait for.
  const flushed = cut > 0 && (await Promise.race([stopped.then(() => true), Bun.sleep(FLUSH_MS).then(() => false)]))
  if (!flushed) await stopping.server.stop(true) // nor does a client that does not read its answer hold the exit
  return { cut }
}

function countOf(values: Iterable<string>): Map<string, number> {
  const counts = new Map<string, number>()
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1)
  return counts
}
