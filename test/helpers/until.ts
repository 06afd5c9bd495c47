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
