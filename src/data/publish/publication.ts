import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { type Static, Type as T } from '@sinclair/typebox'
import { Value } from '@sinclair/typebox/value'

/**
 * A publication: what `data publish` writes and every instance following it (DATA_SOURCE_URL) verifies
 * before serving a byte of it. The signed document names each dataset's file with its sha256, size, rows
 * and period, and carries a sequence number that only grows, so that an older publication replayed
 * (rollback attack) is told from a newer one.
 *
 * It travels in a DSSE envelope (github.com/secure-systems-lab/dsse, the envelope in-toto and Sigstore
 * use): the payload's exact bytes are signed, so no JSON canonicalisation is needed, and the envelope
 * is one file, so a reader never pairs a new document with an old signature. Ed25519 keys, as
 * `openssl genpkey -algorithm ed25519` makes them.
 */
export const PAYLOAD_TYPE = 'application/vnd.china-market-intel.publication+json'
export const PUBLICATION_FILE = 'publication.json'

/** Where a dataset's file lives, relative to the publication: content-addressed, so never rewritten. */
export const PUBLISHED_FILE = /^files\/([a-z_]+)-([0-9a-f]{12})\.parquet$/
/**
 * Where a dataset's search index lives (the evidence corpus's, intelligence/corpus/corpus-index-cache.ts):
 * named after the dataset file's content and the index's format, installed under the same name beside it.
 */
export const PUBLISHED_INDEX = /^files\/([a-z_]+)-([0-9a-f]{12})\.index-v\d+(?:-[0-9a-f]{12})?\.sqlite$/

const Period = T.Object({ from: T.String({ maxLength: 10 }), to: T.String({ maxLength: 10 }) })

/** A file shipped with a dataset: what a follower checks it against. */
const PublishedIndex = T.Object({
  file: T.String({ pattern: PUBLISHED_INDEX.source }),
  bytes: T.Integer({ minimum: 1 }),
  sha256: T.String({ pattern: '^[0-9a-f]{64}$' }),
})

const PublishedDataset = T.Object({
  file: T.String({ pattern: PUBLISHED_FILE.source }),
  bytes: T.Integer({ minimum: 1 }),
  sha256: T.String({ pattern: '^[0-9a-f]{64}$' }),
  rows: T.Integer({ minimum: 0 }),
  period: Period,
  version: T.String({ maxLength: 100 }),
  schema_version: T.Integer({ minimum: 1 }),
  sample: T.Boolean(),
  notice: T.Optional(T.String({ maxLength: 2000 })),
  /** Its search index, built by the publisher so that no instance builds it again. */
  index: T.Optional(PublishedIndex),
})

const PublicationDocument = T.Object({
  format: T.Literal(1),
  /** 1 for a target's first publication, then one more than the publication it replaces. */
  sequence: T.Integer({ minimum: 1 }),
  published_at: T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}', maxLength: 40 }),
  /** The signing key's id (keyId), inside the signed bytes: the envelope's keyid is only a hint. */
  key_id: T.String({ maxLength: 80 }),
  note: T.Optional(T.String({ maxLength: 2000 })),
  datasets: T.Record(T.String({ pattern: '^[a-z_]+$' }), PublishedDataset),
})

export type PublishedDataset = Static<typeof PublishedDataset>
export type PublishedIndex = Static<typeof PublishedIndex>
export type Publication = Static<typeof PublicationDocument>

const Envelope = T.Object({
  payloadType: T.String(),
  payload: T.String(),
  signatures: T.Array(T.Object({ keyid: T.Optional(T.String()), sig: T.String() }), { minItems: 1, maxItems: 8 }),
})

/** Why a publication is not served; the label /ready and /metrics show. */
export type RefusalReason =
  | 'unreachable'
  | 'malformed'
  | 'unknown_key'
  | 'bad_signature'
  | 'replayed'
  | 'truncated'
  | 'checksum_mismatch'
  | 'contract'

export const REFUSAL_REASONS: readonly RefusalReason[] = [
  'unreachable',
  'malformed',
  'unknown_key',
  'bad_signature',
  'replayed',
  'truncated',
  'checksum_mismatch',
  'contract',
]

export class PublicationRefused extends Error {
  constructor(
    readonly reason: RefusalReason,
    message: string,
  ) {
    super(message)
  }
}

/** DSSE's pre-authentication encoding: what is actually signed, binding the payload to its type. */
function pae(type: string, body: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`DSSEv1 ${Buffer.byteLength(type)} ${type} ${body.length} `), body])
}

/** `ed25519:` and the first 16 hex digits of the sha256 of the public key's SPKI encoding. */
export function keyId(key: KeyObject): string {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key
  const der = publicKey.export({ format: 'der', type: 'spki' })
  return `ed25519:${createHash('sha256').update(der).digest('hex').slice(0, 16)}`
}

const pemOrPath = (value: string) => (value.includes('-----BEGIN') ? value : existsSync(value) ? readFileSync(value, 'utf8') : value)

/** The Ed25519 private key `data publish --key` names (a PEM file or the PEM itself). */
export function readPrivateKey(value: string): KeyObject {
  let key: KeyObject
  try {
    key = createPrivateKey(pemOrPath(value))
  } catch (error) {
    throw new Error(`the signing key is not a PEM private key (${(error as Error).message})`)
  }
  if (key.asymmetricKeyType !== 'ed25519')
    throw new Error(`the signing key is ${key.asymmetricKeyType}, not ed25519 (make one with: openssl genpkey -algorithm ed25519)`)
  return key
}

