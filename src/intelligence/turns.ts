/**
 * Long loops over evidence (reading provider answers, relevance, terms, sentiment) take turns with the
 * rest of the process. Loops await `turn()` between chunks or items; once evidence work has held the event loop for SLICE_MS, every loop
 * waits, and the waiting loops then run one slice each per event-loop turn, first come first served.
 * Other requests, and the timers that enforce provider deadlines, so wait about one slice at most,
 * however many requests are scoring at once. (A budget per loop would not do: several loops resumed in
 * the same turn would each take a full slice in a row.)
 */
import { AsyncLocalStorage } from 'node:async_hooks'

/** Longest stretch of evidence work between two turns of the event loop. */
export const SLICE_MS = 10

let sliceStart = 0
/** Whether evidence work has run since the event loop last had a turn. */
let inSlice = false
const waiting: (() => void)[] = []
/** Loops run by `inBackground` (warming answers): they get a slice only when no request's loop waits for one. */
const waitingBackground: (() => void)[] = []
const background = new AsyncLocalStorage<true>()

/** Runs `work` at low priority: its loops give way to every request's (see `turn`). */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work)
}

/** Whether a request's evidence loop is waiting for its turn now. */
export const requestsWaiting = (): boolean => waiting.length > 0

function startSlice(): void {
  inSlice = true
  sliceStart = performance.now()
  // A timer, not setImmediate: Bun can run immediates queued by immediates without letting timers run between.
  setTimeout(endSlice, 0)
}

/** The event loop had its turn: the next waiting loop gets a fresh slice. */
function endSlice(): void {
  inSlice = false
  const next = waiting.shift() ?? waitingBackground.shift()
  if (next) {
    startSlice()
    next()
  }
}

/** Await between items: resolves at once within the current slice, else when the event loop has had a turn. */
export function turn(): Promise<void> | undefined {
  if (!inSlice) startSlice()
  if (background.getStore()) {
    // Background work stops at once when a request's loop is waiting, and else takes at most a slice.
    if (waiting.length === 0 && performance.now() - sliceStart < SLICE_MS) return undefined
    return new Promise<void>((resolve) => waitingBackground.push(resolve))
  }
  if (performance.now() - sliceStart < SLICE_MS) return undefined
  return new Promise<void>((resolve) => waiting.push(resolve))
}

/** Calls `fn` on every item, taking turns (see `turn`). */
export async function eachSliced<T>(items: readonly T[], fn: (item: T, index: number) => void): Promise<void> {
  for (let i = 0; i < items.length; i++) {
    const wait = turn()
    if (wait) await wait
    fn(items[i]!, i)
  }
}

/** At most `max` items, evenly spaced through `items` (which keep their order): a deterministic sample. */
export function evenSample<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items]
  const step = items.length / max
  return Array.from({ length: max }, (_, k) => items[Math.floor(k * step)]!)
}
