import type { DatasetContract } from '../contracts'
import { DatasetUnavailableError, type FollowedPublication } from '../import/datasets'
import type { DuckDb } from '../duckdb'
import { PublicationRefused, type Publication, type PublishedDataset, type RefusalReason } from './publication'
import { validateFile } from '../import/validate'

/** What a follower (follow.ts) decides by rule: which refusals last, how long it waits, how it fails to start. */

/**
 * Refusals for what a document or its files are: they hold for as long as the same document is served.
 * A checksum mismatch is not one of them: a transfer corrupted once (or a proxy's error page appended)
 * looks the same as a bad file, and files are named by their content, so the next check fetches it again.
 */
export const LASTING: ReadonlySet<RefusalReason> = new Set(['malformed', 'unknown_key', 'bad_signature', 'replayed', 'contract'])
/** Back-off after failures stops growing here (or at one poll interval, when that is longer). */
const MAX_BACKOFF_MS = 15 * 60_000

/** No verified publication to start with; `reason` is why the last check did not install one. */
export class SourceUnavailableError extends DatasetUnavailableError {
  constructor(
    message: string,
    readonly reason?: RefusalReason,
  ) {
    super(message)
  }
}

/**
 * The wait before the next check: one poll interval, doubled for each failure in a row up to ten
 * intervals or 15 minutes (whichever is shorter, but never under one interval), then varied by up to a
 * fifth either way (`random` in [0, 1)) so that instances started together spread their calls.
 */
export function nextCheckDelayMs(pollMs: number, failures: number, random: number): number {
  const cap = Math.max(pollMs, Math.min(MAX_BACKOFF_MS, pollMs * 10))
  const base = Math.min(pollMs * 2 ** failures, cap)
  return Math.round(base * (0.8 + 0.4 * random))
}

export const sequenceOf = (error: unknown) => {
  const sequence = (error as { sequence?: unknown }).sequence
  return typeof sequence === 'number' ? { sequence } : {}
}

/** The contract check `data import` makes, and the rows and period the publication states. */
export async function validatePublished(
  db: DuckDb,
  contract: DatasetContract,
  published: PublishedDataset,
  file: string,
  publishedAt: string,
): Promise<void> {
  // "No future period" is judged at the later of this clock and the publisher's: a clock behind does not split the fleet.
  const today = new Date(Math.max(Date.now(), Date.parse(publishedAt)))
  const report = await validateFile(db, file, contract, today)
  const first = report.violations[0]
  if (first)
    throw new PublicationRefused(
      'contract',
      `${published.file} does not meet the ${contract.name} contract (${report.violations.length} defect(s); first: ${first.column ? `${first.column}: ` : ''}${first.message})`,
    )
  if (report.rows !== published.rows)
    throw new PublicationRefused('contract', `${published.file} holds ${report.rows} rows, the publication states ${published.rows}`)
}

/** An older publication than the floor, or another document under the sequence installed (`installed`: this source's), is refused. */
export function refuseReplay(publication: Publication, digest: string, floor: number, installed: FollowedPublication | undefined): void {
  if (publication.sequence < floor)
    throw new PublicationRefused(
      'replayed',
      `publication ${publication.sequence} (${publication.published_at}) is older than ${floor}, already installed: an old publication served again`,
    )
  if (installed && publication.sequence === installed.sequence && digest !== installed.payload_sha256)
    throw new PublicationRefused(
      'replayed',
      `a different document under sequence ${publication.sequence}, already installed with other contents`,
    )
}
