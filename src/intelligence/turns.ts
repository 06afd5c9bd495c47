/**
 * Long loops over evidence (reading provider answers, relevance, terms, sentiment) take turns with the
 * rest of the process. Loops await `turn()` between chunks or items; once evidence work has held the event loop for SLICE_MS, every loop
 * waits, and the waiting loops then run one slice each per event-loop turn, first come first served.
 * Other requests, and the timers that enforce provider deadlines, so wait about one slice at most,
 * however many requests are scoring at once. (A budget per loop would not do: several loops resumed in
 * the same turn would each take a full slice in a row.)
 */
const SLICE_MS = 10

let sliceStart = 0
/** Whether evidence work has run since the event loop last had a turn. */
let inSlice = false
const waiting: (() => void)[] = []

function startSlice(): void {
  inSlice = true
  sliceStart = performance.now()
  // A timer, not setImmediate: Bun can run immediates queued by immediates without letting timers run between.
  setTimeout(endSlice, 0)
}

/** The event loop had its turn: the next waiting loop gets a fresh slice. */
function endSlice(): void {
  inSlice = false
  const next = waiting.shift()
  if (next) {
    startSlice()
    next()
  }
}

/** Await between items: resolves at once within the current slice, else when the event loop has had a turn. */
export function turn(): Promise<void> | undefined {
  if (!inSlice) startSlice()
  if (performance.now() - sliceStart < SLICE_MS) return undefined
  return new Promise<void>((resolve) => waiting.push(resolve))
}
