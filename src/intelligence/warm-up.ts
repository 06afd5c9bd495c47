/**
 * Sample answers of the known entities, computed in the background once the datasets are indexed, so
 * that a buyer's first question about a known topic, brand, category or destination (with the default
 * parameters) is answered from the cache. Only for the embedded corpus: a live answer costs provider
 * requests, and is computed when a buyer pays for it.
 *
 * Never ahead of a request: an ask starts only when the service is quiet (no request's evidence loop
 * waiting, no DuckDB connection busy), and its loops run at background priority (turns.ts), so a request
 * that arrives meanwhile takes every slice it needs. Answers expire with INTELLIGENCE_CACHE_TTL_SECONDS;
 * a pass is repeated after that long.
 */
import { PLATFORM_TOKENS } from '../catalog'
import type { HandlerMap, Logger } from '../core'
import type { EntityIndex, EntityKind } from './names/entities'
import { inBackground } from './turns'

export interface WarmUpAsk {
  routeId: string
  query: Record<string, string>
}

export interface WarmUpPass {
  answers: number
  failed: number
  seconds: number
}

/** Kinds a buyer asks the China routes about by name (creators are asked for through the KOL routes). */
const ASKED_KINDS: readonly EntityKind[] = ['topic', 'brand', 'category', 'destination']
/** How often a waiting pass looks whether the service is quiet. */
const QUIET_POLL_MS = 50

/** The default-parameter asks of every known topic, brand, category and destination (and each category's KOLs per platform). */
export function warmUpAsks(index: EntityIndex): WarmUpAsk[] {
  return index.entities
    .filter((entity) => ASKED_KINDS.includes(entity.kind))
    .flatMap((entity): WarmUpAsk[] => [
      { routeId: 'china.trends', query: { keyword: entity.name } },
      { routeId: 'china.sentiment', query: { entity: entity.name } },
      // A category's KOL shortlist, on all platforms and on each (the creator population is read once).
      ...(entity.kind === 'category'
        ? [undefined, ...PLATFORM_TOKENS].map((platform) => ({
            routeId: 'china.kols',
            query: { category: entity.name, ...(platform ? { platform } : {}) },
          }))
        : []),
    ])
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** One pass over `asks`, each once `quiet()`; stops early when `signal` aborts. */
export async function warmUp(
  handlers: HandlerMap,
  asks: readonly WarmUpAsk[],
  options: { quiet: () => boolean; signal: AbortSignal },
): Promise<WarmUpPass> {
  const started = performance.now()
  let answers = 0
  let failed = 0
  for (const ask of asks) {
    while (!options.quiet() && !options.signal.aborted) await pause(QUIET_POLL_MS)
    if (options.signal.aborted) break
    try {
      await inBackground(() => handlers[ask.routeId]!.prepare({ query: ask.query, params: {} }).run())
      answers++
    } catch {
      failed++ // a name without evidence is a 404 for its buyer too: nothing to keep
    }
  }
  return { answers, failed, seconds: (performance.now() - started) / 1000 }
}

/** What /ready says of the warm-up. */
export interface WarmUpState {
  state: 'waiting for the indexes' | 'warming' | 'warm'
  passes: number
  last?: WarmUpPass
}

/**
 * Passes over the known entities' asks: the first once `indexed()` resolves, the next `repeatSeconds`
 * after each (when the answers it cached expire). Disposing stops it.
 */
export function startWarmUp(options: {
  handlers: HandlerMap
  indexed: () => Promise<EntityIndex>
  quiet: () => boolean
  repeatSeconds: number
  logger: Pick<Logger, 'info' | 'warn'>
}): Disposable & { state(): WarmUpState } {
  const stop = new AbortController()
  let timer: ReturnType<typeof setTimeout> | undefined
  let state: WarmUpState = { state: 'waiting for the indexes', passes: 0 }
  const pass = async () => {
    const index = await options.indexed()
    if (stop.signal.aborted) return
    state = { ...state, state: 'warming' }
    const done = await warmUp(options.handlers, warmUpAsks(index), { quiet: options.quiet, signal: stop.signal })
    if (stop.signal.aborted) return
    state = { state: 'warm', passes: state.passes + 1, last: { ...done, seconds: Math.round(done.seconds * 10) / 10 } }
    options.logger.info('sample answers warmed', {
      answers: done.answers,
      without_evidence: done.failed,
      seconds: Math.round(done.seconds),
    })
    timer = setTimeout(run, options.repeatSeconds * 1000)
    timer.unref()
  }
  const run = () => void pass().catch((e: unknown) => options.logger.warn('warming the sample answers failed', { error: String(e) }))
  run()
  return {
    state: () => state,
    [Symbol.dispose]() {
      stop.abort()
      clearTimeout(timer)
    },
  }
}
