/**
 * What `data publish` refuses to sign, and what an instance's copy refuses to be changed by: the data
 * team publishes only files that are the ones their manifest names and that meet their contracts.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { createPrivateKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readManifest } from '../../src/data/datasets'
import { DuckDb } from '../../src/data/duckdb'
import { PublicationRefused, readPublicKeys, readUnverified, signPublication, verifyPublication } from '../../src/data/publication'
import { publishTarget } from '../../src/data/publication-places'
import { PublishError, publishDatasets } from '../../src/data/publish'
import { runCli } from '../../support/cli-run'
import { keyPair, teamFolder } from '../../support/publication'

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

  test('the CLI: --to and an Ed25519 --key are required; an instance copy refuses import and rollback', async () => {
    const team = teamFolder()
    expect(await runCli(['data', 'publish', team, '--key', 'k.pem'])).toMatchObject({
      code: 2,
      err: expect.stringContaining('publish needs --to'),
    })
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
