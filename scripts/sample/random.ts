/**
 * Deterministic randomness for the sample generators: each row gets its own PRNG stream seeded from
 * the row's identity, so adding a row never shifts the numbers of other rows.
 */
const SEED = 'cmi-sample-v1'

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return hash >>> 0
}

export type Rng = () => number

function mulberry32(seed: number): Rng {
  let state = seed >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let mixed = state
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1)
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61)
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296
  }
}

export function rngFor(...parts: readonly string[]): Rng {
  return mulberry32(fnv1a([SEED, ...parts].join('|')))
}

/** Approximately standard-normal (sum of three uniforms): bounded, so no extreme outliers. */
export function gaussian(rng: Rng): number {
  return (rng() + rng() + rng() - 1.5) * 2
}

/** Uniform in [low, high). */
export function between(rng: Rng, low: number, high: number): number {
  return low + (high - low) * rng()
}

export const clamp = (value: number, low: number, high: number): number => Math.min(high, Math.max(low, value))
export const round2 = (value: number): number => Math.round(value * 100) / 100
