import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'

/**
 * The first port the kernel hands out to outgoing connections (and to port 0). A listening port picked
 * inside that range can be taken a moment later by one of the many client sockets the tests open
 * (PostgreSQL pools, fetches), so the servers the tests start listen below it.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0])
    if (Number.isInteger(low) && low > 12_000) return low
  } catch {
    // not Linux: the IANA range starts at 49152
  }
  return 49_152
}

const LOW = 10_000
const HIGH = ephemeralLow()

const canListen = (port: number) =>
  new Promise<boolean>((done) => {
    const s = createServer()
    s.once('error', () => done(false))
    s.listen(port, '127.0.0.1', () => s.close(() => done(true)))
  })

/**
 * A port nothing listens on now, outside the ephemeral range. Free a moment ago is not a promise: the
 * helpers that start a server on it try another port if it was taken meanwhile.
 */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW))
    if (await canListen(port)) return port
  }
}