/**
 * The publishers' public keys an instance trusts (DATA_SOURCE_PUBLIC_KEY: a PEM file or the PEM itself).
 * Several PEM blocks may follow each other: during a key rotation both keys are trusted.
 */
export function readPublicKeys(value: string): Map<string, KeyObject> {
  const text = pemOrPath(value)
  const blocks = text.match(/-----BEGIN PUBLIC KEY-----[\s\S]+?-----END PUBLIC KEY-----/g)
  if (!blocks) throw new Error('holds no PEM public key (-----BEGIN PUBLIC KEY-----; openssl pkey -in key.pem -pubout prints it)')
  const keys = new Map<string, KeyObject>()
  for (const block of blocks) {
    const key = createPublicKey(block)
    if (key.asymmetricKeyType !== 'ed25519') throw new Error(`holds a ${key.asymmetricKeyType} key; publications are signed with ed25519`)
    keys.set(keyId(key), key)
  }
  return keys
}

/** The envelope text of a signed publication. */
export function signPublication(publication: Publication, key: KeyObject): string {
  const body = Buffer.from(JSON.stringify(publication))
  const sig = sign(null, pae(PAYLOAD_TYPE, body), key)
  const envelope = {
    payloadType: PAYLOAD_TYPE,
    payload: body.toString('base64'),
    signatures: [{ keyid: keyId(key), sig: sig.toString('base64') }],
  }
  return `${JSON.stringify(envelope, null, 2)}\n`
}

/** Reads an envelope's document without checking its signature: what a publisher reads of its own target. */
export function readUnverified(text: string): Publication {
  return documentOf(envelopeOf(text))
}

/**
 * The publication an envelope carries, once a trusted key's signature over it verifies. Refused:
 * not an envelope or not a publication (malformed), no signature by a trusted key (unknown_key), a
 * trusted key's signature that does not verify (bad_signature).
 */
export function verifyPublication(text: string, keys: ReadonlyMap<string, KeyObject>): { publication: Publication; digest: string } {
  const envelope = envelopeOf(text)
  const body = Buffer.from(envelope.payload, 'base64')
  const signed = pae(envelope.payloadType, body)
  // The envelope's keyid is a hint an attacker may set: each trusted key is tried against each signature.
  const signers = new Set<string>()
  for (const s of envelope.signatures) {
    const sig = Buffer.from(s.sig, 'base64')
    for (const [id, key] of keys) if (sig.length === 64 && verify(null, signed, key, sig)) signers.add(id)
  }
  if (signers.size === 0) {
    const named = envelope.signatures.map((s) => s.keyid ?? 'no key id').join(', ')
    const trusted = envelope.signatures.some((s) => s.keyid !== undefined && keys.has(s.keyid))
    throw trusted
      ? new PublicationRefused(
          'bad_signature',
          `the signature of the trusted key ${named} does not verify: the document was altered or not signed by it`,
        )
      : new PublicationRefused('unknown_key', `signed by ${named}, not by a trusted key (${[...keys.keys()].join(', ')})`)
  }
  if (envelope.payloadType !== PAYLOAD_TYPE)
    throw new PublicationRefused('malformed', `payload type ${envelope.payloadType}, expected ${PAYLOAD_TYPE}`)
  const publication = documentOf(envelope)
  if (!signers.has(publication.key_id))
    throw new PublicationRefused('unknown_key', `the document names key ${publication.key_id}, not the trusted key that signed it`)
  return { publication, digest: createHash('sha256').update(body).digest('hex') }
}

/** Whether `text` is a publication whose signature verifies with `key` (a private key: its public half). */
export function signedBy(text: string, key: KeyObject): boolean {
  const publicKey = key.type === 'private' ? createPublicKey(key) : key
  try {
    verifyPublication(text, new Map([[keyId(publicKey), publicKey]]))
    return true
  } catch (error) {
    if (error instanceof PublicationRefused) return false
    throw error
  }
}

function envelopeOf(text: string): Static<typeof Envelope> {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new PublicationRefused('malformed', `not JSON (${(error as Error).message})`)
  }
  if (!Value.Check(Envelope, parsed))
    throw new PublicationRefused('malformed', 'not a signed publication envelope (payloadType, payload, signatures)')
  return parsed
}

function documentOf(envelope: Static<typeof Envelope>): Publication {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'))
  } catch (error) {
    throw new PublicationRefused('malformed', `the signed payload is not JSON (${(error as Error).message})`)
  }
  if (!Value.Check(PublicationDocument, parsed)) {
    const first = Value.Errors(PublicationDocument, parsed).First()
    throw new PublicationRefused(
      'malformed',
      `the signed payload is not a publication (${first?.path || '/'}: ${first?.message ?? 'invalid'})`,
    )
  }
  // A file is named after its dataset and its content: no other path, and no name reused for other bytes.
  for (const [name, entry] of Object.entries(parsed.datasets)) {
    const [, dataset, hash] = PUBLISHED_FILE.exec(entry.file) ?? []
    if (dataset !== name || hash !== entry.sha256.slice(0, 12))
      throw new PublicationRefused('malformed', `dataset ${name} names the file ${entry.file}`)
    if (entry.index) {
      // The index of this very file: its name holds the file's dataset and hash.
      const [, indexed, of] = PUBLISHED_INDEX.exec(entry.index.file) ?? []
      if (indexed !== name || of !== hash) throw new PublicationRefused('malformed', `dataset ${name} names the index ${entry.index.file}`)
    }
  }
  return parsed
}
