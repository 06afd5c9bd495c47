import { createHash } from 'node:crypto'
import { PublicationRefused } from './publication'
import type { PublicationSource } from './publication-places'

/**
 * Streams one published file to `incoming`, hashing as it goes, and returns the bytes received. More
 * bytes than published stop the download (a checksum mismatch: not what was signed), fewer are a
 * truncated download, other bytes a checksum mismatch; an unanswered request is unreachable.
 */
export async function download(
  source: PublicationSource,
  published: { file: string; bytes: number; sha256: string },
  incoming: string,
  signal: AbortSignal,
  minimum: MinimumRate = MINIMUM_RATE,
): Promise<number> {
  // A source that drips (or a link that all but stalls) gives up this download, not the follower's whole half hour.
  const slow = new AbortController()
  let bytes = 0
  let checked = 0
  const watch = setInterval(() => {
    if (bytes - checked < (minimum.bytesPerSecond * minimum.windowMs) / 1000 && bytes < published.bytes) slow.abort()
    checked = bytes
  }, minimum.windowMs)
  watch.unref()
  const tooSlow = () =>
    new PublicationRefused(
      'unreachable',
      `${published.file}: fewer than ${minimum.bytesPerSecond} bytes a second arrived over ${minimum.windowMs / 1000} s (${bytes} of ${published.bytes} bytes)`,
    )
  try {
    return await receive(source, published, incoming, AbortSignal.any([signal, slow.signal]), (n) => (bytes = n))
  } catch (error) {
    throw slow.signal.aborted && !signal.aborted ? tooSlow() : error
  } finally {
    clearInterval(watch)
  }
}

/** The least a download must bring, measured over each window. */
export interface MinimumRate {
  bytesPerSecond: number
  windowMs: number
}

/** 16 KiB a second over each half minute: a 1 GB corpus at that rate would still take 18 hours; far slower is a stall. */
export const MINIMUM_RATE: MinimumRate = { bytesPerSecond: 16 * 1024, windowMs: 30_000 }

async function receive(
  source: PublicationSource,
  published: { file: string; bytes: number; sha256: string },
  incoming: string,
  signal: AbortSignal,
  progress: (bytes: number) => void,
): Promise<number> {
  let answer: Response
  try {
    answer = await source.get(published.file, undefined, signal)
  } catch (error) {
    throw new PublicationRefused('unreachable', `${published.file}: ${(error as Error).message}`)
  }
  if (!answer.ok || !answer.body) throw new PublicationRefused('unreachable', `${published.file}: the source answered ${answer.status}`)
  const hash = createHash('sha256')
  const sink = Bun.file(incoming).writer()
  let bytes = 0
  try {
    for await (const chunk of answer.body) {
      bytes += chunk.byteLength
      progress(bytes)
      if (bytes > published.bytes)
        throw new PublicationRefused('checksum_mismatch', `${published.file} is longer than the ${published.bytes} bytes published`)
      hash.update(chunk)
      sink.write(chunk)
    }
  } catch (error) {
    if (error instanceof PublicationRefused) throw error
    throw new PublicationRefused('truncated', `${published.file}: the download broke off after ${bytes} of ${published.bytes} bytes`)
  } finally {
    await sink.end()
  }
  if (bytes < published.bytes)
    throw new PublicationRefused('truncated', `${published.file}: ${bytes} of the ${published.bytes} bytes published arrived`)
  const sha256 = hash.digest('hex')
  if (sha256 !== published.sha256)
    throw new PublicationRefused('checksum_mismatch', `${published.file} has sha256 ${sha256}, the publication signed ${published.sha256}`)
  return bytes
}

/** Reads at most `max` bytes of a body: a publication document is small, and a huge one is not one. */
export async function boundedText(answer: Response, max: number): Promise<string> {
  const declared = Number(answer.headers.get('content-length') ?? 0)
  if (declared > max) throw new PublicationRefused('malformed', `the publication is ${declared} bytes (at most ${max})`)
  const chunks: Uint8Array[] = []
  let size = 0
  try {
    for await (const chunk of answer.body ?? []) {
      size += chunk.byteLength
      if (size > max) throw new PublicationRefused('malformed', `the publication is over ${max} bytes`)
      chunks.push(chunk)
    }
  } catch (error) {
    if (error instanceof PublicationRefused) throw error
    throw new PublicationRefused('unreachable', `the publication's download broke off (${(error as Error).message})`)
  }
  return Buffer.concat(chunks).toString('utf8')
}
