import { describe, expect, test } from 'bun:test'
import fc from 'fast-check'
import { FORWARDED_LIMITS, ProxyTrust } from '../../../src/core/addresses/proxy-trust'
import { ClientAddresses, clientAddress } from '../../../src/http/requests/client-address'
import { parseIp } from '../../../src/core/addresses/ip-address'

const LOOPBACK = ProxyTrust.parse('loopback')
const headers = (...pairs: [string, string][]) => {
  const h = new Headers()
  for (const [name, value] of pairs) h.append(name, value)
  return h
}
const xff = (...values: string[]) => headers(...values.map((v) => ['X-Forwarded-For', v] as [string, string]))
const fwd = (...values: string[]) => headers(...values.map((v) => ['Forwarded', v] as [string, string]))

/** Whether `trust` trusts each address (a failure names the address). */
const expectTrusted = (trust: ProxyTrust, addresses: string[], trusted: boolean) => {
  for (const address of addresses) expect([address, trust.trusts(parseIp(address)!)]).toEqual([address, trusted])
}
/** Each header value sent by `peer` (through `header`) against the client address it must give (a failure names the value). */
const expectClients = (peer: string, header: (value: string) => Headers, trust: ProxyTrust, cases: Record<string, string>) => {
  for (const [value, client] of Object.entries(cases)) expect([value, clientAddress(peer, header(value), trust)]).toEqual([value, client])
}

describe('TRUSTED_PROXIES entries', () => {
  test('addresses, CIDRs and keywords, any case, spaces around entries', () => {
    const trust = ProxyTrust.parse(' Loopback , 10.0.0.0/8,2001:db8::/32, 192.0.2.7 ')
    expectTrusted(trust, ['127.0.0.1', '127.255.0.1', '::1', '::ffff:127.0.0.1', '10.3.4.5', '2001:db8:ffff::1', '192.0.2.7'], true)
    expectTrusted(trust, ['128.0.0.1', '::2', '11.0.0.1', '2001:db9::1', '192.0.2.8', '192.168.1.1'], false)
  })

  test('private and linklocal keywords', () => {
    const privateRanges = ProxyTrust.parse('private')
    expectTrusted(privateRanges, ['10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.0.1', 'fd12::1', 'fc00::1'], true)
    expectTrusted(privateRanges, ['172.32.0.1', '127.0.0.1', '::1', '100.64.0.1', 'fe80::1'], false)
    const linkLocal = ProxyTrust.parse('linklocal')
    expectTrusted(linkLocal, ['169.254.169.254', 'fe80::1'], true)
    expectTrusted(linkLocal, ['10.0.0.1'], false)
  })

  test('a bad entry is an error that names it and says what is allowed', () => {
    expect(() => ProxyTrust.parse('loopback,10.0.0.0/33')).toThrow(
      '"10.0.0.0/33" is not an IPv4/IPv6 address, a CIDR range (10.0.0.0/8, fd00::/8) or one of loopback, private, linklocal',
    )
    expect(() => ProxyTrust.parse('nginx')).toThrow('"nginx" is not')
    expect(() => ProxyTrust.parse('127.0.0.1,,::1')).toThrow('an empty entry')
    expect(() => ProxyTrust.parse('127.0.0.1,')).toThrow('an empty entry')
    expect(() => ProxyTrust.parse('fe80::1%eth0')).toThrow('is not')
    // Trusting every address would let any client choose its own.
    for (const everything of ['0.0.0.0/0', '::/0', '::ffff:0.0.0.0/96', '::/1'])
      expect(() => ProxyTrust.parse(`loopback,${everything}`)).toThrow(`"${everything}" trusts every IPv4 address`)
    expect(ProxyTrust.parse('0.0.0.0/1').trusts(parseIp('127.0.0.1')!)).toBe(true) // half is a (strange) choice, not everything
    expect(() =>
      ProxyTrust.parse(
        Array(FORWARDED_LIMITS.entries + 1)
          .fill('10.0.0.1')
          .join(','),
      ),
    ).toThrow(`more than ${FORWARDED_LIMITS.entries} entries`)
  })
})

