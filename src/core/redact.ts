/**
 * What must never leave the process: RPC endpoints carry their provider's key in the path or query
 * (`…/v3/<key>`), facilitator headers carry tokens, and libraries (viem, @x402/*) put whatever they were
 * given into their error messages. Every text that may hold such a message passes through `redact`
 * before it reaches a log line, a ledger row, an error envelope, /ready or /metrics.
 */

/** Secret values named by the configuration (keys, header values, whole endpoint URLs), longest first. */
let secrets: string[] = []

/** Remembers values that must never be printed; values under 8 characters are not secrets worth a scan. */
export function keepSecret(...values: readonly (string | undefined)[]): void {
  const fresh = values.filter((v): v is string => typeof v === 'string' && v.length >= 8)
  secrets = [...new Set([...secrets, ...fresh])].sort((a, b) => b.length - a.length)
}

const URL_IN_TEXT = /\b(?:https?|wss?):\/\/[^\s"'<>`\\)\]]+/gi

/** A URL as it may be shown: its origin alone (no user, password, path or query, where keys travel). */
export function urlOrigin(url: string): string {
  try {
    const parsed = new URL(url)
    const bare = parsed.pathname === '/' && !parsed.search && !parsed.username && !parsed.password
    return bare ? parsed.origin : `${parsed.origin}/…`
  } catch {
    return '[url]'
  }
}

/** The text with every remembered secret and every URL's path, query and credentials taken out. */
export function redact(text: string): string {
  let out = text
  for (const secret of secrets) if (out.includes(secret)) out = out.split(secret).join('[redacted]')
  return out.includes('://') ? out.replace(URL_IN_TEXT, urlOrigin) : out
}

/** An error's message, redacted: for texts built from what a library threw. */
export function redactedMessage(error: unknown): string {
  return redact(error instanceof Error ? error.message : String(error))
}
