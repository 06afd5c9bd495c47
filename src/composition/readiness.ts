/** What /ready reports of a runtime's parts (runtime.ts builds it; app.ts answers /ready with it). */
import type { Config } from '../config'
import type { ClosableIndex, DataFollower, DatasetStore, DuckDb } from '../data'
import { type EvidenceSources, liveSetup, type WarmUpState } from '../intelligence'
import { type FacilitatorHealth, signatureRecovery } from '../payments'
import type { SharedState } from './shared-state'
import type { PaymentLedger } from '../ledger'

/** The corpus's creator posts of the KOL window, read ahead (intelligence/sources.ts prepare): `read on first use` when that failed. */
export type CreatorPostsState = 'waiting for the datasets' | 'reading' | 'ready' | 'read on first use'

/** The parts of the dataset store that readiness reads. */
type StoreState = Pick<DatasetStore<unknown, ClosableIndex>, 'status' | 'indexStates' | 'pending'>

/** What /ready reports: DuckDB, datasets and their indexes, evidence, the ledger; not ready while a part cannot serve. */
export function readiness(
  config: Readonly<Config>,
  db: DuckDb,
  store: StoreState,
  live: EvidenceSources | null,
  shared?: SharedState,
  /** The sample corpus (no live providers): its creator posts read ahead, and the warm-up when it runs. */
  corpus?: { creatorPosts(): CreatorPostsState; warm?(): WarmUpState },
  /**
   * What a paid request needs besides the data: a ledger that takes writes, a facilitator that answers;
   * and with DATA_SOURCE_URL, the publication followed (a refused one is reported, the copy served stays ready).
   */
  payments?: {
    ledger?: Pick<PaymentLedger, 'writable'>
    facilitator?: FacilitatorHealth
    chain?: FacilitatorHealth
    dataSource?: Pick<DataFollower, 'status'>
  },
) {
  return async () => {
    const checks: Record<string, unknown> = {}
    const notReady = (message: string, code?: 'ledger_unavailable' | 'facilitator_unavailable' | 'settlement_unavailable') => ({
      ready: false as const,
      checks,
      ...(code ? { code } : {}),
      message,
    })
    try {
      await db.all('SELECT 1 AS ok')
      checks.duckdb = 'ok'
    } catch (error) {
      checks.duckdb = String(error)
    }
    checks.datasets = store.status()
    const followed = payments?.dataSource?.status()
    if (followed) checks.data_source = followed
    const indexes = store.indexStates()
    checks.indexes = indexes
    checks.evidence = live ? 'live' : 'sample'
    if (corpus) checks.sample_creator_posts = corpus.creatorPosts()
    if (corpus?.warm) checks.sample_answers_warmed = corpus.warm()
    if (live) checks.providers = { ...liveSetup(live), last_calls: live.health?.snapshot() ?? {} }
    checks.signature_recovery = signatureRecovery()
    const ledgerState = shared?.status()
    const writes = payments?.ledger?.writable?.()
    checks.ledger = ledgerState?.check ?? {
      backend: 'sqlite',
      path: config.ledgerPath,
      ...(writes
        ? writes.ok
          ? { writable: true }
          : { writable: false, since_seconds: Math.round(writes.sinceMs / 1000), error: writes.error }
        : {}),
    }
    if (ledgerState && !ledgerState.ok)
      return notReady(
        'Not ready: the shared payment ledger (LEDGER_URL) cannot be reached; paid requests are refused until it is back.',
        'ledger_unavailable',
      )
    if (writes && !writes.ok)
      return notReady(
        'Not ready: the payment ledger cannot be written (checks.ledger.error); paid requests are refused with 503 until it can.',
        'ledger_unavailable',
      )
    // The facilitator (facilitator mode), or each network's RPC (self mode: the in-process facilitator needs them).
    const parts = [
      {
        name: 'facilitator',
        health: payments?.facilitator,
        code: 'facilitator_unavailable' as const,
        what: 'the facilitator',
        status: 502,
      },
      { name: 'chain', health: payments?.chain, code: 'settlement_unavailable' as const, what: "the chain's RPC", status: 503 },
    ]
    for (const part of parts) {
      const state = await part.health?.check()
      if (!state) continue
      checks[part.name] = state.reachable
        ? { reachable: true }
        : { reachable: false, since_seconds: Math.round(state.sinceMs / 1000), error: state.error }
      if (!state.reachable && state.outage)
        return notReady(
          `Not ready: ${part.what} has not answered for ${Math.round(state.sinceMs / 1000)} s (checks.${part.name}.error); paid requests would fail with ${part.status}.`,
          part.code,
        )
    }
    if (followed?.missing_files)
      return notReady(
        `Not ready: ${followed.missing_files.length} file(s) of the publication served are missing from the datasets folder (checks.data_source.missing_files); the next check downloads them again.`,
      )
    if (store.pending()) {
      const failed = Object.values(indexes).some((state) => state.startsWith('failed'))
      return notReady(
        failed
          ? 'Not ready: the datasets could not be indexed (checks.indexes says why); paid requests are refused until a reload succeeds.'
          : 'Not ready: the datasets are loaded and being indexed (checks.indexes); paid requests wait for it.',
      )
    }
    if (corpus?.creatorPosts() === 'reading')
      return notReady(
        "Not ready: the corpus's creator posts of the KOL window are being read (checks.sample_creator_posts, about a second); paid requests wait for them.",
      )
    return { ready: checks.duckdb === 'ok', checks }
  }
}
