/**
 * Asks <url>/health every 10 ms from its own process (so the load generator's own pauses are not
 * counted) and, when its stdin closes, prints the slowest answer in ms. With PROBER_READY=1 it writes
 * `ready` to stderr after its first answer, so a benchmark can start its work once probing is under way.
 * Used by scripts/bench-hostile.ts and scripts/bench-provider-stall.ts.
 */
export {}
const url = process.argv[2]!
let worst = 0
let done = false
let announced = false
void (async () => {
  for await (const _ of Bun.stdin.stream()) {
    // anything written: forget the worst so far (a new phase of the benchmark starts)
    worst = 0
  }
  done = true
})()
while (!done) {
  const sentAt = performance.now()
  await fetch(`${url}/health`)
  worst = Math.max(worst, performance.now() - sentAt)
  if (process.env.PROBER_READY === '1' && !announced) {
    announced = true
    process.stderr.write('ready\n')
  }
  await Bun.sleep(10)
}
console.log(JSON.stringify({ worstMs: worst }))
