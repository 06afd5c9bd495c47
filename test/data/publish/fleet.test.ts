/**
 * A fleet of two real instances following one publication served by Debian's nginx: the data team
 * publishes with the CLI and a key `openssl genpkey` made; both instances serve it, converge on the next
 * one within two poll intervals, and both refuse a tampered one while they keep answering (and say so
 * in /ready and /metrics). An instance with no verified copy and no reachable source does not start.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { routeById } from '../../../src/catalog'
import { usdToAtomic } from '../../../src/core/usdc'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { readUnverified } from '../../../src/data/publish/publication'
import { publishTarget } from '../../../src/data/publish/publication-places'
import { runCli } from '../../../support/cli-run'
import type { StartedNginx } from '../../../support/nginx'
import { createPayer } from '../../../support/payer'
import { nginxBinary, serveFolder, teamFolder } from '../../../support/publication'
import { requireTool } from '../../../support/required-tool'
import { startServer, type StartedServer } from '../../../support/server'
import { until, waitFor } from '../../../support/until'

const POLL_SECONDS = 5
const SUMMARY = '/v1/market-data/spend/summary?country=Japan&month=2026-10'
const PRICE = usdToAtomic(routeById.get('spend.summary')!.priceUsd)
const binary = nginxBinary()
const openssl = Bun.which('openssl')

let team: string
let site: string
let key: string
let nginx: StartedNginx
let fleet: StartedServer[] = []
/** Each instance's copy of the publication (its DATASETS_DIR). */
const copies: string[] = []
let cards: number
const payer = createPayer()

const ready = async (server: StartedServer) => {
  const res = await fetch(`${server.url}/ready`)
  return { status: res.status, checks: ((await res.json()) as any).data.checks }
}
const summary = async (server: StartedServer) => {
  const res = await fetch(server.url + SUMMARY, { headers: { 'x402-payment': await payer.proof({ value: PRICE }) } })
  expect(res.status).toBe(200)
  return ((await res.json()) as any).data
}
const publish = () => runCli(['data', 'publish', team, '--to', site, '--key', key])
/** The sequence of the publication the site serves now. */
const sequenceAt = () => readUnverified(readFileSync(join(site, 'publication.json'), 'utf8')).sequence

