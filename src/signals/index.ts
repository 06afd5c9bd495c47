/**
 * The face of signals/: the weekly signal rankings and snapshots.
 */
export { indexSignals } from './index-signals'
export type { SignalsSnapshot } from './index-signals'
export { signalHandlers } from './signal-routes'
export type { SignalServices } from './signal-services'
