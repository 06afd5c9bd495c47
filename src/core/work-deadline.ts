/**
 * The moment a paid request's work must be done by: its payment authorization stays valid only until
 * `validBefore`, and the settlement needs it valid after the work. Set around the paid work by the paid
 * call; read by every provider call under it (intelligence/providers/vendor-call.ts `withDeadline`), which gets
 * no more than the time left, whatever its own timeout. Unpaid work (warming, tools) has no deadline.
 */
import { AsyncLocalStorage } from 'node:async_hooks'

const deadline = new AsyncLocalStorage<number>()

/** Runs `work` with every provider call under it bounded to end by `atMs` (epoch milliseconds). */
export function withinDeadline<T>(atMs: number, work: () => Promise<T>): Promise<T> {
  return deadline.run(atMs, work)
}

/** Milliseconds left before the current work's deadline (0 or less: none), or undefined without one. */
export function msLeft(now = Date.now()): number | undefined {
  const at = deadline.getStore()
  return at === undefined ? undefined : at - now
}
