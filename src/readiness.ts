/** What /ready reports of a runtime's parts (runtime.ts builds it; app.ts answers /ready with it). */
import type { Config } from './config'
import type { DuckDb } from './data/duckdb'
import type { EvidenceSources } from './intelligence/sources'
import { liveSetup } from './intelligence/live-setup'
import type { WarmUpState } from './intelligence/warm-up'
import { signatureRecovery } from './payments/secp256k1'
import type { SharedState } from './postgres/shared-state'
import type { DatasetStore, TableIndex } from './data/store'
import type { PaymentLedger } from './payments/ledger'
import type { FacilitatorHealth } from './payments/facilitator-health'

/** The sample corpus's name index (name-postings.ts): `scanning texts` when it could not be built. */
export type NameIndexState = 'waiting for the datasets' | 'building' | 'ready' | 'scanning texts'

/** The parts of the dataset store that readiness reads. */
type StoreState = Pick<DatasetStore<unknown, TableIndex>, 'status' | 'indexStates' | 'pending'>

/** What /ready reports: DuckDB, datasets and their indexes, evidence, the ledger; not ready while a part cannot serve. */
export function readiness(
  config: Readonly<Config>,
  db: DuckDb,
  store: StoreState,
  live: EvidenceSources | null,
  shared?: SharedState,
  /** The sample corpus (no live providers): its name index, and the warm-up when it runs. */
  corpus?: { nameIndex(): NameIndexState; warm?(): WarmUpState },
  /** What a paid request needs besides the data: a ledger that takes writes, a facilitator that answers. */
  payments?: { ledger?: Pick<PaymentLedger, 'writable'>; facilitator?: FacilitatorHealth; chain?: FacilitatorHealth },
) {
  return async () => {
    const checks: Record<string, unknown> = {}
    try {
      await db.all('SELECT 1 AS ok')
      checks.duckdb = 'ok'
    } catch (e) {
      checks.duckdb = String(e)
    }
    checks.datasets = store.status()
    const indexes = store.indexStates()
    checks.indexes = indexes
    checks.evidence = live ? 'live' : 'sample'
    if (corpus) checks.sample_name_index = corpus.nameIndex()
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
      return {
        ready: false,
        checks,
        code: 'ledger_unavailable' as const,
        message: 'Not ready: the shared payment ledger (LEDGER_URL) cannot be reached; paid requests are refused until it is back.',
      }
    if (writes && !writes.ok)
      return {
        ready: false,
        checks,
        code: 'ledger_unavailable' as const,
        message: 'Not ready: the payment ledger cannot be written (checks.ledger.error); paid requests are refused with 503 until it can.',
      }
    const facilitator = await payments?.facilitator?.check()
    if (facilitator) {
      checks.facilitator = facilitator.reachable
        ? { reachable: true }
        : { reachable: false, since_seconds: Math.round(facilitator.sinceMs / 1000), error: facilitator.error }
      if (!facilitator.reachable && facilitator.outage)
        return {
          ready: false,
          checks,
          code: 'facilitator_unavailable' as const,
          message: `Not ready: the facilitator has not answered for ${Math.round(facilitator.sinceMs / 1000)} s (checks.facilitator.error); paid requests would fail with 502.`,
        }
    }
    // Self mode: the in-process facilitator needs each network's RPC.
    const chain = await payments?.chain?.check()
    if (chain) {
      checks.chain = chain.reachable
        ? { reachable: true }
        : { reachable: false, since_seconds: Math.round(chain.sinceMs / 1000), error: chain.error }
      if (!chain.reachable && chain.outage)
        return {
          ready: false,
          checks,
          code: 'settlement_unavailable' as const,
          message: `Not ready: the chain's RPC has not answered for ${Math.round(chain.sinceMs / 1000)} s (checks.chain.error); paid requests would fail with 503.`,
        }
    }
    if (store.pending()) {
      const failed = Object.values(indexes).some((state) => state.startsWith('failed'))
      return {
        ready: false,
        checks,
        message: failed
          ? 'Not ready: the datasets could not be indexed (checks.indexes says why); paid requests are refused until a reload succeeds.'
          : 'Not ready: the datasets are loaded and being indexed (checks.indexes); paid requests wait for it.',
      }
    }
    if (corpus?.nameIndex() === 'building')
      return {
        ready: false,
        checks,
        message:
          'Not ready: the sample corpus is being indexed by name (checks.sample_name_index, about a second); paid requests wait for it.',
      }
    return { ready: checks.duckdb === 'ok', checks }
  }
}
