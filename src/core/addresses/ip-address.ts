/**
 * IPv4 and IPv6 addresses and CIDR ranges, parsed strictly (no octal, no zone ids, no shorthand such as
 * `10.1`). An address is four 32-bit words of its IPv6 form; IPv4 is held IPv4-mapped (::ffff:a.b.c.d),
 * so `127.0.0.1`, `::ffff:127.0.0.1` (a dual-stack socket's view of it) and `127.0.0.0/8` compare alike.
 *
 * Hand-written rather than `ipaddr.js` because of the hot path (BENCHMARKS.md, 2026-11-27, client
 * addresses): over ipaddr.js the IPv6 rate-limit key cost 4.6 µs a call instead of 0.9, and with
 * client-address.ts over proxy-addr the 402 path behind a trusted proxy fell from ~62k to ~42k answers/s.
 * ipaddr.js also reads `::1.2.3.4` (an IPv6 address) as `::ffff:1.2.3.4` (an IPv4 one).
 */
export type Ip = readonly [number, number, number, number]

export interface Cidr {
  ip: Ip
  /** Prefix length in the 128-bit form (an IPv4 /8 is 104). */
  bits: number
}

const DEC_OCTET = /^(?:0|[1-9]\d{0,2})$/
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/

function parseV4(text: string): number | null {
  const parts = text.split('.')
  if (parts.length !== 4) return null
  let value = 0
  for (const part of parts) {
    if (!DEC_OCTET.test(part)) return null
    const octet = Number(part)
    if (octet > 255) return null
    value = value * 256 + octet
  }
  return value
}

/** 16-bit groups of one side of `::`; an embedded IPv4 only as the very last part (`last`). */
function groups(text: string, last: boolean): number[] | null {
  if (text === '') return []
  const parts = text.split(':')
  const out: number[] = []
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    if (last && i === parts.length - 1 && part.includes('.')) {
      const v4 = parseV4(part)
      if (v4 === null) return null
      out.push(v4 >>> 16, v4 & 0xffff)
    } else if (HEX_GROUP.test(part)) out.push(parseInt(part, 16))
    else return null
  }
  return out
}

function parseV6(text: string): Ip | null {
  if (text.length > 45) return null
  const gap = text.indexOf('::')
  let all: number[]
  if (gap < 0) {
    const parsed = groups(text, true)
    if (!parsed || parsed.length !== 8) return null
    all = parsed
  } else {
    if (text.indexOf('::', gap + 1) >= 0) return null
    const head = groups(text.slice(0, gap), false)
    const tail = groups(text.slice(gap + 2), true)
    if (!head || !tail || head.length + tail.length > 7) return null
    all = [...head, ...Array<number>(8 - head.length - tail.length).fill(0), ...tail]
  }
  return [all[0]! * 0x10000 + all[1]!, all[2]! * 0x10000 + all[3]!, all[4]! * 0x10000 + all[5]!, all[6]! * 0x10000 + all[7]!]
}

/** An IPv4 (dotted quad) or IPv6 address, or null. */
export function parseIp(text: string): Ip | null {
  if (text.includes(':')) return parseV6(text)
  const v4 = parseV4(text)
  return v4 === null ? null : [0, 0, 0xffff, v4]
}

const isMapped = (ip: Ip) => ip[0] === 0 && ip[1] === 0 && ip[2] === 0xffff

/** Canonical text: dotted IPv4 for IPv4 and IPv4-mapped addresses, RFC 5952 IPv6 otherwise. */
export function formatIp(ip: Ip): string {
  if (isMapped(ip)) return `${ip[3] >>> 24}.${(ip[3] >>> 16) & 255}.${(ip[3] >>> 8) & 255}.${ip[3] & 255}`
  const hextets = ip.flatMap((w) => [w >>> 16, w & 0xffff])
  // The longest run of two or more zero groups becomes `::` (the first of equal runs).
  let best = -1
  let bestLen = 1
  for (let i = 0; i < 8; ) {
    if (hextets[i] !== 0) {
      i++
      continue
    }
    let runEnd = i
    while (runEnd < 8 && hextets[runEnd] === 0) runEnd++
    if (runEnd - i > bestLen) [best, bestLen] = [i, runEnd - i]
    i = runEnd
  }
  const hex = (from: number, to: number) =>
    hextets
      .slice(from, to)
      .map((n) => n.toString(16))
      .join(':')
  return best < 0 ? hex(0, 8) : `${hex(0, best)}::${hex(best + bestLen, 8)}`
}

/** `a.b.c.d/n` (n 0-32), `v6/n` (n 0-128) or a lone address (all its bits); host bits past the prefix are ignored. */
export function parseCidr(text: string): Cidr | null {
  const slash = text.indexOf('/')
  const addr = slash < 0 ? text : text.slice(0, slash)
  const ip = parseIp(addr)
  if (!ip) return null
  const v4 = !addr.includes(':')
  const width = v4 ? 32 : 128
  let bits = width
  if (slash >= 0) {
    const len = text.slice(slash + 1)
    if (!/^\d{1,3}$/.test(len) || Number(len) > width) return null
    bits = Number(len)
  }
  if (v4) bits += 96
  return { ip: ip.map((w, i) => (w & maskOf(bits, i)) >>> 0) as unknown as Ip, bits }
}

/** The mask of word `wordIndex` (0-3) of a prefix of `bits`. */
function maskOf(bits: number, wordIndex: number): number {
  const prefixBits = Math.min(32, Math.max(0, bits - 32 * wordIndex))
  return prefixBits === 0 ? 0 : prefixBits === 32 ? 0xffffffff : (0xffffffff << (32 - prefixBits)) >>> 0
}

export function inCidr(ip: Ip, range: Cidr): boolean {
  for (let i = 0; i < 4; i++) {
    const mask = maskOf(range.bits, i)
    if (mask === 0) return true
    if ((ip[i]! & mask) >>> 0 !== range.ip[i]) return false
  }
  return true
}

/**
 * The key a per-client limit counts an address under: an IPv4 address itself, an IPv6 address by its
 * first `ipv6Prefix` bits (`2001:db8:1:2::/64`): one subscriber holds a whole /64, so counting each of
 * its addresses apart would give one client billions of limits. Unparsable text is its own key.
 */
export function limitKeyOf(address: string, ipv6Prefix: number): string {
  if (!address.includes(':')) return address // IPv4 (the client address is already in dotted form): nothing to parse
  const ip = parseIp(address)
  if (!ip || isMapped(ip) || ipv6Prefix >= 128) return address
  const masked = ip.map((word, i) => (word & maskOf(ipv6Prefix, i)) >>> 0) as unknown as Ip
  return `${formatIp(masked)}/${ipv6Prefix}`
}
