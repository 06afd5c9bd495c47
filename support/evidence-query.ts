/**
 * What evidence tests ask providers: a search of 露营 (camping) as a lane asks it, over two compared
 * windows of `days` ending at `now` (the split between them left out with `split: false`), and the abort
 * signal a call is given.
 */
import { ask } from '../src/intelligence/names/asked'
import { STATIC_ENTITIES } from '../src/intelligence/names/entities'
import type { EvidenceQuery } from '../src/intelligence/evidence'

const DAY = 86_400_000

export interface CampingQuery extends Partial<Omit<EvidenceQuery, 'split'>> {
  /** Length of each compared window. */
  days?: number
  /** When the windows end (epoch ms). */
  now?: number
  /** Where the windows split (default: `days` before `now`); false: one window, no split. */
  split?: Date | false
}

export function campingQuery(options: CampingQuery = {}): EvidenceQuery {
  const { days = 30, now = Date.now(), split, ...fields } = options
  return {
    platform: 'douyin',
    step: 'native',
    keyword: '露营',
    match: ask(STATIC_ENTITIES, '露营').match,
    q: '露营',
    from: new Date(now - 2 * days * DAY),
    to: new Date(now),
    limit: 50,
    ...(split === false ? {} : { split: split ?? new Date(now - days * DAY) }),
    ...fields,
  }
}

/** The signal of a call nobody cancels. */
export const signal = () => new AbortController().signal
