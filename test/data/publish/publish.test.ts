/**
 * What `data publish` refuses to sign, and what an instance's copy refuses to be changed by: the data
 * team publishes only files that are the ones their manifest names and that meet their contracts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readManifest } from '../../../src/data/import/datasets'
import { DuckDb } from '../../../src/data/duckdb'
import {
  PublicationRefused,
  readPublicKeys,
  readUnverified,
  signPublication,
  verifyPublication,
} from '../../../src/data/publish/publication'
import { publishTarget } from '../../../src/data/publish/publication-places'
import { PublishError, publishDatasets } from '../../../src/data/publish/publish'
import { etagMatches } from '../../../src/data/publish/publish-check'
import { verifyTarget } from '../../../src/data/publish/publish-verify'
import { SPEND } from '../../../src/data/contracts'
import { fileSha256, importDataset } from '../../../src/data/import/refresh'
import { runCli } from '../../../support/cli-run'
import { keyPair, teamFolder } from '../../../support/publication'

const key = keyPair()

/** Why a verification refused, or undefined when it did not. */
function refusalOf(verify: () => unknown): string | undefined {
  try {
    verify()
  } catch (error) {
    return error instanceof PublicationRefused ? error.reason : String(error)
  }
  return undefined
}
/** Every file of a target folder and its bytes' hash: what a check that writes nothing leaves as it was. */
const snapshot = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path, createHash('sha256').update(readFileSync(path)).digest('hex')]
      }),
  )

let db: DuckDb
beforeAll(async () => {
  db = await DuckDb.open(1)
})
afterAll(() => db.close())

