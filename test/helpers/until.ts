/** Polls `check` every 100 ms until it returns a value (not undefined; a rejection counts as not yet), at most `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const v = await check().catch(() => undefined)
    if (v !== undefined) return v
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(100)
  }
}

/** Polls `<url>/ready` until it answers 200 (it is 503 while the indexes build after listening), and returns its body. */
export function untilReady(url: string, ms = 30_000): Promise<{ data: { checks: Record<string, unknown> } }> {
  return until(`${url}/ready to answer 200`, async () => {
    const r = await fetch(`${url}/ready`)
    return r.status === 200 ? ((await r.json()) as { data: { checks: Record<string, unknown> } }) : undefined
  }, ms)
}