const missing = !binary ? 'nginx' : !openssl ? 'openssl' : null
if (
  requireTool(
    'test/data/publish/fleet.test.ts',
    missing,
    'the publication is served by a real nginx and signed with a key openssl makes (.ci/run installs nginx)',
  )
) {
  beforeAll(async () => {
    team = teamFolder()
    const keys = mkdtempSync(join(tmpdir(), 'publisher-'))
    key = join(keys, 'publisher.pem')
    expect(Bun.spawnSync([openssl!, 'genpkey', '-algorithm', 'ed25519', '-out', key]).exitCode).toBe(0)
    expect(Bun.spawnSync([openssl!, 'pkey', '-in', key, '-pubout', '-out', join(keys, 'publisher.pub')]).exitCode).toBe(0)
    const sites = mkdtempSync(join(tmpdir(), 'site-'))
    site = join(sites, 'datasets')
    const first = await publish()
    expect(first).toMatchObject({ code: 0 })
    expect(first.out).toMatch(/^publication \d+ -> /)
    nginx = await serveFolder(binary!, sites)
    const env = (n: number) => ({
      DATA_SOURCE_URL: `${nginx.url}/datasets/publication.json`,
      DATA_SOURCE_PUBLIC_KEY: join(keys, 'publisher.pub'),
      DATA_POLL_SECONDS: String(POLL_SECONDS),
      DATASETS_DIR: (copies[n - 1] = mkdtempSync(join(tmpdir(), `instance-${n}-`))),
    })
    fleet = await Promise.all([startServer(env(1)), startServer(env(2))])
    const db = await DuckDb.open(1)
    cards = (
      await db.all<{ cards: number }>(
        `SELECT SUM(total_cards)::INTEGER AS cards FROM read_parquet('${join(team, 'spend.parquet')}') WHERE country = 'Japan' AND month = '2026-10'`,
      )
    )[0]!.cards
    db.close()
  })

  afterAll(async () => {
    await Promise.all(fleet.map((s) => s.stop()))
    await nginx?.stop()
  })

  describe('two instances follow one publication', () => {
    test('both serve what the team published, and answer from it', async () => {
      const published = readManifest(team)
      // The corpus's search index ships with it, so that no instance builds it (each found it beside the corpus).
      const { datasets } = readUnverified(readFileSync(join(site, 'publication.json'), 'utf8'))
      const index = datasets.evidence!.index!
      expect(index.file).toMatch(/^files\/evidence-[0-9a-f]{12}\.index-v\d+-[0-9a-f]{12}\.sqlite$/)
      expect(statSync(join(site, index.file)).size).toBe(index.bytes)
      for (const [i, server] of fleet.entries()) {
        const copy = copies[i]!
        expect(readManifest(copy).datasets.evidence!.index).toEqual({
          file: basename(index.file),
          sha256: index.sha256,
        })
        expect(existsSync(join(copy, basename(index.file)))).toBe(true)
        const { status, checks } = await ready(server)
        expect(status).toBe(200)
        expect(checks.data_source).toMatchObject({ state: 'following', serving: { sequence: sequenceAt() } })
        expect(checks.datasets.versions).toEqual(Object.fromEntries(Object.entries(published.datasets).map(([n, e]) => [n, e.version])))
        const answer = await summary(server)
        expect(answer.data_quality).toMatchObject({ dataset_version: published.datasets.spend!.version, sample: true })
        expect(answer.summary.total_cards).toBe(cards)
      }
    })

    test('the next publication reaches both within two poll intervals; no instance is copied by hand', async () => {
      const doubled = join(mkdtempSync(join(tmpdir(), 'delivery-')), 'spend-doubled.parquet')
      const db = await DuckDb.open(1)
      await db.exec(
        `COPY (SELECT * EXCLUDE (file_row_number) REPLACE (total_cards * 2 AS total_cards) FROM read_parquet('${join(team, 'spend.parquet')}', file_row_number = true) ORDER BY file_row_number) TO '${doubled}' (FORMAT parquet)`,
      )
      db.close()
      expect(await runCli(['data', 'import', doubled, '--dir', team, '--sample'])).toMatchObject({ code: 0 })
      const before = sequenceAt()
      const second = await publish()
      const sequence = sequenceAt()
      expect(sequence).toBeGreaterThan(before)
      expect(second.out).toContain(`publication ${sequence} ->`)
      const version = readManifest(team).datasets.spend!.version
      // The promise: every instance installs it within two poll intervals of its publication.
      await waitFor(
        'both instances serving the new publication',
        async () => (await Promise.all(fleet.map(ready))).every((r) => r.checks.data_source.serving.sequence === sequence),
        { ms: 2 * POLL_SECONDS * 1000, every: 100 },
      )
      for (const server of fleet) {
        const answer = await summary(server)
        expect(answer.data_quality.dataset_version).toBe(version)
        expect(answer.summary.total_cards).toBe(cards * 2)
      }
    })

    test('a tampered publication: both refuse it, keep answering from their copy, and say why', async () => {
      const text = readFileSync(join(site, 'publication.json'), 'utf8')
      const envelope = JSON.parse(text)
      const document = JSON.parse(Buffer.from(envelope.payload, 'base64').toString())
      const served = document.sequence
      document.sequence += 1
      document.datasets.spend.rows -= 1
      envelope.payload = Buffer.from(JSON.stringify(document)).toString('base64')
      await publishTarget(site).writeText('publication.json', JSON.stringify(envelope))
      for (const server of fleet) {
        const { status, checks } = await until(
          'the refusal on /ready',
          async () => {
            const r = await ready(server)
            return r.checks.data_source.refused ? r : undefined
          },
          { ms: 2 * POLL_SECONDS * 1000 },
        )
        expect(status).toBe(200)
        expect(checks.data_source).toMatchObject({ state: 'refusing', serving: { sequence: served }, refused: { reason: 'bad_signature' } })
        const metrics = await (await fetch(`${server.url}/metrics`)).text()
        expect(metrics).toMatch(/^data_source_refusals_total\{reason="bad_signature"\} [1-9]/m)
        expect(metrics).toMatch(/^data_source_refusing 1$/m)
        expect(metrics).toMatch(new RegExp(`^data_source_publication_sequence ${served}$`, 'm'))
        expect((await summary(server)).summary.total_cards).toBe(cards * 2)
      }
    })
  })

  test('an instance with no verified copy and an unreachable source does not start, and says why', async () => {
    const keys = readFileSync(key.replace(/\.pem$/, '.pub'), 'utf8')
    const start = startServer({
      DATA_SOURCE_URL: 'http://127.0.0.1:9/datasets/publication.json',
      DATA_SOURCE_PUBLIC_KEY: keys,
      DATASETS_DIR: mkdtempSync(join(tmpdir(), 'instance-3-')),
    })
    await expect(start).rejects.toThrow(
      /exited with 75[\s\S]*no verified publication to serve from http:\/\/127\.0\.0\.1:9\/datasets\/publication\.json \(unreachable/,
    )
  })
}
