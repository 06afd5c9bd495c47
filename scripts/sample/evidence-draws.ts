/** Random draws of the evidence generator from a seeded PRNG (./random.ts): from a list, by weight, Poisson counts. */
import type { Rng } from './random'

/** One of the items, uniformly. */
export function pick<T>(rng: Rng, items: readonly T[]): T {
  return items[Math.floor(rng() * items.length)]!
}

/** One of the items, in proportion to its weight. */
export function weighted<T>(rng: Rng, items: readonly (readonly [T, number])[]): T {
  let remaining = rng() * items.reduce((s, [, w]) => s + w, 0)
  for (const [item, w] of items) if ((remaining -= w) < 0) return item
  return items.at(-1)![0]
}

/** Poisson draw (Knuth for small means, normal approximation above 30). */
export function poisson(rng: Rng, lambda: number): number {
  if (lambda > 30) return Math.max(0, Math.round(lambda + Math.sqrt(lambda) * (rng() + rng() + rng() - 1.5) * 2))
  const limit = Math.exp(-lambda)
  let count = 0
  let product = rng()
  while (product > limit) {
    count++
    product *= rng()
  }
  return count
}
