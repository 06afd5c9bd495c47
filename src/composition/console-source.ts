/** What the seller's console reads (http/console): the ledger, the deferred queue, /ready, and this process's counters. */
import type { PaymentLedger } from '../ledger'
import { consoleFigures, type ConsoleFigures, type ConsoleSource, type Metrics, type Readiness } from '../http'
import type { DeferredStats, RpcState } from '../payments'
import type { ProviderHealth } from '../intelligence'

/** Figures are read again at most this often: a reload storm (or two sellers) costs one ledger read. */
export const CONSOLE_REFRESH_MS = 5_000

export function consoleSource(deps: {
  ledger: PaymentLedger
  metrics: Metrics
  readiness: () => Promise<Readiness>
  deferred?: { stats(): DeferredStats }
  providers?: ProviderHealth
  /** Self mode: each network's RPC asked now (at most once per CONSOLE_REFRESH_MS, as the rest). */
  networks?: () => Promise<RpcState[]>
  /** BATCH_NETWORKS: the channels and the chain actions of the 30 days are read from the ledger too. */
  batch?: boolean
}): ConsoleSource {
  const reader = deps.ledger.businessReader()
  const startedAt = Math.floor(Date.now() / 1000)
  const starts = (prefix: string) => (route: string) => route.startsWith(prefix)
  let held: { at: number; figures: Promise<ConsoleFigures> } | undefined
  const read = async (): Promise<ConsoleFigures> => {
    const now = Math.floor(Date.now() / 1000)
    const [business, ready, networks, batch] = await Promise.all([
      reader.read(now),
      deps.readiness(),
      deps.networks?.() ?? Promise.resolve(null),
      deps.batch
        ? Promise.all([deps.ledger.channelSummary(), deps.ledger.redemptionTotals(now - 30 * 86_400)]).then(([channels, actions]) => ({
            channels,
            actions,
          }))
        : Promise.resolve(null),
    ])
    return consoleFigures({
      business,
      deferred: deps.deferred?.stats() ?? null,
      batch,
      checks: ready.checks,
      ready: ready.ready,
      providers: deps.providers?.stats() ?? {},
      networks,
      routes: deps.metrics.businessByRoute(),
      answerTimes: (prefix, q) => deps.metrics.latency(starts(prefix), q),
      requests: (prefix) => deps.metrics.requests(starts(prefix)),
      startedAt,
    })
  }
  return {
    async close() {
      await reader.close()
    },
    figures() {
      const now = Date.now()
      if (!held || now - held.at >= CONSOLE_REFRESH_MS) {
        const figures = read()
        held = { at: now, figures }
        figures.catch(() => {
          if (held?.figures === figures) held = undefined // a failed read is not kept
        })
      }
      return held.figures
    },
  }
}
