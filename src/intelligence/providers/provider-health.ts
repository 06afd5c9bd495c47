/** What the console shows of one provider since the process started. */
export interface ProviderStats {
  status: string
  at: string
  error?: string
  calls: number
  errors: number
  /** Seconds the last call took, and all calls together (mean = total / calls). */
  lastSeconds: number
  totalSeconds: number
}

/**
 * The last call of each provider, for /ready (a seller sees a failing provider without reading logs),
 * and its calls, failures and time since start for the console; `onCall` feeds /metrics.
 */
export class ProviderHealth {
  private readonly last = new Map<string, ProviderStats>()
  onCall?: (provider: string, failed: boolean, seconds: number) => void

  note(provider: string, status: string, error?: string, seconds = 0): void {
    const held = this.last.get(provider)
    // `ok` and `empty` are answers; `failed`, `timeout` and `rate_limited` (lanes.ts) are not.
    const failed = status !== 'ok' && status !== 'empty'
    this.last.set(provider, {
      status,
      at: new Date().toISOString(),
      ...(error ? { error } : {}),
      calls: (held?.calls ?? 0) + 1,
      errors: (held?.errors ?? 0) + (failed ? 1 : 0),
      lastSeconds: seconds,
      totalSeconds: (held?.totalSeconds ?? 0) + seconds,
    })
    this.onCall?.(provider, failed, seconds)
  }

  /** The last call of each, as /ready shows it. */
  snapshot(): Record<string, { status: string; at: string; error?: string }> {
    return Object.fromEntries(
      [...this.last].map(([name, s]) => [name, { status: s.status, at: s.at, ...(s.error ? { error: s.error } : {}) }]),
    )
  }

  stats(): Record<string, ProviderStats> {
    return Object.fromEntries(this.last)
  }
}