describe('data publish', () => {
  test('signs every dataset with its sha256, size, rows and period; the signature verifies with the public key only', async () => {
    const team = teamFolder()
    const target = mkdtempSync(join(tmpdir(), 'target-'))
    const { publication, uploaded } = await publishDatasets(db, team, publishTarget(target), { key: createPrivateKey(key.privatePem) })
    const text = readFileSync(join(target, 'publication.json'), 'utf8')
    expect(verifyPublication(text, readPublicKeys(key.publicPem)).publication).toEqual(publication)
    const manifest = readManifest(team)
    for (const [name, entry] of Object.entries(manifest.datasets)) {
      expect(publication.datasets[name]).toMatchObject({ sha256: entry.sha256, rows: entry.rows, period: entry.period, sample: true })
      expect(readFileSync(join(target, publication.datasets[name]!.file)).length).toBe(publication.datasets[name]!.bytes)
    }
    expect(uploaded).toHaveLength(Object.keys(manifest.datasets).length)
    // The DSSE envelope: the payload's bytes are what was signed, under its type.
    const envelope = JSON.parse(text)
    expect(envelope.payloadType).toBe('application/vnd.china-market-intel.publication+json')
    // A first publication's sequence is the clock's Unix seconds: a target that lost its document publishes above the old ones.
    expect(readUnverified(text).sequence).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) - 300)
  })

  test('the same datasets signed with a new key are published again (key rotation); a document naming a path of its own is refused', async () => {
    const team = teamFolder()
    const target = publishTarget(mkdtempSync(join(tmpdir(), 'target-')))
    const first = await publishDatasets(db, team, target, { key: createPrivateKey(key.privatePem) })
    expect((await publishDatasets(db, team, target, { key: createPrivateKey(key.privatePem) })).changed).toBe(false)
    const next = keyPair()
    const rotated = await publishDatasets(db, team, target, { key: createPrivateKey(next.privatePem) })
    expect(rotated).toMatchObject({ changed: true, uploaded: [] })
    expect(rotated.publication.sequence).toBeGreaterThan(first.publication.sequence)
    expect(
      refusalOf(() => verifyPublication(readFileSync(join(target.name, 'publication.json'), 'utf8'), readPublicKeys(key.publicPem))),
    ).toBe('unknown_key')
    // A file outside files/, or named after other bytes than it declares: malformed, whoever signed it.
    const spend = rotated.publication.datasets.spend!
    for (const file of ['files/../spend-000000000000.parquet', `files/spend-${'0'.repeat(12)}.parquet`]) {
      const text = signPublication(
        { ...rotated.publication, datasets: { ...rotated.publication.datasets, spend: { ...spend, file } } },
        createPrivateKey(next.privatePem),
      )
      expect(refusalOf(() => verifyPublication(text, readPublicKeys(next.publicPem)))).toBe('malformed')
    }
  }, 60_000)

  test('a file that is not the one its manifest names is not published, and nothing is written', async () => {
    const team = teamFolder()
    const target = mkdtempSync(join(tmpdir(), 'target-'))
    const spend = join(team, readManifest(team).datasets.spend!.file)
    const bytes = readFileSync(spend)
    bytes[bytes.length >> 1]! ^= 0xff
    writeFileSync(spend, bytes)
    const publishing = publishDatasets(db, team, publishTarget(target), { key: createPrivateKey(key.privatePem) })
    await expect(publishing).rejects.toThrow(PublishError)
    await expect(publishing).rejects.toThrow(/spend\.parquet is not the file manifest\.json names/)
    expect(await publishTarget(target).readText('publication.json')).toBeNull()
  })

  test('a file damaged on the target: --verify reports it and writes nothing; the next publish uploads it again', async () => {
    const team = teamFolder()
    const dir = mkdtempSync(join(tmpdir(), 'target-'))
    const target = publishTarget(dir)
    const signing = createPrivateKey(key.privatePem)
    const { publication } = await publishDatasets(db, team, target, { key: signing })
    expect((await verifyTarget(team, target, signing)).ok).toBe(true)
    const pem = join(mkdtempSync(join(tmpdir(), 'keys-')), 'publisher.pem')
    writeFileSync(pem, key.privatePem)
    expect(await runCli(['data', 'publish', team, '--to', dir, '--verify', '--key', pem])).toMatchObject({ code: 0 })
    // A disk error flips a byte of one file; another tool truncates a second one.
    const { spend, flights } = publication.datasets
    const damaged = readFileSync(join(dir, spend!.file))
    damaged[damaged.length >> 1]! ^= 0xff
    writeFileSync(join(dir, spend!.file), damaged)
    writeFileSync(join(dir, flights!.file), readFileSync(join(dir, flights!.file)).subarray(0, 100))
    const before = snapshot(dir)
    const report = await verifyTarget(team, target, signing)
    expect(report.ok).toBe(false)
    expect(report.files.filter((f) => f.state !== 'intact')).toEqual([
      { dataset: 'flights', file: flights!.file, state: 'wrong_size' },
      { dataset: 'spend', file: spend!.file, state: 'altered' },
    ])
    const cli = await runCli(['data', 'publish', team, '--to', dir, '--verify'])
    expect(cli.code).toBe(1)
    expect(cli.out).toContain(`altered    ${spend!.file}`)
    expect(snapshot(dir)).toEqual(before)

    const repaired = await publishDatasets(db, team, target, { key: signing })
    expect(repaired.changed).toBe(false)
    expect(Object.fromEntries(repaired.uploaded.map((u) => [u.file, u.was]))).toEqual({
      [flights!.file]: 'wrong_size',
      [spend!.file]: 'altered',
    })
    expect(await fileSha256(join(dir, spend!.file))).toBe(spend!.sha256)
    expect((await verifyTarget(team, target, signing)).ok).toBe(true)
    // Intact files are not uploaded again.
    expect((await publishDatasets(db, team, target, { key: signing })).uploaded).toEqual([])
    // A monitor checks with the public key alone.
    const pub = join(mkdtempSync(join(tmpdir(), 'keys-')), 'publisher.pub')
    writeFileSync(pub, key.publicPem)
    expect(await runCli(['data', 'publish', team, '--to', dir, '--verify', '--key', pub])).toMatchObject({ code: 0 })

    // The document itself damaged on the target, still JSON: its signature no longer verifies. Publishing writes it again.
    const envelope = JSON.parse(readFileSync(join(dir, 'publication.json'), 'utf8'))
    const sig = Buffer.from(envelope.signatures[0].sig, 'base64')
    sig[0]! ^= 0xff
    envelope.signatures[0].sig = sig.toString('base64')
    writeFileSync(join(dir, 'publication.json'), JSON.stringify(envelope))
    expect(await verifyTarget(team, target, signing)).toMatchObject({ ok: false, publication: { signed_by_key: false } })
    const rewritten = await publishDatasets(db, team, target, { key: signing })
    expect(rewritten).toMatchObject({ changed: true, uploaded: [] })
    expect((await verifyTarget(team, target, signing)).ok).toBe(true)
  }, 60_000)

  test('--verify: a document another key signed, and a folder with a newer version than the target publishes', async () => {
    const team = teamFolder()
    const dir = mkdtempSync(join(tmpdir(), 'target-'))
    await publishDatasets(db, team, publishTarget(dir), { key: createPrivateKey(key.privatePem) })
    const stranger = await verifyTarget(team, publishTarget(dir), createPrivateKey(keyPair().privatePem))
    expect(stranger).toMatchObject({ ok: false, publication: { state: 'read', signed_by_key: false } })
    // The team imports a new spend version and has not published it yet.
    const delivery = join(mkdtempSync(join(tmpdir(), 'delivery-')), 'spend-doubled.parquet')
    const rows = `read_parquet('${join(team, 'spend.parquet')}', file_row_number = true)`
    await db.exec(
      `COPY (SELECT * EXCLUDE (file_row_number) REPLACE (total_cards * 2 AS total_cards) FROM ${rows} ORDER BY file_row_number) TO '${delivery}' (FORMAT parquet)`,
    )
    await importDataset(db, team, delivery, SPEND)
    const behind = await verifyTarget(team, publishTarget(dir))
    expect(behind.ok).toBe(false)
    expect(behind.datasets.filter((d) => !d.current).map((d) => d.dataset)).toEqual(['spend'])
    expect(behind.files.every((f) => f.state === 'intact')).toBe(true)
    const empty = await runCli(['data', 'publish', team, '--to', mkdtempSync(join(tmpdir(), 'target-')), '--verify', '--json'])
    expect(empty.code).toBe(1)
    expect(JSON.parse(empty.out)).toMatchObject({ ok: false, publication: { state: 'missing' }, files: [] })
  }, 60_000)

  test('the CLI: --to and an Ed25519 --key are required; an instance copy refuses import and rollback', async () => {
    const team = teamFolder()
    expect(await runCli(['data', 'publish', team, '--key', 'k.pem'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('publish needs --to'),
    })
    // A target URL's credentials are never echoed in the refusal.
    const pem = join(mkdtempSync(join(tmpdir(), 'keys-')), 'publisher.pem')
    writeFileSync(pem, key.privatePem)
    const refusedUrl = await runCli(['data', 'publish', team, '--to', 'https://publisher:hunter2-secret@data.example.com/x', '--key', pem])
    expect(refusedUrl.code).toBe(2)
    expect(refusedUrl.err).toContain('https://data.example.com/x: publish to a folder')
    expect(refusedUrl.err).not.toContain('hunter2')
    // A usage error names what is missing and where the rest is, without the whole usage text.
    expect((await runCli(['data', 'publish', team, '--key', 'k.pem'])).err).toBe(
      'publish needs --to <folder | s3://bucket/prefix>\n(`data --help` lists the commands and options)\n',
    )
    const rsa = join(mkdtempSync(join(tmpdir(), 'keys-')), 'rsa.pem')
    writeFileSync(rsa, generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'pem', type: 'pkcs8' }))
    expect(await runCli(['data', 'publish', team, '--to', mkdtempSync(join(tmpdir(), 'target-')), '--key', rsa])).toMatchObject({
      code: 2,
      err: expect.stringContaining('the signing key is rsa, not ed25519'),
    })
    // An instance's copy (manifest.json names the publication it came from) is not a place to import into.
    const copy = teamFolder()
    const manifest = readManifest(copy)
    const publication = { source: 'https://data.example.com/publication.json', sequence: 3, published_at: '2026-11-01T00:00:00.000Z' }
    writeFileSync(
      join(copy, 'manifest.json'),
      JSON.stringify({ ...manifest, publication: { ...publication, key_id: 'ed25519:0', payload_sha256: '0', installed_at: '' } }),
    )
    const refused = await runCli(['data', 'rollback', 'spend', '--dir', copy])
    expect(refused).toMatchObject({
      code: 2,
      err: expect.stringContaining("is an instance's copy of the publication https://data.example.com/publication.json"),
    })
  })
})

