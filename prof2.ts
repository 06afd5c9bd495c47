import { routeById } from './src/catalog'
import { paymentRequiredParts, termsFor } from './src/payments/requirements'
import { ApiError } from './src/http/errors'
import { errorResponse } from './src/http/envelope'
const route = routeById.get('flights.summary')!
const terms = termsFor(route, 'base-sepolia', '0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
const N = 50000
const time = (name: string, f: () => unknown) => { for (let i = 0; i < 2000; i++) f(); const t = performance.now(); for (let i = 0; i < N; i++) f(); console.log(name, (((performance.now() - t) / N) * 1000).toFixed(2), 'µs') }
time('parts', () => paymentRequiredParts(route, terms, 'http://localhost:3000/v1/market-data/flights/summary', 'Payment required'))
time('ApiError', () => new ApiError('payment_required', 'x'))
const e = new ApiError('payment_required', 'x', undefined, { a: 'b' }, { x402Version: 1, accepts: [] })
time('errorResponse', () => errorResponse(e, 'req_1'))
time('throw/catch', () => { try { throw new ApiError('payment_required', 'x') } catch (x) { return x } })
time('randomUUID id', () => `req_${crypto.randomUUID().replaceAll('-', '')}`)
time('new URL', () => new URL('http://localhost:3000/v1/market-data/flights/summary?destination=Tokyo'))
