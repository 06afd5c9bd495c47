import { redact, redactedMessage } from '../../core'

/**
 * Whether the facilitator can be reached, for /ready: every verify and settle call says whether it got an
 * answer (a refusal is an answer). With no answer for `outageMs` (X402_FACILITATOR_OUTAGE_SECONDS), the
 * instance is not ready: a load balancer then sends paying clients elsewhere instead of to a 502. A not-ready
 * instance gets no traffic to learn from, so /ready itself asks the facilitator's `/supported` again, at
 * most every PROBE_INTERVAL_MS. `/supported` answering does not prove that `/verify` does: when a payment
 * call fails again within the outage time after a probe cleared an outage, the outage resumes at once (no
 * new grace), so a facilitator that lists its kinds but fails payments costs a few requests per probe, not
 * a cycle of X402_FACILITATOR_OUTAGE_SECONDS of 502s.
 */

const PROBE_INTERVAL_MS = 5_000
const PROBE_TIMEOUT_MS = 5_000

export type FacilitatorState = { reachable: true } | { reachable: false; sinceMs: number; error: string; outage: boolean }

export class FacilitatorHealth {
  private downSince: number | null = null
  /** When payment calls stopped being answered; only an answered payment call clears it, not a probe. */
  private callsDownSince: number | null = null
  /** When a probe last ended an outage: a payment call failing soon after resumes it. */
  private probeClearedAt: number | null = null
  private lastError = ''
  private lastProbe = 0
  private probing: Promise<void> | null = null

  constructor(
    /** A cheap call that needs the facilitator (its `/supported`). */
    private readonly probe: () => Promise<unknown>,
    /** How long calls may go unanswered before it is an outage: one blip or a slow call is not. */
    private readonly outageMs: number,
    private readonly now: () => number = Date.now,
    /** What the probe asks, for /ready's error (self mode probes each network's RPC). */
    private readonly probeName = '/supported',
  ) {}

  /** A payment call got an answer (a refusal too). */
  reached(): void {
    this.downSince = null
    this.callsDownSince = null
  }

  /** A payment call got no answer (connection refused, timeout, 5xx, credentials refused). */
  unreachable(error: string): void {
    // Long after a probe cleared an outage (a quiet service), a failure starts a new one, with its grace.
    if (this.probeClearedAt !== null && this.now() - this.probeClearedAt > this.outageMs) this.callsDownSince = null
    this.probeClearedAt = null
    this.callsDownSince ??= this.now()
    this.downSince ??= this.callsDownSince
    this.lastError = redact(error).slice(0, 300)
  }

  /** The state as last seen (metrics). */
  state(): FacilitatorState {
    if (this.downSince === null) return { reachable: true }
    const sinceMs = this.now() - this.downSince
    return { reachable: false, sinceMs, error: this.lastError, outage: sinceMs >= this.outageMs }
  }

  /** The state for /ready: during an outage, the facilitator is asked again first (at most every PROBE_INTERVAL_MS). */
  async check(): Promise<FacilitatorState> {
    const seen = this.state()
    if (seen.reachable || !seen.outage) return seen
    if (!this.probing && this.now() - this.lastProbe >= PROBE_INTERVAL_MS) {
      this.lastProbe = this.now()
      this.probing = within(this.probe(), PROBE_TIMEOUT_MS)
        .then(
          () => {
            this.downSince = null
            this.probeClearedAt = this.now()
          },
          (e: unknown) => {
            this.downSince ??= this.now()
            this.lastError = `${this.probeName}: ${redactedMessage(e)}`.slice(0, 300)
          },
        )
        .finally(() => (this.probing = null))
    }
    if (this.probing) await this.probing
    return this.state()
  }
}

function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms)
  })
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer))
}