describe("a bucket's ETag against the local file", () => {
  const md5 = (bytes: Uint8Array) => createHash('md5').update(bytes).digest()
  const file = join(mkdtempSync(join(tmpdir(), 'etag-')), 'twelve-mib.bin')
  const bytes = new Uint8Array(12 * 1024 * 1024).map((_, i) => (i * 31) % 251)
  writeFileSync(file, bytes)

  test("a single PUT's ETag is the MD5 of the bytes; a multipart upload's the MD5 of its parts' MD5s and their number (S3's rule)", async () => {
    expect(await etagMatches(file, `"${md5(bytes).toString('hex')}"`)).toBe(true)
    // Another MD5: other bytes, or an object encrypted with a key (SSE-KMS): it cannot tell, the object is read.
    expect(await etagMatches(file, `"${'0'.repeat(32)}"`)).toBeUndefined()
    // The AWS CLI's 8 MiB parts: two; 5 MiB parts (Bun, most SDKs): three.
    for (const part of [8, 5]) {
      const size = part * 1024 * 1024
      const parts = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => md5(bytes.subarray(i * size, (i + 1) * size)))
      expect(await etagMatches(file, `"${md5(Buffer.concat(parts)).toString('hex')}-${parts.length}"`)).toBe(true)
    }
    // A multipart ETag of other bytes cannot be told from one of an unknown part size: the object is then read (undefined).
    expect(await etagMatches(file, `"${'0'.repeat(32)}-3"`)).toBeUndefined()
    // Not an MD5 (an object encrypted with a customer's key): undefined as well.
    expect(await etagMatches(file, '"not-an-md5"')).toBeUndefined()
  })
})
