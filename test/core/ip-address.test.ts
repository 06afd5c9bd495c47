import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { isIP } from 'node:net'
import { formatIp, inCidr, limitKeyOf, parseCidr, parseIp } from '../../src/core/addresses/ip-address'

const canon = (text: string) => {
  const ip = parseIp(text)
  return ip && formatIp(ip)
}
/** Each text is refused: `parse` gives null (a failure names the text). */
const expectRefused = (parse: (text: string) => unknown, texts: string[]) => {
  for (const text of texts) expect([text, parse(text)]).toEqual([text, null])
}
/** Each address's canonical text (a failure names the address). */
const expectCanonical = (cases: Record<string, string>) => {
  for (const [text, canonical] of Object.entries(cases)) expect([text, canon(text)]).toEqual([text, canonical])
}

describe('parseIp / formatIp', () => {
  test('IPv4: dotted quads only, no octal-looking or short forms', () => {
    expectCanonical({ '192.0.2.1': '192.0.2.1', '0.0.0.0': '0.0.0.0', '255.255.255.255': '255.255.255.255' })
    expectRefused(canon, [
      '256.1.1.1',
      '1.2.3',
      '1.2.3.4.5',
      '01.2.3.4',
      '1.2.3.4 ',
      ' 1.2.3.4',
      '1..3.4',
      '1.2.3.-4',
      '0x7f.0.0.1',
      '127.1',
      '',
      '1.2.3.4/32',
      '１.2.3.4',
    ])
  })

  test('IPv6: RFC 5952 canonical text (lowercase, longest zero run compressed, first of equal runs)', () => {
    expectCanonical({
      '2001:DB8:0:0:0:0:0:1': '2001:db8::1',
      '2001:db8:0000:0000:1:0:0:1': '2001:db8::1:0:0:1',
      '2001:db8:0:1:1:1:1:1': '2001:db8:0:1:1:1:1:1', // a single zero group is not compressed
      '::': '::',
      '::1': '::1',
      '1::': '1::',
      'fe80::0001': 'fe80::1',
      '0:0:0:0:0:0:0:0': '::',
    })
  })

  test('IPv4-mapped IPv6 is the IPv4 address (a dual-stack socket reports IPv4 peers so)', () => {
    expectCanonical({ '::ffff:127.0.0.1': '127.0.0.1', '::FFFF:7f00:1': '127.0.0.1', '0:0:0:0:0:ffff:192.0.2.9': '192.0.2.9' })
    expect(parseIp('::ffff:10.1.2.3')).toEqual(parseIp('10.1.2.3'))
    // Not mapped: the deprecated IPv4-compatible form and NAT64 stay IPv6.
    expectCanonical({ '::1.2.3.4': '::102:304', '64:ff9b::192.0.2.1': '64:ff9b::c000:201' })
  })

  test('malformed IPv6 is refused: two gaps, too many or too few groups, zone ids, IPv4 not last', () => {
    expectRefused(canon, [
      '1::2::3',
      ':::',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7::8',
      'fe80::1%eth0',
      '::1.2.3.4:5',
      '1.2.3.4::',
      '12345::',
      'g::1',
      ':1:2:3:4:5:6:7',
      '1:2:3:4:5:6:7:',
      '[::1]',
      '::ffff:1.2.3.256',
      'a'.repeat(46),
    ])
  })

  test('agrees with the WHATWG URL parser on every IPv6 address (random 128-bit values, zero runs favoured)', () => {
    const group = fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 0, max: 0xffff }))
    fc.assert(
      fc.property(fc.array(group, { minLength: 8, maxLength: 8 }), (g) => {
        const full = g.map((n) => n.toString(16).toUpperCase()).join(':')
        const mine = canon(full)!
        expect(isIP(mine)).toBeGreaterThan(0)
        expect(parseIp(mine)).toEqual(parseIp(full))
        // URL writes IPv4-mapped addresses in hex; everything else must be the same text.
        if (!(g.slice(0, 5).every((n) => n === 0) && g[5] === 0xffff)) expect(mine).toBe(new URL(`http://[${full}]/`).hostname.slice(1, -1))
      }),
      { numRuns: 2000 },
    )
  })
})

