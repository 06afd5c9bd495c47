/**
 * An instance's copy of a publication (data/publish/follow.ts) against real places: a folder served by Debian's
 * nginx, an S3-compatible bucket (s3rver), and a server that cuts a download short. What it installs is
 * byte for byte what the data team published; every way a publication can be wrong is refused while the
 * current copy keeps being served, and says why.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SPEND } from '../../../src/data/contracts'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import { DataFollower } from '../../../src/data/publish/follow'
import { nextCheckDelayMs } from '../../../src/data/publish/follow-policy'
import { createPrivateKey } from 'node:crypto'
import { readPublicKeys, readUnverified, signPublication, type Publication } from '../../../src/data/publish/publication'
import { publicationSource, publishTarget } from '../../../src/data/publish/publication-places'
import { download } from '../../../src/data/publish/publication-download'
import { publishDatasets } from '../../../src/data/publish/publish'
import { fileSha256, importDataset, rollbackDataset } from '../../../src/data/import/refresh'
import { keyPair, nginxBinary, serveFolder, startS3, teamFolder, type StartedS3 } from '../../../support/publication'
import type { StartedNginx } from '../../../support/nginx'
import { requireTool } from '../../../support/required-tool'
import { waitFor } from '../../../support/until'

const binary = nginxBinary()
const A = keyPair()
const B = keyPair()
const trusted = readPublicKeys(A.publicPem)

let db: DuckDb
let team: string
let sites: string
let nginx: StartedNginx
let s3: StartedS3
/**
 * Spend deliveries made from the team's: the one it merges (total_cards doubled), one that breaks the
 * contract (a negative count), and a valid version no instance holds (total_cards tripled).
 */
let deliveries: { doubled: string; broken: string; tripled: string }

const publish = (target: string, key = A.privatePem, env?: Record<string, string>, note?: string) =>
  publishDatasets(db, team, publishTarget(target, env), { key: createPrivateKey(key), ...(note ? { note } : {}) })

/** Writes to `to` the spend file `from` with total_cards replaced by `expression` (file_row_number in scope), rows in order. */
async function spendWith(from: string, expression: string, to: string): Promise<string> {
  await db.exec(
    `COPY (SELECT * EXCLUDE (file_row_number) REPLACE (${expression} AS total_cards) FROM read_parquet('${from}', file_row_number = true) ORDER BY file_row_number) TO '${to}' (FORMAT parquet)`,
  )
  return to
}

const urlOf = (site: string) => `${nginx.url}/${site}/publication.json`

async function follow(url: string, dir = mkdtempSync(join(tmpdir(), 'follower-')), env?: Record<string, string>) {
  return { dir, follower: await DataFollower.open({ source: publicationSource(url, env), keys: trusted, dir, pollMs: 60_000, db }) }
}

/** A copy of a published site under a new name, and a follower that already holds its publication (a copy of `holder`'s folder). */
async function variantOf(site: string, holder: string) {
  const name = `${site}-${Math.random().toString(36).slice(2, 8)}`
  cpSync(join(sites, site), join(sites, name), { recursive: true })
  const dir = mkdtempSync(join(tmpdir(), 'follower-'))
  // A copy of another instance's folder, without its lock (that instance still runs).
  cpSync(holder, dir, { recursive: true, filter: (path) => !path.endsWith('.follow.lock') })
  // As if this instance had followed the variant's URL all along.
  const manifest = readManifest(dir)
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ ...manifest, publication: { ...manifest.publication, source: urlOf(name) } }))
  const { follower } = await follow(urlOf(name), dir)
  return { name, root: join(sites, name), dir, follower, manifestText: readFileSync(join(dir, 'manifest.json'), 'utf8') }
}

/** Replaces a site's publication.json as `data publish` does (one rename, a later modification time). */
const rewrite = (root: string, text: string) => publishTarget(root).writeText('publication.json', text)

/** Signs a document with the team's key into a site, as a publisher would (or one that signs what it should not). */
const writeSigned = (root: string, publication: Publication, key = A.privatePem) =>
  rewrite(root, signPublication(publication, createPrivateKey(key)))

const publicationIn = (root: string) => readUnverified(readFileSync(join(root, 'publication.json'), 'utf8'))

