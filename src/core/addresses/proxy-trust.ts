/**
 * TRUSTED_PROXIES and CLIENT_IP_HEADER as parsed settings: which peers may name the client in a
 * forwarding header, and which header. Parsed by config/ at start-up and read by http/requests/client-address.ts
 * on every request, so it sits below both.
 */
import { inCidr, parseCidr, parseIp, type Cidr, type Ip } from './ip-address'

/** The header the trusted proxies write: one only, because a proxy passes the other through from the client unchanged. */
export const CLIENT_IP_HEADERS = ['x-forwarded-for', 'forwarded'] as const
export type ClientIpHeader = (typeof CLIENT_IP_HEADERS)[number]

/** Names for the usual ranges (Express's and Caddy's words): loopback, private (RFC 1918 and IPv6 unique local), link-local. */
export const PROXY_KEYWORDS: Record<string, readonly string[]> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  private: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
}

const FIRST_IPV4 = parseIp('0.0.0.0')!
const LAST_IPV4 = parseIp('255.255.255.255')!

/** Bounds of the work one request can cause: only the header's last `headerChars`, at most `hops` entries. */
export const FORWARDED_LIMITS = { headerChars: 2048, hops: 20, entries: 256 } as const

export class ProxyTrust {
  private constructor(
    private readonly ranges: readonly Cidr[],
    readonly header: ClientIpHeader,
    /** The setting as written, for the start-up banner. */
    readonly description: string,
  ) {}

  /** `TRUSTED_PROXIES`: comma-separated addresses, CIDRs and keywords. Throws an Error naming the bad entry. */
  static parse(list: string, header: ClientIpHeader = 'x-forwarded-for'): ProxyTrust {
    const entries = list.split(',').map((e) => e.trim())
    if (entries.length > FORWARDED_LIMITS.entries) throw new Error(`more than ${FORWARDED_LIMITS.entries} entries`)
    const ranges: Cidr[] = []
    for (const entry of entries) {
      if (entry === '') throw new Error('an empty entry (two commas, or a comma at an end)')
      const keyword = PROXY_KEYWORDS[entry.toLowerCase()]
      const texts = keyword ?? [entry]
      for (const text of texts) {
        const range = parseCidr(text)
        if (!range)
          throw new Error(
            `${JSON.stringify(entry)} is not an IPv4/IPv6 address, a CIDR range (10.0.0.0/8, fd00::/8) or one of ${Object.keys(PROXY_KEYWORDS).join(', ')}`,
          )
        // Trusting all IPv4 (0.0.0.0/0, ::/0, ::ffff:0:0/96, ::/1 …) would let any client name any address.
        if (inCidr(FIRST_IPV4, range) && inCidr(LAST_IPV4, range))
          throw new Error(`${JSON.stringify(entry)} trusts every IPv4 address: any client could then choose its own`)
        ranges.push(range)
      }
    }
    return new ProxyTrust(ranges, header, entries.join(','))
  }

  trusts(ip: Ip): boolean {
    for (const range of this.ranges) if (inCidr(ip, range)) return true
    return false
  }
}
