/**
 * The long-tail world of the scale benchmark (`generate-sample-data.ts --scale N --long-tail`, issue 48):
 * only the head (the 10% of topics, brands and destinations with the most posts) grows N times; every
 * other entity keeps its very posts of the shipped corpus, so a rare entity is as rare in a larger corpus.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test'
import { rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { readManifest } from '../../src/data/import/datasets'
import { DuckDb } from '../../src/data/duckdb'
import { generateSampleWorld } from '../../support/sample-world'

const ROOT = resolve(import.meta.dir, '../..')
let out: string
let db: DuckDb

beforeAll(async () => {
  out = await generateSampleWorld('long-tail-sample', ['--scale', '3', '--long-tail', '--cities', '1'])
  db = await DuckDb.open(1)
}, 120_000)
afterAll(() => {
  db?.close()
  rmSync(out, { recursive: true, force: true })
})

/** A post's subject from its id (`<kind>-<platform>-<day>-<subject>-<k>`): the entity it was written about. */
const SUBJECT = `split_part(id, '-', 1) || ':' || regexp_extract(id, '\\d{4}-\\d{2}-\\d{2}-(.*)-\\d+$', 1)`

test('the head grows three times, every other entity keeps its very posts', async () => {
  const file = (dir: string) => `read_parquet('${join(dir, readManifest(dir).datasets.evidence!.file)}')`
  const [shipped, scaled] = [file(join(ROOT, 'datasets')), file(out)]
  const ratios = await db.all<{ kind: string; head: number; tail: number }>(
    `WITH a AS (SELECT ${SUBJECT} AS s, count(*) AS n FROM ${shipped} GROUP BY 1), b AS (SELECT ${SUBJECT} AS s, count(*) AS n FROM ${scaled} GROUP BY 1)
     SELECT split_part(a.s, ':', 1) AS kind, count(*) FILTER (WHERE b.n > 2 * a.n)::INTEGER AS head, count(*) FILTER (WHERE b.n = a.n)::INTEGER AS tail
     FROM a JOIN b USING (s) GROUP BY 1 ORDER BY 1`,
  )
  // 10% of 127 brands, 70 destinations and 96 topics (rounded up); the rest keep their counts exactly.
  expect(ratios).toEqual([
    { kind: 'brand', head: 13, tail: 114 },
    { kind: 'place', head: 7, tail: 63 },
    { kind: 'topic', head: 10, tail: 86 },
  ])
  const [{ differing }] = (await db.all<{ differing: number }>(
    `WITH a AS (SELECT * FROM ${shipped}), b AS (SELECT * FROM ${scaled}),
       grown AS (SELECT s FROM (SELECT ${SUBJECT} AS s FROM a) GROUP BY s HAVING count(*) * 2 < (SELECT count(*) FROM b WHERE ${SUBJECT} = s))
     SELECT count(*)::INTEGER AS differing FROM ((SELECT * FROM a EXCEPT SELECT * FROM b) UNION ALL (SELECT * FROM b EXCEPT SELECT * FROM a))
     WHERE ${SUBJECT} NOT IN (SELECT s FROM grown)`,
  )) as [{ differing: number }]
  expect(differing).toBe(0)
}, 60_000)
