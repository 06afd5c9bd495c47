/**
 * What the gate knows of the payments this process is running, kept in one object: which runs are open
 * (a retry waits for its own), how far each got, and whether the shutdown deadline has closed the gate.
 * The steps (claim.ts, paid-work.ts, settle.ts) read and move a run only through these methods; the
 * deadline's cut-off (`cutOff`) decides from them what each open run leaves in the ledger.
 */
import type { PaymentEventKind, PaymentLedger, StoredArtifact } from '../ledger/contract'

/** What the shutdown deadline did to a paid request still running: see `PaymentGate.cutOff`. */
export type CutOutcome = 'released' | 'settling' | 'served'

type Emit = (event: PaymentEventKind, extra?: { txHash?: string; detail?: string }) => void

/** One claimed payment whose request is running in this process. */
export class PaymentRun {
  /** Verifying or running the handler, settling, or what the ledger already says once the settlement is known. */
  private phase: 'work' | 'settle' | CutOutcome = 'work'
  /** Built before settling: what a settlement cut off by the deadline is parked with. */
  private kept?: StoredArtifact
  /** Set by the cut-off: the ledger already says what became of this payment. */
  private cutAs?: CutOutcome

  constructor(
    readonly requestId: string,
    private readonly emit: Emit,
  ) {}

  /** Whether the shutdown deadline cut this run off (then its own steps must not change the ledger). */
  get cut(): boolean {
    return this.cutAs !== undefined
  }

  /** The answer to store, kept before settling begins. */
  keep(artifact: StoredArtifact): void {
    this.kept = artifact
  }

  get artifact(): StoredArtifact {
    if (!this.kept) throw new Error('payment run: no answer kept before settling')
    return this.kept
  }

  /** Money may move from now on. */
  settling(): void {
    this.phase = 'settle'
  }

  /** The settlement's outcome is known and in the ledger (`settling`: parked as pending). */
  settled(as: CutOutcome): void {
    this.phase = as
  }

  /**
   * The deadline's verdict on this run, recorded in `ledger`: not yet settling, released as a failed
   * handler is (nothing moved; the proof buys its request again); settling, parked as pending with its
   * answer for the reconciler or the retry to find on chain; settlement known, left as it is.
   */
  cutOff(ledger: PaymentLedger, key: string, now: number): CutOutcome | undefined {
    if (this.cutAs) return undefined
    if (this.phase === 'work') {
      this.cutAs = 'released'
      ledger.release(key, now)
      this.emit('failed', { detail: 'shutdown: cut off before settlement' })
    } else if (this.phase === 'settle') {
      this.cutAs = 'settling'
      ledger.park(key, this.artifact, now)
      this.emit('pending', { detail: 'shutdown: cut off while settling' })
    } else {
      this.cutAs = this.phase // the settlement's outcome is in the ledger already, being committed
    }
    return this.cutAs
  }
}

/** The gate's runs in this process, and whether it still claims payments. */
export class GateState {
  private isClosed = false
  private readonly runs = new Map<string, { run: PaymentRun; ended: Promise<void>; end: () => void }>()

  get closed(): boolean {
    return this.isClosed
  }

  /** Tracks the run of payment `key` until `end` (in a finally). */
  begin(key: string, requestId: string, emit: Emit): { run: PaymentRun; end: () => void } {
    let end!: () => void
    const ended = new Promise<void>((resolve) => (end = resolve))
    const run = new PaymentRun(requestId, emit)
    this.runs.set(key, { run, ended, end })
    return {
      run,
      end: () => {
        this.runs.delete(key)
        end()
      },
    }
  }

  /** Resolves when the run of `key` in this process ends; undefined when none is running here. */
  runOf(key: string): Promise<void> | undefined {
    return this.runs.get(key)?.ended
  }

  /** Closes the gate (nothing more is claimed) and cuts off every open run; what each left, by request id. */
  close(ledger: PaymentLedger, now: number): Map<string, CutOutcome> {
    this.isClosed = true
    const outcomes = new Map<string, CutOutcome>()
    for (const [key, { run }] of this.runs) {
      const outcome = run.cutOff(ledger, key, now)
      if (outcome) outcomes.set(run.requestId, outcome)
    }
    return outcomes
  }
}
