/**
 * Asks <url>/health every 10 ms from its own process (so the load generator's own pauses are not
 * counted) and, when its stdin closes, prints the slowest answer in ms. Used by scripts/bench-hostile.ts.
 */
export {}
const url = process.argv[2]!
let worst = 0
let done = false
void (async () => {
  for await (const _ of Bun.stdin.stream()) {
    // anything written: forget the worst so far (a new phase of the benchmark starts)
    worst = 0
  }
  done = true
})()
while (!done) {
  const t = performance.now()
  await fetch(`${url}/health`)
  worst = Math.max(worst, performance.now() - t)
  await Bun.sleep(10)
}
console.log(JSON.stringify({ worstMs: worst }))
