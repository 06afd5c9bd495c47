import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { isIP } from 'node:net'
import { formatIp, inCidr, limitKeyOf, parseCidr, parseIp } from '../../src/core/ip-address'

const canon = (text: string) => {
  const ip = parseIp(text)
  return ip && formatIp(ip)
}

describe('parseIp / formatIp', () => {
  test('IPv4: dotted quads only, no octal-looking or short forms', () => {
    expect(canon('192.0.2.1')).toBe('192.0.2.1')
    expect(canon('0.0.0.0')).toBe('0.0.0.0')
    expect(canon('255.255.255.255')).toBe('255.255.255.255')
    for (const bad of [
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
    ]) {
      expect([bad, canon(bad)]).toEqual([bad, null])
    }
  })

  test('IPv6: RFC 5952 canonical text (lowercase, longest zero run compressed, first of equal runs)', () => {
    expect(canon('2001:DB8:0:0:0:0:0:1')).toBe('2001:db8::1')
    expect(canon('2001:db8:0000:0000:1:0:0:1')).toBe('2001:db8::1:0:0:1')
    expect(canon('2001:db8:0:1:1:1:1:1')).toBe('2001:db8:0:1:1:1:1:1') // a single zero group is not compressed
    expect(canon('::')).toBe('::')
    expect(canon('::1')).toBe('::1')
    expect(canon('1::')).toBe('1::')
    expect(canon('fe80::0001')).toBe('fe80::1')
    expect(canon('0:0:0:0:0:0:0:0')).toBe('::')
  })

  test('IPv4-mapped IPv6 is the IPv4 address (a dual-stack socket reports IPv4 peers so)', () => {
    expect(canon('::ffff:127.0.0.1')).toBe('127.0.0.1')
    expect(canon('::FFFF:7f00:1')).toBe('127.0.0.1')
    expect(canon('0:0:0:0:0:ffff:192.0.2.9')).toBe('192.0.2.9')
    expect(parseIp('::ffff:10.1.2.3')).toEqual(parseIp('10.1.2.3'))
    // Not mapped: the deprecated IPv4-compatible form and NAT64 stay IPv6.
    expect(canon('::1.2.3.4')).toBe('::102:304')
    expect(canon('64:ff9b::192.0.2.1')).toBe('64:ff9b::c000:201')
  })

  test('malformed IPv6 is refused: two gaps, too many or too few groups, zone ids, IPv4 not last', () => {
    for (const bad of [
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
    ]) {
      expect([bad, canon(bad)]).toEqual([bad, null])
    }
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

  test('IPv4 edges: first and last address in, the neighbours out', () => {
    expect(inside('10.0.0.0', '10.0.0.0/8')).toBe(true)
    expect(inside('10.255.255.255', '10.0.0.0/8')).toBe(true)
    expect(inside('9.255.255.255', '10.0.0.0/8')).toBe(false)
    expect(inside('11.0.0.0', '10.0.0.0/8')).toBe(false)
    expect(inside('172.31.255.255', '172.16.0.0/12')).toBe(true)
    expect(inside('172.32.0.0', '172.16.0.0/12')).toBe(false)
    expect(inside('192.0.2.7', '192.0.2.7/32')).toBe(true)
    expect(inside('192.0.2.8', '192.0.2.7')).toBe(false) // a lone address is a /32
    expect(inside('203.0.113.1', '0.0.0.0/0')).toBe(true)
  })

  test('an IPv4 range matches the IPv4-mapped form, never other IPv6', () => {
    expect(inside('::ffff:10.9.9.9', '10.0.0.0/8')).toBe(true)
    expect(inside('::a09:909', '10.0.0.0/8')).toBe(false)
    expect(inside('2001:db8::1', '0.0.0.0/0')).toBe(false)
    expect(inside('10.1.1.1', '::ffff:10.0.0.0/104')).toBe(true)
    // Shorter than the mapped block: an IPv6 range, holding the mapped IPv4 addresses and more.
    expect(inside('1.2.3.4', '::ffff:0.0.0.0/95')).toBe(true)
    expect(inside('::fffe:1:1', '::ffff:0.0.0.0/95')).toBe(true)
    expect(inside('::fffd:1:1', '::ffff:0.0.0.0/95')).toBe(false)
  })

  test('IPv6 edges, prefixes not on a word boundary', () => {
    expect(inside('fd00::1', 'fc00::/7')).toBe(true)
    expect(inside('fbff:ffff::1', 'fc00::/7')).toBe(false)
    expect(inside('fe00::', 'fc00::/7')).toBe(false)
    expect(inside('fe80::1', 'fe80::/10')).toBe(true)
    expect(inside('febf:ffff::', 'fe80::/10')).toBe(true)
    expect(inside('fec0::', 'fe80::/10')).toBe(false)
    expect(inside('2001:db8:0:0:8000::', '2001:db8::/65')).toBe(false)
    expect(inside('2001:db8:0:0:7fff:ffff:ffff:ffff', '2001:db8::/65')).toBe(true)
    expect(inside('::1', '::1/128')).toBe(true)
    expect(inside('::2', '::1/128')).toBe(false)
    expect(inside('1.2.3.4', '::/0')).toBe(true) // ::/0 is everything, mapped IPv4 included
  })

  test('host bits past the prefix are ignored (10.1.2.3/8 is 10.0.0.0/8)', () => {
    expect(parseCidr('10.1.2.3/8')).toEqual(parseCidr('10.0.0.0/8'))
    expect(inside('10.200.0.1', '10.1.2.3/8')).toBe(true)
  })

  test('bad prefixes are refused', () => {
    for (const bad of [
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/',
      '10.0.0.0/-1',
      '10.0.0.0/8/8',
      '10.0.0.0/08a',
      '/8',
      'loopback',
      '10.0.0.0/ 8',
    ]) {
      expect([bad, parseCidr(bad)]).toEqual([bad, null])
    }
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