describe('X-Forwarded-For', () => {
  test('an untrusted peer is the client; its header is ignored, however it is written', () => {
    expect(clientAddress('203.0.113.9', xff('198.51.100.1'), LOOPBACK)).toBe('203.0.113.9')
    expect(clientAddress('203.0.113.9', xff('127.0.0.1'), LOOPBACK)).toBe('203.0.113.9')
    expect(clientAddress('::ffff:203.0.113.9', xff('198.51.100.1'), LOOPBACK)).toBe('203.0.113.9')
    expect(clientAddress('2001:db8::9', fwd('for=198.51.100.1'), ProxyTrust.parse('loopback', 'forwarded'))).toBe('2001:db8::9')
  })

  test('a trusted peer without the header is the client', () => {
    expect(clientAddress('127.0.0.1', new Headers(), LOOPBACK)).toBe('127.0.0.1')
    expect(clientAddress('::ffff:127.0.0.1', xff(''), LOOPBACK)).toBe('127.0.0.1')
  })

  test('right to left, skipping trusted hops: the first untrusted address is the client', () => {
    expectClients('127.0.0.1', xff, ProxyTrust.parse('loopback,10.0.0.0/8'), {
      '198.51.100.1': '198.51.100.1',
      '198.51.100.1, 10.0.0.2': '198.51.100.1',
      '198.51.100.1,10.0.0.2 ,  10.0.0.3': '198.51.100.1',
      // A forged entry left of the real client is never reached.
      '1.1.1.1, 127.0.0.1, 198.51.100.1, 10.0.0.2': '198.51.100.1',
    })
  })

  test('a forged header through a proxy that appends: the address the proxy saw wins', () => {
    // nginx's $proxy_add_x_forwarded_for: "<what the client sent>, <client's socket address>"
    for (const forged of [
      '127.0.0.1',
      '10.0.0.1',
      '1.2.3.4',
      '::1',
      'unknown',
      '", 127.0.0.1',
      '1.2.3.4, 127.0.0.1',
      ' , ,',
      'x'.repeat(10_000),
    ]) {
      expect([forged, clientAddress('127.0.0.1', xff(`${forged}, 203.0.113.50`), LOOPBACK)]).toEqual([forged, '203.0.113.50'])
    }
  })

  test('when every entry is trusted, the leftmost (the client is itself a trusted host)', () => {
    expect(clientAddress('127.0.0.1', xff('127.0.0.3, 127.0.0.2'), LOOPBACK)).toBe('127.0.0.3')
  })

  test('IPv6 and IPv4-mapped, with and without brackets and ports; canonical output', () => {
    const t = ProxyTrust.parse('loopback,fd00::/8')
    expectClients('::1', xff, t, {
      '2001:DB8:0:0::1': '2001:db8::1',
      '[2001:db8::1]:4711': '2001:db8::1',
      '[2001:db8::1]': '2001:db8::1',
      '::ffff:198.51.100.1': '198.51.100.1',
    })
    expect(clientAddress('fd00::5', xff('198.51.100.1:52100, fd00::4'), t)).toBe('198.51.100.1')
    expect(clientAddress('::ffff:127.0.0.1', xff('198.51.100.1'), t)).toBe('198.51.100.1')
  })

  test('several header lines are one list, the last line rightmost', () => {
    expect(clientAddress('127.0.0.1', xff('198.51.100.1', '203.0.113.5'), LOOPBACK)).toBe('203.0.113.5')
    expect(clientAddress('127.0.0.1', xff('198.51.100.1', '127.0.0.2'), LOOPBACK)).toBe('198.51.100.1')
  })

  test('garbage stops the walk at the nearest trusted hop (never another address)', () => {
    const t = ProxyTrust.parse('loopback,10.0.0.0/8')
    for (const bad of [
      'unknown',
      'garbage',
      '',
      ' ',
      '1.2.3.4.5',
      '300.1.1.1',
      '[::1',
      '[1.2.3.4]',
      '1.2.3.4:99999',
      '1.2.3.4:',
      'fe80::1%eth0',
      '_hidden',
      '198.51.100.1 203.0.113.1',
      '198.51.100.1;for=1.1.1.1',
      '198.51.100.1,',
    ]) {
      expect([bad, clientAddress('127.0.0.1', xff(bad), t)]).toEqual([bad, '127.0.0.1'])
      expect([bad, clientAddress('127.0.0.1', xff(`${bad}, 10.0.0.7`), t)]).toEqual([bad, '10.0.0.7'])
    }
  })

  test('bounded work: only the last 2 KiB and 20 hops are read', () => {
    // 30 trusted hops: the walk stops after 20 at a trusted address instead of reading on.
    const hops = Array.from({ length: 30 }, (_, i) => `10.0.0.${i + 1}`)
    expect(clientAddress('127.0.0.1', xff(['198.51.100.1', ...hops].join(', ')), ProxyTrust.parse('loopback,10.0.0.0/8'))).toBe('10.0.0.11')
    // An entry cut by the 2 KiB bound is not read as an address (unbounded, this would be 198.51.100.1).
    const padded = `198.51.100.1${' '.repeat(FORWARDED_LIMITS.headerChars)}, 127.0.0.1`
    expect(clientAddress('127.0.0.1', xff(padded), LOOPBACK)).toBe('127.0.0.1')
    // A megabyte of junk left of the proxy's entry changes nothing.
    expect(clientAddress('127.0.0.1', xff(`${'9'.repeat(1_000_000)}, 203.0.113.5`), LOOPBACK)).toBe('203.0.113.5')
  })

  test('never throws and always answers an address, whatever the header holds', () => {
    const t = ProxyTrust.parse('loopback,private')
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(fc.string(), fc.constantFrom('10.0.0.1', '::1', '[fd00::1]:80', '198.51.100.7', 'for=1.1.1.1', ',', ';', '"', '[', ']')),
          { maxLength: 12 },
        ),
        (parts) => {
          const got = clientAddress('127.0.0.1', xff(parts.join('')), t)
          expect(parseIp(got)).not.toBeNull()
          const got2 = clientAddress('127.0.0.1', fwd(parts.join('')), ProxyTrust.parse('loopback,private', 'forwarded'))
          expect(parseIp(got2)).not.toBeNull()
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe('Forwarded (RFC 7239), when CLIENT_IP_HEADER=forwarded', () => {
  const t = ProxyTrust.parse('loopback,10.0.0.0/8', 'forwarded')

  test('the for= of each element, right to left; other parameters and case do not matter', () => {
    expectClients('127.0.0.1', fwd, t, {
      'for=198.51.100.1': '198.51.100.1',
      'For=198.51.100.1;proto=https;by=10.0.0.1': '198.51.100.1',
      'proto=https; for="198.51.100.1:4711"': '198.51.100.1',
      'for="[2001:db8:cafe::17]:4711"': '2001:db8:cafe::17',
      'for="[2001:db8:cafe::17]"': '2001:db8:cafe::17',
      'for=1.1.1.1, for=198.51.100.1;proto=http, for=10.0.0.5': '198.51.100.1',
    })
    expect(clientAddress('127.0.0.1', fwd('for=1.1.1.1', 'for=198.51.100.1'), t)).toBe('198.51.100.1')
  })

  test('X-Forwarded-For is not read then (a proxy that writes Forwarded passes it through from the client)', () => {
    expect(clientAddress('127.0.0.1', headers(['X-Forwarded-For', '1.1.1.1'], ['Forwarded', 'for=198.51.100.1']), t)).toBe('198.51.100.1')
    expect(clientAddress('127.0.0.1', xff('1.1.1.1'), t)).toBe('127.0.0.1')
    // ... and the other way round.
    expect(clientAddress('127.0.0.1', headers(['X-Forwarded-For', '198.51.100.1'], ['Forwarded', 'for=1.1.1.1']), LOOPBACK)).toBe(
      '198.51.100.1',
    )
  })

  test('unknown, obfuscated, duplicated or malformed for= stops at the nearest trusted hop', () => {
    for (const bad of [
      'for=unknown',
      'for=_hidden',
      'for=198.51.100.1;for=1.1.1.1',
      'proto=https',
      'for="198.51.100.1',
      'for="1.1.1.1\\"',
      'for=[2001:db8::1',
      'for',
      'for=',
      '"for=1.1.1.1"',
      'for="2001:db8::1"extra',
    ]) {
      expect([bad, clientAddress('127.0.0.1', fwd(`${bad}, for=10.0.0.4`), t)]).toEqual([bad, '10.0.0.4'])
    }
    // A quoted comma from the client splits into pieces that are not addresses; the proxy's own element still counts.
    expect(clientAddress('127.0.0.1', fwd('for="1.1.1.1, for=2.2.2.2", for=198.51.100.1'), t)).toBe('198.51.100.1')
  })

  test('empty pairs are allowed by the grammar', () => {
    expect(clientAddress('127.0.0.1', fwd(';for=198.51.100.1;;proto=https;'), t)).toBe('198.51.100.1')
  })
})

describe('ClientAddresses (per request)', () => {
  const request = new Request('http://localhost/', { headers: { 'x-forwarded-for': '198.51.100.1' } })

  test('no server (in process): no address; no trust: the socket peer, IPv4-mapped unwrapped', () => {
    expect(new ClientAddresses(() => null, LOOPBACK).of(request)).toBeUndefined()
    expect(new ClientAddresses(() => ({ requestIP: () => ({ address: '::ffff:127.0.0.1' }) })).of(request)).toBe('127.0.0.1')
    expect(new ClientAddresses(() => ({ requestIP: () => ({ address: '2001:db8::1' }) })).of(request)).toBe('2001:db8::1')
  })

  test('a trusted peer: the forwarded client; an untrusted one: the peer', () => {
    expect(new ClientAddresses(() => ({ requestIP: () => ({ address: '::ffff:127.0.0.1' }) }), LOOPBACK).of(request)).toBe('198.51.100.1')
    expect(new ClientAddresses(() => ({ requestIP: () => ({ address: '203.0.113.3' }) }), LOOPBACK).of(request)).toBe('203.0.113.3')
  })

  test('the header is not even read when the peer is untrusted', () => {
    let reads = 0
    const h = new Headers({ 'x-forwarded-for': '198.51.100.1' })
    const get = h.get.bind(h)
    h.get = (name: string) => {
      reads++
      return get(name)
    }
    clientAddress('203.0.113.3', h, LOOPBACK)
    expect(reads).toBe(0)
    clientAddress('127.0.0.1', h, LOOPBACK)
    expect(reads).toBe(1)
  })
})
