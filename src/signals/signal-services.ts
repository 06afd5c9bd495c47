import type { DataServices } from '../data'
import type { SignalsSnapshot } from './index-signals'

export interface SignalServices extends DataServices {
  /** The current signals versions; a request reads it once so its answer never mixes versions. */
  snapshot(): SignalsSnapshot
}
