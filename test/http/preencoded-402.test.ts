/**
 * The 402 is encoded once per resource and network set and only the request id is put in per answer
 * (core/errors.ts `toJson`, http/responses.ts `errorHeaders`, http/unpaid-answers.ts). What a buyer reads
 * must be byte for byte the 402 built the slow way, from the catalog and the x402 requirements, for every
 * route, network set and Accept, on the full path and on the remembered fast path alike.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { encodePaymentRequiredHeader } from '@x402/core/http'
import { cpSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { CATALOG, type RouteSpec, serviceMetadata } from '../../src/catalog'
import { exampleCall } from '../../src/catalog/examples'
import { implementedRouteIds } from '../../src/composition/handler-map'
import { DEV_PAY_TO } from '../../src/config/config'
import { paymentRequiredMessage } from '../../src/catalog/client-caps'
import { SPEND } from '../../src/data/contracts'
import { DuckDb } from '../../src/data/duckdb'
import { importDataset } from '../../src/data/import/refresh'
import { NETWORKS, type NetworkName } from '../../src/payments/networks'
import { paymentRequirements, termsFor } from '../../src/payments/gate/requirements'
import { type FreshChallenge, withSignInChallenge } from '../../src/payments/gate/sign-in'
import { freshChallengeOf } from '../../support/sign-in-challenge'
import { nativeServer, type NativeServer } from '../../support/native-server'

const BASE_URL = 'https://api.example.test'
const NETWORK_SETS: NetworkName[][] = [
  ['base-sepolia'],
  ['base-sepolia', 'polygon-amoy', 'arbitrum-sepolia'],
  ['base', 'polygon', 'arbitrum'],
]
const ACCEPTS = [undefined, 'application/json', '*/*', 'application/json, text/plain;q=0.5']
const served = implementedRouteIds()
const ROUTES = CATALOG.filter((route) => served.has(route.id))

/**
 * The 402 as x402 defines it for this route, network set and resource, built the slow way: the catalog's
 * price and the requirement functions called afresh, the header encoded and the envelope serialised here,
 * with no cache and no template (what is checked is the encoding once and the id put in per answer).
 */
function slow402(route: RouteSpec, networks: NetworkName[], resource: string, requestId: string, fresh: FreshChallenge) {
  const message = paymentRequiredMessage(route)
  const terms = networks.map((name) => termsFor(route, { network: NETWORKS[name], payTo: DEV_PAY_TO as `0x${string}` }))
  // The service as a 402 on BASE_URL names it: name, tags, and its icon on that public host.
  const required = paymentRequirements(route, terms, resource, message, serviceMetadata(BASE_URL))
  return {
    status: 402,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      vary: 'accept',
      // With the answer's own fresh sign-in challenge (its form checked by freshChallengeOf).
      'payment-required': encodePaymentRequiredHeader(withSignInChallenge(required.v2, fresh)!),
      'x-request-id': requestId,
    },
    body: JSON.stringify({
      success: false,
      error: { code: 'payment_required', message },
      meta: { request_id: requestId },
      x402Version: 1,
      accepts: required.v1Accepts,
    }),
  }
}

/** An answer's status, headers (but the date and length the server adds) and body. */
async function answerOf(response: Response) {
  const headers: Record<string, string> = {}
  response.headers.forEach((value, name) => void (name !== 'date' && name !== 'content-length' && (headers[name] = value)))
  return { status: response.status, headers, body: await response.text() }
}

const ask = (service: NativeServer, route: RouteSpec, accept: string | undefined) => {
  const call = exampleCall(route)
  const headers: Record<string, string> = accept === undefined ? {} : { accept }
  if (route.methods.includes('GET')) {
    const query = new URLSearchParams(Object.entries(call.input).map(([name, value]) => [name, String(value)])).toString()
    return { path: call.path, response: fetch(service.url(call.path + (query ? `?${query}` : '')), { headers }) }
  }
  return {
    path: call.path,
    response: fetch(service.url(call.path), {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify(call.input),
    }),
  }
}

describe.each(NETWORK_SETS.map((networks) => [networks.join(', '), networks] as const))('networks %s', (_, networks) => {
  let service: NativeServer
  beforeAll(async () => {
    service = await nativeServer({ PAYMENT_NETWORKS: networks.join(','), PUBLIC_BASE_URL: BASE_URL })
  })
  afterAll(() => service?.stop())

  test.each(ROUTES.map((route) => [route.id, route] as const))(
    '%s: the first answer and its remembered repeats are the 402 built the slow way, each with its own request id',
    async (_id, route) => {
      const ids: string[] = []
      const nonces: string[] = []
      const remembered = service.runtime.app.unpaid.size
      for (const accept of ACCEPTS) {
        // The first goes the whole way; a repeat of a GET is answered ahead of the framework.
        for (const turn of ['first', 'repeat', 'repeat again']) {
          const { path, response } = ask(service, route, accept)
          const answer = await answerOf(await response)
          const id = answer.headers['x-request-id']!
          ids.push(id)
          const fresh = freshChallengeOf(answer.headers['payment-required']!)
          nonces.push(fresh.nonce)
          expect({ accept, turn, ...answer }).toEqual({ accept, turn, ...slow402(route, networks, BASE_URL + path, id, fresh) })
        }
      }
      expect(new Set(ids).size).toBe(ids.length)
      expect(new Set(nonces).size).toBe(nonces.length) // each 402 its own challenge, remembered or not
      // A GET's repeats were answered ahead of the framework: one remembered 402 per Accept sent (fetch sends
      // `*/*` when given none), a POST's never.
      const sent = new Set(ACCEPTS.map((accept) => accept ?? '*/*')).size
      expect(service.runtime.app.unpaid.size - remembered).toBe(route.methods.includes('GET') ? sent : 0)
    },
  )
})

describe('a dataset import forgets every remembered 402', () => {
  let service: NativeServer
  const dir = mkdtempSync(join(tmpdir(), 'preencoded-'))
  beforeAll(async () => {
    cpSync(resolve(import.meta.dir, '../../datasets'), dir, { recursive: true })
    service = await nativeServer({ DATASETS_DIR: dir })
  })
  afterAll(async () => {
    await service?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  test('a country the new version no longer holds gets its free 404, not the 402 remembered from the old one', async () => {
    const japan = service.url('/v1/market-data/spend/summary?country=Japan&month=2026-10')
    const korea = service.url('/v1/market-data/spend/summary?country=South%20Korea&month=2026-10')
    for (const url of [japan, japan, korea, korea]) expect((await fetch(url)).status).toBe(402)
    expect(service.runtime.app.unpaid.size).toBe(2)

    // The data team imports a spend file without Japan; the running service reloads it.
    const db = await DuckDb.open(1)
    const withoutJapan = join(dir, '..', `${dir.split('/').pop()}-spend.parquet`)
    try {
      await db.exec(
        `COPY (SELECT * FROM read_parquet('${join(dir, SPEND.file)}') WHERE country <> 'Japan') TO '${withoutJapan}' (FORMAT parquet)`,
      )
      await importDataset(db, dir, withoutJapan, SPEND, { sample: true })
    } finally {
      db.close()
      rmSync(withoutJapan, { force: true })
    }
    expect(await service.runtime.store.reload()).toEqual(['spend'])

    const gone = await fetch(japan)
    expect(gone.status).toBe(404)
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('not_found')
    expect((await fetch(korea)).status).toBe(402)
    expect(service.runtime.app.unpaid.size).toBe(1) // Korea's, remembered anew; Japan's is gone
  })
})
