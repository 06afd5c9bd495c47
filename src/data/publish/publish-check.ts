/**
 * Whether a publication target holds a file as it is published: its size first, then its content. A
 * folder's file is read and hashed; a bucket's object is compared by the ETag it keeps (the MD5 of its
 * bytes, or for a multipart upload the MD5 of its parts' MD5s and their number, as S3 computes it),
 * computed from the local file, and downloaded and hashed only when that cannot tell (parts of an unknown
 * size: another tool uploaded it). `data publish` uploads again what is not intact; `--verify` reports it.
 */
import { createHash } from 'node:crypto'
import { createReadStream, statSync } from 'node:fs'
import { type PublishTarget, UPLOAD_PART_BYTES } from './publication-places'

export type FileState = 'intact' | 'missing' | 'wrong_size' | 'altered'

export interface PublishedFile {
  /** The name in the publication (`files/…`). */
  file: string
  bytes: number
  sha256: string
}

/** The state of `published` on the target; `local`: the same bytes on this machine, to compare a bucket's ETag with. */
export async function fileState(target: PublishTarget, published: PublishedFile, local?: string): Promise<FileState> {
  const size = await target.size(published.file)
  if (size === null) return 'missing'
  if (size !== published.bytes) return 'wrong_size'
  const etag = local && target.etag ? await target.etag(published.file) : null
  const same = etag && local ? await etagMatches(local, etag) : undefined
  if (same) return 'intact'
  return (await target.sha256(published.file)) === published.sha256 ? 'intact' : 'altered'
}

const MIB = 1024 * 1024
/** Part sizes the usual uploaders use (Bun and most SDKs 5 MiB, the AWS CLI 8 MiB, others 16 or 64 MiB). */
const USUAL_PARTS = [UPLOAD_PART_BYTES, 5 * MIB, 8 * MIB, 16 * MIB, 64 * MIB]

/**
 * Whether a bucket's ETag proves the object is the local file: true, or undefined when it cannot tell (other
 * bytes, an object encrypted with a key, parts of a size none of the usual ones gives: the object is read).
 */
export async function etagMatches(local: string, etag: string): Promise<true | undefined> {
  const parsed = /^"?([0-9a-f]{32})(?:-(\d+))?"?$/i.exec(etag)
  if (!parsed) return undefined
  const [, digest, parts] = parsed
  // A single PUT's ETag is the MD5 of the bytes, except for objects encrypted with a key (SSE-KMS, SSE-C):
  // a match proves the bytes, a mismatch proves nothing (the object is then read and hashed).
  if (parts === undefined) return (await md5Parts(local, Number.POSITIVE_INFINITY)).whole === digest!.toLowerCase() || undefined
  const size = statSync(local).size
  const count = Number(parts)
  // The part size is not kept: every usual one that gives this many parts is tried, then the smallest whole MiB that does.
  const sizes = [...new Set([...USUAL_PARTS, Math.ceil(size / count / MIB) * MIB])].filter((p) => Math.ceil(size / p) === count)
  for (const partSize of sizes) if ((await md5Parts(local, partSize)).multipart === `${digest!.toLowerCase()}-${count}`) return true
  return undefined
}

/** The MD5 of a file whole, and its multipart ETag for parts of `partSize` bytes, in one read. */
async function md5Parts(path: string, partSize: number): Promise<{ whole: string; multipart: string }> {
  const whole = createHash('md5')
  const partDigests: Buffer[] = []
  let part = createHash('md5')
  let inPart = 0
  for await (const chunk of createReadStream(path)) {
    const bytes = chunk as Buffer
    whole.update(bytes)
    for (let at = 0; at < bytes.length; ) {
      const take = Math.min(bytes.length - at, partSize - inPart)
      part.update(bytes.subarray(at, at + take))
      at += take
      inPart += take
      if (inPart === partSize) {
        partDigests.push(part.digest())
        part = createHash('md5')
        inPart = 0
      }
    }
  }
  if (inPart > 0) partDigests.push(part.digest())
  const multipart = `${createHash('md5').update(Buffer.concat(partDigests)).digest('hex')}-${partDigests.length}`
  return { whole: whole.digest('hex'), multipart }
}
