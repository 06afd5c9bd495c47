/**
 * Work over many evidence items in slices, giving the event loop a turn between them: one request's
 * relevance checks, sentiment scoring or term counting over thousands of items must not hold up every
 * other request (a year of a category's posts took 1-3 s of uninterrupted JavaScript).
 */

/** Longest stretch of work between two turns of the event loop. */
export const SLICE_MS = 8

const turn = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Calls `fn` on every item, yielding to the event loop whenever a slice has run SLICE_MS. */
export async function eachSliced<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
  let since = performance.now()
  for (let i = 0; i < items.length; i++) {
    fn(items[i]!, i)
    if ((i & 15) === 15 && performance.now() - since > SLICE_MS) {
      await turn()
      since = performance.now()
    }
  }
}

/** At most `max` items, evenly spaced through `items` (which keep their order): a deterministic sample. */
export function evenSample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items]
  const step = items.length / max
  return Array.from({ length: max }, (_, k) => items[Math.floor(k * step)]!)
}
