/** MCP_ALLOWED_ORIGINS as a parsed setting (config/ reads it; http/mcp-origin.ts enforces it). */

/** An origin as configured: scheme and authority, no credentials, path, query or fragment. */
const ORIGIN = /^https?:\/\/[^/?#@\s]+\/?$/i

/**
 * MCP_ALLOWED_ORIGINS, comma-separated: each `scheme://host[:port]` (http or https, no path) or `*`.
 * Returns the normalised origins, or the entry that is not one.
 */
export function parseAllowedOrigins(raw: string): { origins: string[] } | { invalid: string } {
  const origins: string[] = []
  for (const entry of raw
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)) {
    if (entry === '*') {
      origins.push('*')
      continue
    }
    if (!ORIGIN.test(entry)) return { invalid: entry }
    try {
      origins.push(new URL(entry).origin)
    } catch {
      return { invalid: entry }
    }
  }
  return { origins }
}
