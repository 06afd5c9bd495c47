/** Constructed evidence for unit tests of pure functions: no corpus, no server. */
import type { EvidenceItem } from '../../src/intelligence/evidence'

export const AS_OF = new Date('2026-11-16T00:00:00Z')
const DAY = 86_400_000

/** One native Douyin item `daysAgo` days before AS_OF; every field can be overridden. */
export function evidenceItem(id: string, o: Partial<EvidenceItem> & { daysAgo?: number; likes?: number } = {}): EvidenceItem {
  const { daysAgo = 1, likes = 100, ...rest } = o
  return {
    id,
    url: null,
    platform: 'douyin',
    retrieval: 'native',
    sourceKind: 'video',
    author: 'author',
    authorFollowers: 10_000,
    authorCity: null,
    publishedAt: new Date(AS_OF.getTime() - daysAgo * DAY),
    title: '',
    text: '',
    language: 'zh',
    engagement: { likes, comments: Math.round(likes / 10), shares: 0, views: likes * 10 },
    provider: 'test',
    ...rest,
  }
}
