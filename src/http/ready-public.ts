/**
 * What /ready tells anyone: whether the service can serve, and a status word per part — for a load
 * balancer, an uptime check, a buyer deciding to retry. The details (the ledger's path, the datasets
 * folder, the data source's URL, a provider's or a facilitator's last error) are for the seller: /ready
 * read with METRICS_TOKEN as a bearer, and the console. In development without a token every reader is
 * the seller, as /metrics is open then.
 */
export interface Readiness {
  ready: boolean
  checks: Record<string, unknown>
  /** Why not ready, when it is not the datasets: the ledger cannot be reached or written, the facilitator does not answer. */
  code?: 'ledger_unavailable' | 'facilitator_unavailable' | 'settlement_unavailable'
  message?: string
}

type Check = unknown

/** A state word as it is (`ok`, `building`, `live`), a failure's text as `failed`. */
const word = (value: Check): string => {
  if (typeof value !== 'string') return 'failed'
  const head = value.split(':')[0]!.trim()
  return /^[a-z][a-z _]{0,31}$/.test(head) ? head : 'failed'
}

const field = (value: Check, name: string): unknown =>
  value && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined

/** Each check of /ready reduced to its status: no path, URL, host or error text. */
const SHOWN: Record<string, (value: Check) => unknown> = {
  duckdb: word,
  datasets: (v) => (field(v, 'last_reload_error') ? 'serving, last reload failed' : 'ok'),
  data_source: (v) => word(field(v, 'state')),
  indexes: (v) => Object.fromEntries(Object.entries((v ?? {}) as Record<string, unknown>).map(([name, state]) => [name, word(state)])),
  evidence: word,
  sample_name_index: word,
  sample_answers_warmed: (v) => word(field(v, 'state')),
  providers: (v) => {
    const last = Object.values((field(v, 'last_calls') ?? {}) as Record<string, { status?: string }>)
    return last.some((call) => call.status !== 'ok' && call.status !== 'empty') ? 'failing' : 'ok'
  },
  signature_recovery: () => 'ok',
  ledger: (v) => {
    const status = field(v, 'status') // PostgreSQL: ok, or what is wrong; SQLite: writable or not
    return field(v, 'writable') === false || (status !== undefined && status !== 'ok') ? 'unavailable' : 'ok'
  },
  facilitator: (v) => (field(v, 'reachable') === false ? 'unreachable' : 'ok'),
  chain: (v) => (field(v, 'reachable') === false ? 'unreachable' : 'ok'),
}

/** The readiness a reader without the seller's token sees: the verdict, its code and message, each part's status. */
export function publicReadiness(readiness: Readiness): Readiness {
  const checks = Object.fromEntries(
    Object.entries(readiness.checks).flatMap(([name, value]) => (SHOWN[name] ? [[name, SHOWN[name](value)]] : [])),
  )
  return { ...readiness, checks }
}