if (
  requireTool('test/data/publish/follow.test.ts', binary ? null : 'nginx', 'a publication is served by a real nginx (.ci/run installs it)')
) {
  beforeAll(async () => {
    db = await DuckDb.open(1)
    team = teamFolder()
    sites = mkdtempSync(join(tmpdir(), 'sites-'))
    nginx = await serveFolder(binary!, sites)
    s3 = await startS3()
    const candidates = mkdtempSync(join(tmpdir(), 'candidates-'))
    const teamSpend = join(team, 'spend.parquet')
    deliveries = {
      doubled: await spendWith(teamSpend, 'total_cards * 2', join(candidates, 'spend-doubled.parquet')),
      broken: await spendWith(
        teamSpend,
        'CASE WHEN file_row_number = 41 THEN -1 ELSE total_cards END',
        join(candidates, 'spend-broken.parquet'),
      ),
      tripled: await spendWith(teamSpend, 'total_cards * 3', join(candidates, 'spend-tripled.parquet')),
    }
    await publish(join(sites, 'main'))
  })

  afterAll(async () => {
    await nginx?.stop()
    await s3?.stop()
    db?.close()
  })

  describe('following a publication served by nginx', () => {
    let first: Awaited<ReturnType<typeof follow>>

    test('installs what was published, byte for byte, and asks again conditionally', async () => {
      first = await follow(urlOf('main'))
      const { follower, dir } = first
      const mine = readManifest(dir)
      const theirs = readManifest(team)
      const sequence = publicationIn(join(sites, 'main')).sequence
      expect(follower.status()).toMatchObject({ state: 'following', serving: { sequence, key_id: [...trusted.keys()][0] } })
      expect(mine.publication).toMatchObject({ sequence, source: urlOf('main') })
      for (const [name, entry] of Object.entries(theirs.datasets)) {
        expect(mine.datasets[name]).toMatchObject({ version: entry.version, sha256: entry.sha256, rows: entry.rows })
        expect(await fileSha256(join(dir, mine.datasets[name]!.file))).toBe(entry.sha256)
      }
      expect(await follower.check()).toBe('unchanged')
      // The second ask was conditional: nginx answered 304 without the document (logged once the answer is sent).
      await waitFor('the 304 in nginx access log', () => / 304 \S+ "GET \/main\/publication\.json/.test(nginx.accessLog()), { ms: 5_000 })
    })

    test('a newer publication installs; only the changed file is downloaded', async () => {
      const { follower, dir } = first
      const merged = await importDataset(db, team, deliveries.doubled, SPEND, { sample: true })
      const before = publicationIn(join(sites, 'main')).sequence
      const result = await publish(join(sites, 'main'))
      expect(result.publication.sequence).toBeGreaterThan(before)
      expect(result.uploaded.map((u) => u.file)).toEqual([`files/spend-${merged.entry.sha256.slice(0, 12)}.parquet`])
      const downloaded = follower.metrics().downloadedBytes
      expect(await follower.check()).toBe('installed')
      expect(follower.metrics().downloadedBytes - downloaded).toBe(result.uploaded[0]!.bytes)
      expect(readManifest(dir).datasets.spend!.version).toBe(merged.entry.version)
      expect(follower.status().serving?.sequence).toBe(result.publication.sequence)
    })

    test('a rollback reaches the instance as a new signed publication, from the copy it kept', async () => {
      const { follower, dir } = first
      const { to } = await rollbackDataset(team, SPEND)
      const previous = publicationIn(join(sites, 'main')).sequence
      const result = await publish(join(sites, 'main'))
      expect(result.publication.sequence).toBeGreaterThan(previous)
      const before = follower.metrics().downloadedBytes
      expect(await follower.check()).toBe('installed')
      expect(readManifest(dir).datasets.spend!.version).toBe(to.version)
      // The previous publication's files stay on the instance: nothing to download.
      expect(follower.metrics().downloadedBytes).toBe(before)
      // Back to the doubled spend, as the publication the refusals below start from.
      await importDataset(db, team, deliveries.doubled, SPEND, { sample: true })
      const last = await publish(join(sites, 'main'))
      expect(await follower.check()).toBe('installed')
      expect(follower.status().serving?.sequence).toBe(last.publication.sequence)
    })
  })

  describe('a publication that is not proven is refused; the current copy stays served', () => {
    /** Runs one check against a variant the mutation made, and checks that nothing the instance serves changed. */
    async function refused(mutate: (root: string, current: Publication) => void | Promise<void>) {
      const variant = await variantOf('main', await holder())
      const current = publicationIn(variant.root)
      await mutate(variant.root, current)
      const outcome = await variant.follower.check()
      const status = variant.follower.status()
      expect(status.serving?.sequence).toBe(current.sequence)
      expect(readFileSync(join(variant.dir, 'manifest.json'), 'utf8')).toBe(variant.manifestText)
      expect(readdirSync(variant.dir).filter((f) => f.startsWith('.incoming-'))).toEqual([])
      return { outcome, status, follower: variant.follower, root: variant.root }
    }
    let held: string | undefined
    /** A follower folder that holds the last publication of 'main' (so variants start from a verified copy). */
    async function holder() {
      held ??= (await follow(urlOf('main'))).dir
      return held
    }

    test('a document altered after signing: bad_signature', async () => {
      const {
        outcome,
        status,
        follower,
        root: site,
      } = await refused((root) => {
        const envelope = JSON.parse(readFileSync(join(root, 'publication.json'), 'utf8'))
        const document = JSON.parse(Buffer.from(envelope.payload, 'base64').toString())
        document.sequence += 1
        document.datasets.spend.rows += 1
        envelope.payload = Buffer.from(JSON.stringify(document)).toString('base64')
        return rewrite(root, JSON.stringify(envelope))
      })
      expect(outcome).toBe('refused')
      expect(status.refused).toMatchObject({ reason: 'bad_signature' })
      // Asked again, the source answers 304: the same document, refused again without reading it.
      expect(await follower.check()).toBe('refused')
      expect(follower.metrics().refusals.get('bad_signature')).toBe(2)
      // Gone for a while, then back unchanged (a 304 again): still the same document, still refused.
      renameSync(join(site, 'publication.json'), join(site, 'away.json'))
      expect(await follower.check()).toBe('unreachable')
      renameSync(join(site, 'away.json'), join(site, 'publication.json'))
      expect(await follower.check()).toBe('refused')
      expect(follower.status()).toMatchObject({ state: 'refusing', refused: { reason: 'bad_signature' } })
    })

    test('signed by another key: unknown_key', async () => {
      const { outcome, status } = await refused((root, current) =>
        writeSigned(root, { ...current, sequence: current.sequence + 1 }, B.privatePem),
      )
      expect(outcome).toBe('refused')
      expect(status.refused).toMatchObject({ reason: 'unknown_key' })
      expect(status.refused?.message).toContain([...readPublicKeys(B.publicPem).keys()][0]!)
    })

    /**
     * Signs a new spend version (total_cards tripled, which no instance holds) into a site, and serves
     * `served(bytes)` under its name instead of its bytes.
     */
    async function signTripled(root: string, current: Publication, served: (bytes: Buffer) => Buffer) {
      const sha256 = await fileSha256(deliveries.tripled)
      const bytes = readFileSync(deliveries.tripled)
      const file = `files/spend-${sha256.slice(0, 12)}.parquet`
      writeFileSync(join(root, file), served(bytes))
      const spend = { ...current.datasets.spend!, file, sha256, bytes: bytes.length }
      await writeSigned(root, { ...current, sequence: current.sequence + 1, datasets: { ...current.datasets, spend } })
    }

    test('a file altered after signing (same size): checksum_mismatch', async () => {
      const { status } = await refused((root, current) =>
        signTripled(root, current, (bytes) => {
          bytes[bytes.length >> 1]! ^= 0xff
          return bytes
        }),
      )
      expect(status.refused).toMatchObject({ reason: 'checksum_mismatch' })
      expect(status.refused?.sequence).toBeGreaterThan(status.serving!.sequence)
    })

    test('a file corrupted once in transit is fetched again at the next check, though the document is unchanged (304)', async () => {
      let good: Buffer | undefined
      const { status, follower, root } = await refused((root, current) =>
        signTripled(root, current, (bytes) => {
          good = Buffer.from(bytes)
          // A proxy's error page appended to the end of the body, in place of its last bytes.
          return Buffer.concat([bytes.subarray(0, bytes.length - 64), Buffer.from('<html>502 Bad Gateway</html>'.padEnd(64))])
        }),
      )
      expect(status.refused).toMatchObject({ reason: 'checksum_mismatch' })
      // The source is fixed (the same signed document, so it answers 304): the next check tries the file again.
      writeFileSync(join(root, `files/spend-${(await fileSha256(deliveries.tripled)).slice(0, 12)}.parquet`), good!)
      expect(await follower.check()).toBe('installed')
      expect(follower.status()).toMatchObject({ state: 'following', serving: { sequence: status.refused!.sequence } })
    })

    test('a file cut short at the source: truncated', async () => {
      const { status } = await refused((root, current) => signTripled(root, current, (bytes) => bytes.subarray(0, bytes.length >> 1)))
      expect(status.refused).toMatchObject({ reason: 'truncated' })
      expect(status.refused?.message).toMatch(/of the \d+ bytes published arrived/)
    })

    test('a signed file that breaks its contract: contract', async () => {
      const { status } = await refused(async (root, current) => {
        const sha256 = await fileSha256(deliveries.broken)
        const file = `files/spend-${sha256.slice(0, 12)}.parquet`
        cpSync(deliveries.broken, join(root, file))
        const spend = { ...current.datasets.spend!, file, sha256, bytes: readFileSync(deliveries.broken).length }
        await writeSigned(root, { ...current, sequence: current.sequence + 1, datasets: { ...current.datasets, spend } })
      })
      expect(status.refused).toMatchObject({ reason: 'contract' })
      expect(status.refused?.message).toContain('total_cards')
    })

    test('an older publication served again, or another document under the same sequence: replayed', async () => {
      const older = await refused((root, current) =>
        writeSigned(root, { ...current, sequence: current.sequence - 1, published_at: '2026-01-01T00:00:00.000Z' }),
      )
      expect(older.status.refused).toMatchObject({ reason: 'replayed' })
      const same = await refused((root, current) => writeSigned(root, { ...current, note: 'the same sequence, another document' }))
      expect(same.status.refused).toMatchObject({ reason: 'replayed' })
    })

    test('not a publication: malformed; nothing there: unreachable, with back-off', async () => {
      const junk = await refused((root) => rewrite(root, '<html>maintenance</html>'))
      expect(junk.status.refused).toMatchObject({ reason: 'malformed' })
      const missing = await refused((root) => rmSync(join(root, 'publication.json')))
      expect(missing.outcome).toBe('unreachable')
      expect(missing.status).toMatchObject({ state: 'unreachable', consecutive_failures: 1, refused: { reason: 'unreachable' } })
      expect(await missing.follower.check()).toBe('unreachable')
      expect(missing.follower.status().consecutive_failures).toBe(2)
      expect(missing.follower.metrics().refusals.get('unreachable')).toBe(2)
    })

    test('the wait between checks: one interval, doubled per failure up to ten (or 15 min), a fifth either way', () => {
      expect(nextCheckDelayMs(60_000, 0, 0.5)).toBe(60_000)
      expect([nextCheckDelayMs(60_000, 0, 0), nextCheckDelayMs(60_000, 0, 0.999_999)]).toEqual([48_000, 72_000])
      expect([1, 2, 3, 4, 5].map((f) => nextCheckDelayMs(60_000, f, 0.5))).toEqual([120_000, 240_000, 480_000, 600_000, 600_000])
      expect(nextCheckDelayMs(3_600_000, 3, 0.5)).toBe(3_600_000)
    })
  })

  test('a download cut off mid-stream is truncated, and the next check completes it', async () => {
    // A plain HTTP/1.1 server on a socket: it announces each whole file and, the first time a spend file
    // is asked for, sends half of it and closes the connection, as a dropped link does.
    const main = join(sites, 'main')
    let cut = true
    const server = createServer((socket) => {
      socket.once('data', (request) => {
        const path = /^GET \/(\S*) /.exec(request.toString())?.[1] ?? ''
        const file = join(main, path)
        if (!existsSync(file)) return socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
        const bytes = readFileSync(file)
        socket.write(`HTTP/1.1 200 OK\r\ncontent-length: ${bytes.length}\r\nconnection: close\r\n\r\n`)
        if (cut && path.startsWith('files/spend-')) {
          cut = false
          socket.write(bytes.subarray(0, bytes.length >> 1), () => socket.destroy())
        } else socket.end(bytes)
      })
    })
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
    try {
      const dir = mkdtempSync(join(tmpdir(), 'follower-'))
      const source = publicationSource(`http://127.0.0.1:${(server.address() as AddressInfo).port}/publication.json`)
      await expect(DataFollower.open({ source, keys: trusted, dir, pollMs: 60_000, db })).rejects.toThrow(/\(truncated: files\/spend-/)
      expect(readdirSync(dir).filter((f) => f.startsWith('.incoming-'))).toEqual([])
      // The refused start released the folder: the next start takes it.
      const follower = await DataFollower.open({ source, keys: trusted, dir, pollMs: 60_000, db })
      expect(follower.status().serving?.sequence).toBe(publicationIn(main).sequence)
    } finally {
      server.close()
    }
  })

  test('two publications less than the grace apart: the first prune keeps every file the second serves, and the previous one until its own grace', async () => {
    const site = join(sites, `quick-${Math.random().toString(36).slice(2, 8)}`)
    cpSync(join(sites, 'main'), site, { recursive: true })
    const url = `${nginx.url}/${site.slice(sites.length + 1)}/publication.json`
    const dir = mkdtempSync(join(tmpdir(), 'follower-'))
    const follower = await DataFollower.open({
      source: publicationSource(url),
      keys: trusted,
      dir,
      pollMs: 60_000,
      db,
      pruneGraceMs: 1_500,
    })
    const spendFile = () => readManifest(dir).datasets.spend!.file
    const first = spendFile()
    // A publish, then a quick fix of it with a third version, well within the grace of the first.
    const fixed = await spendWith(deliveries.tripled, 'total_cards + 1', join(mkdtempSync(join(tmpdir(), 'fix-')), 'spend-fixed.parquet'))
    await importDataset(db, team, deliveries.tripled, SPEND, { sample: true })
    await publish(site)
    expect(await follower.check()).toBe('installed')
    const second = spendFile()
    await importDataset(db, team, fixed, SPEND, { sample: true })
    await publish(site)
    expect(await follower.check()).toBe('installed')
    const served = Object.values(readManifest(dir).datasets).map((e) => e.file)
    expect(new Set([first, second, spendFile()]).size).toBe(3)
    // The first install's prune runs once its grace is over: the first spend file, which no one serves, goes.
    await waitFor('the first prune', () => !existsSync(join(dir, first)), { ms: 15_000 })
    for (const file of served) expect({ file, there: existsSync(join(dir, file)) }).toEqual({ file, there: true })
    expect(follower.missing()).toEqual([])
    // The second publication's spend file goes after its own grace; what is served stays.
    await waitFor('the second prune', () => !existsSync(join(dir, second)), { ms: 15_000 })
    for (const file of served) expect(existsSync(join(dir, file))).toBe(true)
    await follower.close()
    // Back to the doubled spend for the tests that follow.
    await importDataset(db, team, deliveries.doubled, SPEND, { sample: true })
  })

  test('a served file deleted from the folder: not ready, then downloaded again at the next check', async () => {
    const { dir, follower } = await follow(urlOf('main'))
    const spend = readManifest(dir).datasets.spend!
    rmSync(join(dir, spend.file))
    expect(follower.missing()).toEqual([spend.file])
    expect(follower.status().missing_files).toEqual([spend.file])
    expect(await follower.check()).toBe('installed')
    expect(await fileSha256(join(dir, spend.file))).toBe(spend.sha256)
    expect(follower.missing()).toEqual([])
    await follower.close()
  })

  test('a source that redirects to another origin is refused, saying where; allowed by DATA_SOURCE_REDIRECT_ORIGINS, it is followed', async () => {
    const nginxOrigin = new URL(nginx.url).origin
    const redirecting = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: (req) => Response.redirect(`${nginxOrigin}/main${new URL(req.url).pathname}`, 302),
    })
    try {
      const url = `http://127.0.0.1:${redirecting.port}/publication.json`
      const dir = mkdtempSync(join(tmpdir(), 'follower-'))
      await expect(DataFollower.open({ source: publicationSource(url), keys: trusted, dir, pollMs: 60_000, db })).rejects.toThrow(
        `redirected to ${nginxOrigin}, which is not the source's origin (allow it with DATA_SOURCE_REDIRECT_ORIGINS)`,
      )
      const allowed = publicationSource(url, process.env, [nginxOrigin])
      const follower = await DataFollower.open({ source: allowed, keys: trusted, dir, pollMs: 60_000, db })
      expect(follower.status().serving?.sequence).toBe(publicationIn(join(sites, 'main')).sequence)
      await follower.close()
    } finally {
      redirecting.stop(true)
    }
  })

  test('a file that drips is given up once it brings less than the minimum rate over a window', async () => {
    const dripping = Bun.serve({
      port: 0,
      hostname: '127.0.0.1',
      fetch: () =>
        new Response(
          new ReadableStream({
            async pull(controller) {
              await Bun.sleep(50)
              controller.enqueue(new Uint8Array(8))
            },
          }),
          { headers: { 'content-length': '100000' } },
        ),
    })
    try {
      const source = {
        shown: 'drip',
        get: (name: string, _: unknown, signal: AbortSignal) => fetch(`http://127.0.0.1:${dripping.port}/${name}`, { signal }),
      }
      const incoming = join(mkdtempSync(join(tmpdir(), 'drip-')), '.incoming-x')
      // The message is the watchdog's: the download's own deadline (a minute here) would end it otherwise.
      await expect(
        download(source, { file: 'files/x.parquet', bytes: 100_000, sha256: '0'.repeat(64) }, incoming, AbortSignal.timeout(60_000), {
          bytesPerSecond: 1_000,
          windowMs: 400,
        }),
      ).rejects.toThrow(/fewer than 1000 bytes a second arrived over 0.4 s/)
    } finally {
      dripping.stop(true)
    }
  })

  test('an instance restarted on an altered copy downloads the altered file again', async () => {
    const { dir, follower } = await follow(urlOf('main'))
    // One follower per folder: a second one is refused while the first runs.
    await expect(follow(urlOf('main'), dir)).rejects.toThrow(
      /another instance follows a publication into .*give each instance its own DATASETS_DIR/,
    )
    await follower.close()
    const spend = readManifest(dir).datasets.spend!
    const bytes = readFileSync(join(dir, spend.file))
    bytes[100]! ^= 0xff
    writeFileSync(join(dir, spend.file), bytes)
    const again = await follow(urlOf('main'), dir)
    expect(again.follower.metrics().downloadedBytes).toBeGreaterThan(0)
    expect(await fileSha256(join(dir, spend.file))).toBe(spend.sha256)
  })

  test('an S3-compatible bucket: published with the AWS settings, followed by s3:// URL, conditional asks', async () => {
    const target = `s3://${s3.bucket}/fleet`
    const first = await publish(target, A.privatePem, s3.env)
    expect(first.uploaded).toHaveLength(6)
    const { follower, dir } = await follow(`${target}/publication.json`, undefined, s3.env)
    expect(readManifest(dir).datasets.spend!.sha256).toBe(readManifest(team).datasets.spend!.sha256)
    expect(await follower.check()).toBe('unchanged')
    const rolled = await rollbackDataset(team, SPEND)
    const second = await publish(target, A.privatePem, s3.env)
    expect(second.publication.sequence).toBeGreaterThan(first.publication.sequence)
    expect(await follower.check()).toBe('installed')
    expect(readManifest(dir).datasets.spend!.version).toBe(rolled.to.version)
    expect(follower.metrics().checks.get('unchanged')).toBe(1)
    // An object overwritten with other bytes of its size (another tool): its ETag tells, and the next publish uploads it again.
    const spend = second.publication.datasets.spend!
    const bucket = publishTarget(target, s3.env)
    const damaged = readFileSync(join(team, readManifest(team).datasets.spend!.file))
    damaged[damaged.length >> 1]! ^= 0xff
    const other = join(mkdtempSync(join(tmpdir(), 'damaged-')), 'spend.parquet')
    writeFileSync(other, damaged)
    await bucket.upload(spend.file, other)
    expect(await bucket.size(spend.file)).toBe(spend.bytes)
    const repaired = await publish(target, A.privatePem, s3.env)
    expect(repaired).toMatchObject({ changed: false, uploaded: [{ file: spend.file, was: 'altered' }] })
    expect(await bucket.sha256(spend.file)).toBe(spend.sha256)
  })
}
