/** An incoming x-request-id is kept when it is a short, log-safe token; otherwise we mint one. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

/** 64 random bits per process plus a counter: unique across instances, and cheaper than a UUID per request. */
const PROCESS_PREFIX = Buffer.from(crypto.getRandomValues(new Uint8Array(8))).toString('hex')
let counter = 0

export function requestIdFor(incoming: string | null): string {
  if (incoming && SAFE_ID.test(incoming)) return incoming
  counter = (counter + 1) % 0x1000000000000
  return `req_${PROCESS_PREFIX}${counter.toString(16).padStart(12, '0')}`
}

/** Path of a request URL without parsing a URL object (hot path: every request logs it). */
export function pathOf(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start < 0) return '/'
  const queryAt = url.indexOf('?', start)
  return queryAt < 0 ? url.slice(start) : url.slice(start, queryAt)
}
