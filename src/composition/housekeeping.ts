/** What a running service tidies on its own schedule: the ledger's retention, expired sessions and live answers, the rate limiters. */
import type { Logger } from '../core'
import type { RateLimits } from '../paid-call'
import type { LedgerRetention, PaymentLedger } from '../ledger'
import type { SharedState } from './shared-state'

/** Hourly purge of expired ledger rows, sessions and live answers; a minute's sweep of the rate limiters. Disposing stops both. */
export function housekeeping(
  logger: Logger,
  ledger: PaymentLedger,
  limits: RateLimits,
  retention: LedgerRetention,
  shared?: SharedState,
): Disposable {
  const failed = (e: unknown) => logger.warn('ledger purge failed', { error: String(e) })
  // With several instances, the reconciler's holder purges and sweeps the shared tables for all of them.
  const leading = () => !shared || shared.registry.leading()
  const pass = () => {
    if (!leading()) return
    ledger.purgeExpired(Math.floor(Date.now() / 1000), retention).catch(failed)
    shared?.sessions.purgeExpired().catch(failed)
    shared?.answers.purgeExpired().catch(failed)
  }
  // A minute after start (an instance restarted often would otherwise never prune), then hourly.
  const first = setTimeout(pass, 60_000)
  first.unref()
  const purge = setInterval(pass, 3600_000)
  purge.unref()
  const sweep = setInterval(() => {
    limits.ip.sweep()
    if (leading()) void Promise.resolve(limits.payer.sweep()).catch(failed)
  }, 60_000)
  sweep.unref()
  return {
    [Symbol.dispose]() {
      clearTimeout(first)
      clearInterval(purge)
      clearInterval(sweep)
    },
  }
}
