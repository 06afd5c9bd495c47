/** An incoming x-request-id is kept when it is a short, log-safe token; otherwise we mint one. */
const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$/

export function requestIdFor(incoming: string | null): string {
  if (incoming && SAFE_ID.test(incoming)) return incoming
  return `req_${crypto.randomUUID().replaceAll('-', '')}`
}
