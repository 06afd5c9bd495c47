import { expect, test } from 'bun:test'
import type { WorkerResult } from './recovery-equality-worker'

// libsecp256k1 (the native binding recoverSigner runs) against @noble/curves (the fallback, the recovery
// used before it) on 100,000 generated signatures: signed ones, high-s twins, r or s zero or >= n, random
// r that is no x-coordinate, wrong v, wrong lengths, non-hex, digests 0 or >= n or not 32 bytes long.
// @noble/curves costs ~0.5-1 ms a recovery, so two workers (2 cores) share the cases. The seed is in the
// test's name: RECOVERY_EQUALITY_SEED=<seed> repeats a run.
const CASES = 100_000
const WORKERS = 2
const SEED = Number(process.env.RECOVERY_EQUALITY_SEED) || crypto.getRandomValues(new Uint32Array(1))[0]!

function runWorker(seed: number, count: number): Promise<WorkerResult> {
  const worker = new Worker(new URL('./recovery-equality-worker.ts', import.meta.url))
  return new Promise<WorkerResult>((resolve, reject) => {
    worker.onmessage = (e: MessageEvent<WorkerResult>) => resolve(e.data)
    worker.onerror = (e) => reject(new Error(`worker (seed ${seed}) failed: ${e.message}`))
    worker.postMessage({ seed, count })
  }).finally(() => worker.terminate())
}

test(`libsecp256k1 and @noble/curves recover the same signer, or both null, on ${CASES} signatures (seed ${SEED})`, async () => {
  const results = await Promise.all(Array.from({ length: WORKERS }, (_, i) => runWorker(SEED + i, CASES / WORKERS)))
  // Each worker compared the native binding, not the fallback with itself.
  expect(results.map((r) => r.signatureRecovery)).toEqual(Array(WORKERS).fill('libsecp256k1 (native)'))
  expect(results.flatMap((r) => r.mismatches)).toEqual([])

  const counts: Record<string, { total: number; recovered: number; signer: number }> = {}
  for (const r of results)
    for (const [kind, c] of Object.entries(r.counts)) {
      const sum = (counts[kind] ??= { total: 0, recovered: 0, signer: 0 })
      sum.total += c.total
      sum.recovered += c.recovered
      sum.signer += c.signer
    }
  expect(Object.values(counts).reduce((n, c) => n + c.total, 0)).toBe(CASES)
  for (const c of Object.values(counts)) expect(c.total).toBeGreaterThan(CASES / 100)
  // Not vacuous: signed cases recover their signer, refused ones recover nothing, and random r gives both.
  const outcome = (kind: string) => {
    const c = counts[kind]!
    return {
      kind,
      recovered: c.recovered === c.total ? 'all' : c.recovered === 0 ? 'none' : 'some',
      signer: c.signer === c.total ? 'all' : c.signer === 0 ? 'none' : 'some',
    }
  }
  for (const kind of ['signed', 'signed, v 0/1', 'signed, upper-case hex'])
    expect(outcome(kind)).toEqual({ kind, recovered: 'all', signer: 'all' })
  // A valid (r, s) recovers a key from a digest of any length: the signer's when the digest was only
  // extended (its first 32 bytes are read), another when it was cut.
  expect(outcome('digest not 32 bytes')).toEqual({ kind: 'digest not 32 bytes', recovered: 'all', signer: 'some' })
  expect(outcome('digest 0 or >= n')).toEqual({ kind: 'digest 0 or >= n', recovered: 'all', signer: 'none' })
  for (const kind of ['high-s twin', 'r or s 0 or >= n, s > n/2', 'wrong v', 'wrong length', 'non-hex'])
    expect(outcome(kind)).toEqual({ kind, recovered: 'none', signer: 'none' })
  for (const kind of ['random r, s < n/2', 'random 64 bytes']) expect(outcome(kind)).toEqual({ kind, recovered: 'some', signer: 'none' })
}, 120_000)
