/**
 * What the gate knows of the payments this process is running: which are open (a retry waits for its
 * own) and whether the shutdown deadline has closed the gate. Each payment keeps how far it got
 * (payment.ts); the deadline's cut-off asks each open one what it leaves in the ledger.
 */
import type { CutOutcome, Payment } from './payment'

/** The gate's runs in this process, and whether it still claims payments. */
export class GateState {
  private isClosed = false
  private readonly runs = new Map<string, { payment: Payment; ended: Promise<void>; end: () => void }>()

  get closed(): boolean {
    return this.isClosed
  }

  /** Tracks the run of `payment` until the returned `end` (in a finally). */
  begin(payment: Payment): () => void {
    let end!: () => void
    const ended = new Promise<void>((resolve) => (end = resolve))
    this.runs.set(payment.key, { payment, ended, end })
    return () => {
      this.runs.delete(payment.key)
      end()
    }
  }

  /** Resolves when the run of `key` in this process ends; undefined when none is running here. */
  runOf(key: string): Promise<void> | undefined {
    return this.runs.get(key)?.ended
  }

  /** Closes the gate (nothing more is claimed) and cuts off every open run; what each left, by request id. */
  close(now: number): Map<string, CutOutcome> {
    this.isClosed = true
    const outcomes = new Map<string, CutOutcome>()
    for (const { payment } of this.runs.values()) {
      const outcome = payment.cutOff(now)
      if (outcome) outcomes.set(payment.claim.requestId, outcome)
    }
    return outcomes
  }
}