describe('parseCidr / inCidr', () => {
  const inside = (ip: string, range: string) => inCidr(parseIp(ip)!, parseCidr(range)!)
  /** For each range, addresses in it and out of it (a failure names the address and the range). */
  const expectRanges = (ranges: Record<string, { in?: string[]; out?: string[] }>) => {
    for (const [range, addresses] of Object.entries(ranges)) {
      for (const ip of addresses.in ?? []) expect([ip, range, inside(ip, range)]).toEqual([ip, range, true])
      for (const ip of addresses.out ?? []) expect([ip, range, inside(ip, range)]).toEqual([ip, range, false])
    }
  }

  test('IPv4 edges: first and last address in, the neighbours out', () => {
    expectRanges({
      '10.0.0.0/8': { in: ['10.0.0.0', '10.255.255.255'], out: ['9.255.255.255', '11.0.0.0'] },
      '172.16.0.0/12': { in: ['172.31.255.255'], out: ['172.32.0.0'] },
      '192.0.2.7/32': { in: ['192.0.2.7'] },
      '192.0.2.7': { out: ['192.0.2.8'] }, // a lone address is a /32
      '0.0.0.0/0': { in: ['203.0.113.1'] },
    })
  })

  test('an IPv4 range matches the IPv4-mapped form, never other IPv6', () => {
    expectRanges({
      '10.0.0.0/8': { in: ['::ffff:10.9.9.9'], out: ['::a09:909'] },
      '0.0.0.0/0': { out: ['2001:db8::1'] },
      '::ffff:10.0.0.0/104': { in: ['10.1.1.1'] },
      // Shorter than the mapped block: an IPv6 range, holding the mapped IPv4 addresses and more.
      '::ffff:0.0.0.0/95': { in: ['1.2.3.4', '::fffe:1:1'], out: ['::fffd:1:1'] },
    })
  })

  test('IPv6 edges, prefixes not on a word boundary', () => {
    expectRanges({
      'fc00::/7': { in: ['fd00::1'], out: ['fbff:ffff::1', 'fe00::'] },
      'fe80::/10': { in: ['fe80::1', 'febf:ffff::'], out: ['fec0::'] },
      '2001:db8::/65': { in: ['2001:db8:0:0:7fff:ffff:ffff:ffff'], out: ['2001:db8:0:0:8000::'] },
      '::1/128': { in: ['::1'], out: ['::2'] },
      '::/0': { in: ['1.2.3.4'] }, // ::/0 is everything, mapped IPv4 included
    })
  })

  test('host bits past the prefix are ignored (10.1.2.3/8 is 10.0.0.0/8)', () => {
    expect(parseCidr('10.1.2.3/8')).toEqual(parseCidr('10.0.0.0/8'))
    expect(inside('10.200.0.1', '10.1.2.3/8')).toBe(true)
  })

  test('bad prefixes are refused', () => {
    expectRefused(parseCidr, [
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      '10.0.0.0/08a',
      '/8',
      'loopback',
      '10.0.0.0/ 8',
    ])
  })
})

describe('limitKeyOf (per-IP limits)', () => {
  test('IPv6 clients count by their /64: every address of one subscriber shares one key, another /64 has its own', () => {
    const a = limitKeyOf('2001:db8:1:2::1', 64)
    expect(a).toBe('2001:db8:1:2::/64')
    expect(limitKeyOf('2001:db8:1:2:ffff:ffff:ffff:ffff', 64)).toBe(a)
    expect(limitKeyOf('2001:0DB8:0001:0002:0:0:0:99', 64)).toBe(a)
    expect(limitKeyOf('2001:db8:1:3::1', 64)).not.toBe(a)
    expect(limitKeyOf('2001:db8:1:2::1', 56)).toBe('2001:db8:1::/56')
    expect(limitKeyOf('2001:db8:1:2::1', 128)).toBe('2001:db8:1:2::1')
  })

  test('IPv4 (also IPv4-mapped) and unparsable text are their own keys', () => {
    expect(limitKeyOf('203.0.113.7', 64)).toBe('203.0.113.7')
    expect(limitKeyOf('::ffff:203.0.113.7', 64)).toBe('::ffff:203.0.113.7')
    expect(limitKeyOf('unknown', 64)).toBe('unknown')
  })
})
