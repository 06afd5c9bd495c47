/**
 * The client's address behind reverse proxies, as nginx's realip module (`real_ip_recursive on`) and
 * Caddy's `trusted_proxies` find it: only when the socket peer is a trusted proxy is the forwarding
 * header read, right to left, skipping trusted hops; the first untrusted address is the client. What an
 * untrusted sender writes in the header is never read, and what a client writes to the left of the
 * address its first proxy appended is never reached.
 *
 * Not `proxy-addr` (Express's): it reads only X-Forwarded-For, from a Node request, takes an entry it
 * cannot parse for the client, and reads the whole header. Wrapped to do what this file does, it cost the
 * 402 path behind a trusted proxy a third of its throughput (~62k to ~42k answers/s; BENCHMARKS.md,
 * 2026-11-27, client addresses).
 */
import { formatIp, FORWARDED_LIMITS, type Ip, parseIp, type ProxyTrust } from '../../core'

/** A dual-stack socket reports IPv4 peers IPv4-mapped; logs and buckets use the dotted form. */
const unmapped = (address: string) => (address.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address)

const PORT = /^:\d{1,5}$/

/** A node as proxies write it: `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]`, `[2001:db8::1]:443`. */
function nodeAddress(text: string): Ip | null {
  if (text.startsWith('[')) {
    const close = text.indexOf(']')
    if (close < 0) return null
    const port = text.slice(close + 1)
    if (port !== '' && !(PORT.test(port) && Number(port.slice(1)) <= 65535)) return null
    const inner = text.slice(1, close)
    return inner.includes(':') ? parseIp(inner) : null
  }
  const colon = text.indexOf(':')
  if (colon >= 0 && text.indexOf(':', colon + 1) < 0) {
    const port = text.slice(colon)
    if (!(PORT.test(port) && Number(port.slice(1)) <= 65535)) return null
    return parseIp(text.slice(0, colon))
  }
  return parseIp(text)
}

/** The `for=` node of one RFC 7239 element (`for=192.0.2.1;proto=https`, `For="[2001:db8::1]:443"`); null for `unknown`, obfuscated or malformed. */
function forwardedFor(element: string): Ip | null {
  let node: string | undefined
  for (const pair of element.split(';')) {
    const trimmed = pair.trim()
    if (trimmed === '') continue
    const eq = trimmed.indexOf('=')
    if (eq < 0) return null
    if (trimmed.slice(0, eq).trimEnd().toLowerCase() !== 'for') continue
    if (node !== undefined) return null // a parameter may occur once per element
    node = trimmed.slice(eq + 1).trimStart()
  }
  if (node === undefined) return null
  if (node.startsWith('"')) {
    if (node.length < 2 || !node.endsWith('"') || node.includes('\\')) return null
    node = node.slice(1, -1)
  }
  return nodeAddress(node)
}

/**
 * The client of a request whose socket peer is `peer`. An untrusted (or unparsable) peer is the client,
 * its header unread. A trusted peer's header is walked right to left: the first untrusted address is the
 * client; when every entry is trusted, the leftmost. An entry that is not an address (`unknown`, garbage,
 * an empty entry, cut by the length bound) stops the walk at the nearest trusted hop, which is then the
 * client: a malformed header can only lump its sender in with its proxy, never pick another address.
 */
export function clientAddress(peer: string, headers: Headers, trust: ProxyTrust): string {
  const peerIp = parseIp(peer)
  if (!peerIp || !trust.trusts(peerIp)) return unmapped(peer)
  const value = headers.get(trust.header)
  if (!value) return formatIp(peerIp)
  // Several header lines arrive joined by ", ", the last line rightmost: one list, as RFC 9110 says.
  const cut = value.length > FORWARDED_LIMITS.headerChars
  const text = cut ? value.slice(-FORWARDED_LIMITS.headerChars) : value
  let nearest = peerIp
  let end = text.length
  for (let hop = 0; hop < FORWARDED_LIMITS.hops; hop++) {
    const comma = text.lastIndexOf(',', end - 1)
    if (comma < 0 && cut) break // the leftmost entry in reach was cut in half
    const entry = text.slice(comma + 1, end)
    const ip = trust.header === 'forwarded' ? forwardedFor(entry) : nodeAddress(entry.trim())
    if (!ip) break
    if (!trust.trusts(ip)) return formatIp(ip)
    nearest = ip
    if (comma < 0) break
    end = comma
  }
  return formatIp(nearest)
}

/** What the HTTP server knows of a request's socket (Bun's `server.requestIP`). */
export interface PeerSource {
  requestIP(request: Request): { address: string } | null
}

/**
 * Client addresses of live requests: the socket peer from the server, then `clientAddress` when proxies
 * are trusted. None in process (`app.handle`: no socket).
 */
export class ClientAddresses {
  constructor(
    private readonly server: () => PeerSource | null | undefined,
    private readonly trust?: ProxyTrust,
  ) {}

  of(request: Request): string | undefined {
    const peer = this.server()?.requestIP(request)?.address
    if (!peer) return undefined
    return this.trust ? clientAddress(peer, request.headers, this.trust) : unmapped(peer)
  }
}
