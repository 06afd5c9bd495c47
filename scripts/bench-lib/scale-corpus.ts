/**
 * bench-scale.ts's corpus parts (issue 48): the corpus index of each folder built before its start, and
 * after the timed run the 90-day trend of every named entity, compared with the first folder's.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { routeById } from '../../src/catalog'
import { usdToAtomic } from '../../src/core/usdc'
import { createPayer } from '../../support/payer'
import { routeUrl } from '../../support/route-url'
import type { KeyClass, NamedEntity } from './key-classes'

export interface IndexBuild {
  ms: number
  peakMb: number
  /** What `data index` printed: built in …, or already built. */
  said: string
}

const peakMbOf = (pid: number) => {
  try {
    return Number(readFileSync(`/proc/${pid}/status`, 'utf8').match(/VmHWM:\s+(\d+) kB/)![1]) / 1024
  } catch {
    return 0 // the process is gone
  }
}

/** `data index` on the folder (builds the corpus's index when it has none; `rebuild`: removes it first), timed, its peak RSS sampled every 100 ms. */
export async function buildIndex(dir: string, root: string, rebuild: boolean): Promise<IndexBuild> {
  if (rebuild) for (const f of readdirSync(dir)) if (/\.index-v\d+\.sqlite/.test(f)) rmSync(join(dir, f), { force: true })
  const t0 = performance.now()
  const proc = Bun.spawn([process.execPath, 'src/index.ts', 'data', 'index', '--dir', dir], { cwd: root, stdout: 'pipe', stderr: 'pipe' })
  let peak = 0
  const sampler = setInterval(() => (peak = Math.max(peak, peakMbOf(proc.pid))), 100)
  const [out, err, code] = [await new Response(proc.stdout).text(), await new Response(proc.stderr).text(), await proc.exited]
  clearInterval(sampler)
  if (code !== 0) throw new Error(`data index on ${dir} exited with ${code}: ${err}`)
  return { ms: performance.now() - t0, peakMb: peak, said: out.trim().replace(/^.*: /, '') }
}

/** An entity's 90-day trend as the counts pass reads it: its status and what it counted. */
export interface Counted {
  status: number
  /** Items, per platform, and each window's items and engagement: what must not change for a rare entity. */
  counts: string
  items: number
  /** Set when the answer says its counts are estimated: the posts it read of `items`. */
  read?: number
}

/** The 90-day trend of every named entity, under `clients` clients (untimed: what is answered, and with which counts). */
export async function countsPass(url: string, entities: readonly NamedEntity[], clients: number): Promise<Map<string, Counted>> {
  const payer = createPayer()
  const price = usdToAtomic(routeById.get('china.trends')!.priceUsd)
  const out = new Map<string, Counted>()
  let next = 0
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (let i = next++; i < entities.length; i = next++) {
        const { keyword } = entities[i]!
        const res = await fetch(`${url}${routeUrl('china.trends', { keyword, timeframe: '90d' })}`, {
          headers: { 'x402-payment': await payer.proof({ value: price }) },
        })
        const data = ((await res.json()) as { data?: any }).data
        const counts = data
          ? JSON.stringify([data.evidence.total_items, data.evidence.by_platform, data.momentum_detail.recent, data.momentum_detail.prior])
          : ''
        out.set(keyword, {
          status: res.status,
          counts,
          items: data?.evidence.total_items ?? 0,
          ...(data?.evidence.sampled ? { read: data.evidence.sampled.items_read } : {}),
        })
      }
    }),
  )
  return out
}

type Counts = Map<string, Counted> | undefined

/** Per class: answered (200) of asked; and against the first folder, the same counts (rare) or the items' ratio (common). Rows of [label, a cell per folder]. */
export function entityRows(counted: readonly Counts[], entities: readonly NamedEntity[]): [string, string[]][] {
  const base = counted[0]
  const of = (cls: KeyClass) => entities.filter((e) => e.cls === cls)
  const answered = (c: Counts, cls: KeyClass) =>
    c ? `${of(cls).filter((e) => c.get(e.keyword)?.status === 200).length} of ${of(cls).length}` : '–'
  const same = (c: Counts, cls: KeyClass) => {
    if (!c || !base) return '–'
    const was = of(cls).filter((e) => base.get(e.keyword)?.status === 200)
    return `${was.filter((e) => c.get(e.keyword)?.counts === base.get(e.keyword)!.counts).length} of ${was.length}`
  }
  const ratio = (folderCounts: Counts, cls: KeyClass) => {
    const ratios = of(cls)
      .filter((e) => base?.get(e.keyword)?.items && folderCounts?.get(e.keyword)?.items)
      .map((e) => folderCounts!.get(e.keyword)!.items / base!.get(e.keyword)!.items)
      .sort((a, b) => a - b)
    return ratios.length
      ? `${ratios[Math.floor(ratios.length / 2)]!.toFixed(1)}x (${ratios[0]!.toFixed(1)}x-${ratios.at(-1)!.toFixed(1)}x)`
      : '–'
  }
  return [
    ['rare entities (long tail) answered, 90-day trend', counted.map((c) => answered(c, 'rare'))],
    ['… with the same counts as in the first folder', counted.map((c) => same(c, 'rare'))],
    ['common entities (head) answered', counted.map((c) => answered(c, 'common'))],
    ["… their items over the first folder's (median, range)", counted.map((c) => ratio(c, 'common'))],
    ['categories answered', counted.map((c) => answered(c, 'category'))],
  ]
}

/** A note naming every rare entity whose counts differ from the first folder's (none: no note). */
export function differingRare(counted: readonly Counts[], names: readonly string[], entities: readonly NamedEntity[]): string[] {
  const base = counted[0]
  const differing = counted.flatMap((folderCounts, index) =>
    folderCounts && base
      ? entities
          .filter(
            (e) =>
              e.cls === 'rare' &&
              base.get(e.keyword)?.status === 200 &&
              folderCounts.get(e.keyword)?.counts !== base.get(e.keyword)!.counts,
          )
          .map((entity) => {
            const [was, is] = [base.get(entity.keyword)!, folderCounts.get(entity.keyword)]
            const said =
              is?.status !== 200
                ? `${was.items} items, now answered ${is?.status ?? 'not at all'}`
                : is.read
                  ? `${was.items} items, now ${is.items}, estimated from ${is.read} read, as the answer says`
                  : `${was.items} items, now ${is.items}, counted as exact`
            return `${names[index]}: ${entity.keyword} (${said})`
          })
      : [],
  )
  return differing.length ? [`\nRare entities whose counts differ from the first folder's: ${differing.join('; ')}`] : []
}
