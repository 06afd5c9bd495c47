/**
 * DNS-rebinding protection of `/mcp` (MCP Streamable HTTP, "Security Warning"): the `Host` must be a
 * name this service answers to and a browser's `Origin`, when sent, an origin allowed to call it.
 * A rebinding page's requests carry the attacker's host name in both, so either check stops it; the
 * Origin check also stops other sites calling a server reached under a good name (e.g. localhost).
 *
 * Not the SDK's `allowedHosts`/`allowedOrigins` transport options: they are deprecated in 1.32 in
 * favour of middleware, match Host exactly (no "localhost on any port"), and run inside the transport,
 * after our body read and server set-up. Its `hostHeaderValidation` is Express-only; its semantics
 * (host name without port, 403 with a JSON-RPC error of code -32000) are kept here.
 */

import { jsonRpcErrorResponse } from './json-rpc-error'

/** This machine: allowed on any port, over http or https. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]'])

/** `host[:port]` as in a Host header: a DNS name, an IPv4 address or a bracketed IPv6 address. */
const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9-]+(?:\.[a-z0-9-]+)*)(?::\d{1,5})?$/i

export interface McpOriginPolicy {
  /** PUBLIC_BASE_URL: its origin may call, its host name may be the Host (any port: proxies rewrite it). */
  publicBaseUrl: string
  /** MCP_ALLOWED_ORIGINS, normalised origins; `*` accepts any Origin. Their host names are allowed Hosts. */
  allowedOrigins: readonly string[]
}

/** A refused request: 403 with a JSON-RPC error response without `id` (the body was never read). */
export class McpRefusal {
  constructor(
    readonly code: 'forbidden_host' | 'forbidden_origin',
    readonly message: string,
    readonly value: string,
  ) {}

  response(requestId: string): Response {
    const data = { code: this.code, [this.code === 'forbidden_host' ? 'host' : 'origin']: this.value }
    // The body is not read: Bun drops it after the answer (kept open, so the client reads the 403, responses.ts).
    return jsonRpcErrorResponse(403, requestId, this.message, data)
  }
}

export type McpOriginGuard = (request: Request) => McpRefusal | undefined

const hostnameOf = (host: string) => (HOST.test(host) ? host.replace(/:\d+$/, '').toLowerCase() : undefined)

/** The check, built once: a few header reads per request, no body, no session, no MCP server. */
export function mcpOriginGuard(policy: McpOriginPolicy): McpOriginGuard {
  const publicUrl = new URL(policy.publicBaseUrl)
  const anyOrigin = policy.allowedOrigins.includes('*')
  const origins = new Set([publicUrl.origin, ...policy.allowedOrigins.filter((o) => o !== '*')])
  const hostnames = new Set([...LOOPBACK, ...[...origins].map((o) => new URL(o).hostname)])
  const names = [...hostnames].join(', ')

  return (request) => {
    // No Host header (HTTP/1.0, or a Request built in process): judged by the URL, which Bun builds from Host.
    const host = request.headers.get('host') ?? new URL(request.url).host
    const hostname = hostnameOf(host)
    if (!hostname || !hostnames.has(hostname)) {
      return new McpRefusal(
        'forbidden_host',
        `Forbidden: Host "${host.slice(0, 100)}" is not a name of this server (${names}); see MCP_ALLOWED_ORIGINS.`,
        host.slice(0, 100),
      )
    }
    const origin = request.headers.get('origin')
    if (origin === null || anyOrigin) return undefined // no Origin: not a browser, so not a rebinding page
    let url: URL | undefined
    try {
      url = new URL(origin)
    } catch {
      // `null` (sandboxed frames, file:) and garbage are refused below
    }
    const allowed =
      url && (url.protocol === 'http:' || url.protocol === 'https:') && (LOOPBACK.has(url.hostname) || origins.has(url.origin))
    if (allowed) return undefined
    return new McpRefusal(
      'forbidden_origin',
      `Forbidden: Origin "${origin.slice(0, 100)}" may not call /mcp (allowed: ${publicUrl.origin}, localhost on any port, MCP_ALLOWED_ORIGINS).`,
      origin.slice(0, 100),
    )
  }
}
