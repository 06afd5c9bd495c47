/**
 * The corpus index leaves a name out where a longer known name hides it, as relevance does, and only
 * where relevance's own pass would: relevance blanks hiding names left to right, one match at a time,
 * so of two overlapping hiders one is cut short and the name inside it stays visible (review of issue 48:
 * `le paris rue paris` is about Paris for relevance, and was left out of Paris's posts).
 */
import { Database } from 'bun:sqlite'
import { expect, test } from 'bun:test'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { NAMES_SCHEMA, NamesPass } from '../../../src/intelligence/corpus/corpus-index-names'
import type { CorpusVocabulary } from '../../../src/intelligence/corpus/corpus-vocabulary'

/** The posts of the entity named `paris` once the pass has read `texts` (post i is rowid i). */
function parisPosts(texts: string[]): number[] {
  const vocabulary: CorpusVocabulary = {
    names: [
      { name: 'le paris rue', hiders: [] },
      { name: 'paris', hiders: ['le paris rue', 'rue paris', '巴黎春天'] },
      { name: 'rue paris', hiders: [] },
      { name: '巴黎', hiders: ['巴黎春天'] },
      { name: '巴黎春天', hiders: [] },
      { name: '春天', hiders: [] },
    ],
    entities: [{ key: 'paris', names: ['paris', '巴黎'] }],
    fingerprint: 'test',
  }
  const db = new Database(':memory:')
  db.exec(NAMES_SCHEMA)
  const pass = new NamesPass(db, vocabulary, join(mkdtempSync(join(tmpdir(), 'names-')), 'staging.sqlite'))
  texts.forEach((text, rowid) => pass.add(rowid, '', text, 'someone'))
  pass.finish()
  pass.detach()
  return db
    .query<{ post: number }, []>('SELECT post FROM entity_rows ORDER BY n')
    .all()
    .map((row) => row.post)
}

test('a name inside one hider is left out; inside hiders that overlap, it is found, as relevance finds it', () => {
  expect(
    parisPosts([
      'le paris rue opens a shop', // 0: inside one hider only
      'le paris rue paris', // 1: two hiders overlap; relevance blanks the first and reads "paris" after it
      'a week in paris', // 2: the name alone
      'rue paris, then le paris rue', // 3: two hiders apart: both blanked
      '巴黎春天 百货', // 4: inside a Chinese hider
      '巴黎春天天 and 巴黎', // 5: the name alone after the hider
    ]),
  ).toEqual([1, 2, 5])
})
