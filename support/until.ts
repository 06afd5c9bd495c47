/**
 * Waiting for a condition the code under test reports, never for a time: the one polling helper of the
 * tests. `until` waits for a value (not undefined; a rejection counts as not yet), `waitFor` for a
 * condition to hold; both fail naming what they waited for.
 */
export interface Polling {
  /** Give up after this many ms (default 30 s). */
  ms?: number
  /** Look again after this many ms (default 100). */
  every?: number
}

export async function until<T>(what: string, check: () => Promise<T | undefined>, polling: number | Polling = {}): Promise<T> {
  const { ms = 30_000, every = 100 } = typeof polling === 'number' ? { ms: polling } : polling
  const deadline = Date.now() + ms
  for (;;) {
    const value = await check().catch(() => undefined)
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`)
    await Bun.sleep(every)
  }
}

export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, polling: Polling = {}): Promise<void> {
  await until(what, async () => ((await condition()) ? true : undefined), { every: 20, ...polling })
}

/** Polls `<url>/ready` until it answers 200 (it is 503 while the indexes build after listening), and returns its body. */
export function untilReady(url: string, ms = 30_000): Promise<{ data: { checks: Record<string, unknown> } }> {
  return until(
    `${url}/ready to answer 200`,
    async () => {
      const r = await fetch(`${url}/ready`)
      return r.status === 200 ? ((await r.json()) as { data: { checks: Record<string, unknown> } }) : undefined
    },
    ms,
  )
}
