import type { RouteSpec } from './types'

/** Where the China evidence comes from on this server (see src/intelligence/sources.ts). */
export type EvidenceMode = 'sample' | 'live'

/** Whether a route's answer waits on the China evidence: the evidence routes, and the wrappers that run them. */
export const usesEvidence = (route: RouteSpec): boolean => route.kind === 'evidence' || route.usesEvidence === true

/** The typical wait in seconds on this server: the catalog's (live) wait, or 1 s for sample evidence and datasets. */
export const typicalWaitSeconds = (route: RouteSpec, mode: EvidenceMode): number =>
  mode === 'live' || !usesEvidence(route) ? route.typicalWaitSeconds : 1

/**
 * The typical wait as this server will really behave. `typicalWaitSeconds` is the live providers' wait
 * (it also sizes the payment window); the sample corpus and the datasets answer in well under a second
 * (BENCHMARKS.md: sample answers 5-80 ms median, the largest first runs ~0.5-0.8 s).
 */
export function typicalWait(route: RouteSpec, mode: EvidenceMode): string {
  if (!usesEvidence(route)) return 'usually under a second (DuckDB over the local datasets)'
  if (mode === 'sample') {
    return `usually under a second on this server: no live provider is configured, so the China evidence comes from the embedded sample corpus (with live providers, about ${route.typicalWaitSeconds} s)`
  }
  return `about ${route.typicalWaitSeconds} s: the China evidence is searched at the live providers at request time; keep the connection open rather than retrying the payment`
}
