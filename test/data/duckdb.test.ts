import { afterAll, beforeAll, expect, test } from 'bun:test'
import { existsSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDb } from '../../src/data/duckdb'

let db: DuckDb
beforeAll(async () => {
  db = await DuckDb.open(2)
})
afterAll(() => db.close())

test('200 concurrent parameterised queries each get their own rows', async () => {
  const ids = Array.from({ length: 200 }, (_, i) => i)
  const rows = await Promise.all(ids.map((i) => db.all<{ v: number; s: string }>('SELECT $1::INTEGER * 2 AS v, $2 AS s', [i, `q${i}`])))
  expect(rows).toEqual(ids.map((i) => [{ v: i * 2, s: `q${i}` }]))
})

test('a failing query releases its connection for the next one', async () => {
  await expect(db.all('SELECT * FROM no_such_table')).rejects.toThrow()
  await expect(db.all('SELECT * FROM no_such_table')).rejects.toThrow()
  await expect(db.all('SELECT * FROM no_such_table')).rejects.toThrow()
  expect(await db.all<{ ok: number }>('SELECT 1::INTEGER AS ok')).toEqual([{ ok: 1 }])
})

test('extensions are never downloaded: autoinstall is off', async () => {
  expect(await db.all<{ value: string }>("SELECT current_setting('autoinstall_known_extensions')::VARCHAR AS value")).toEqual([
    { value: 'false' },
  ])
})

test('a memory limit bounds the engine, and what it spills goes to a folder of the temporary directory, not the working one', async () => {
  const bounded = await DuckDb.open(1, 256)
  try {
    const [row] = await bounded.all<{ limit: string; temp: string }>(
      "SELECT current_setting('memory_limit') AS limit, current_setting('temp_directory') AS temp",
    )
    expect(row!.limit).toBe('244.1 MiB') // 256 MB, as DuckDB writes it
    expect(row!.temp).toBe(bounded.spillDir)
    expect(bounded.spillDir.startsWith(join(tmpdir(), 'china-market-intel-duckdb-'))).toBe(true)
    expect(statSync(bounded.spillDir).mode & 0o777).toBe(0o700) // this user's alone
    expect(await bounded.memoryBytes()).toBeGreaterThanOrEqual(0)
  } finally {
    bounded.close()
  }
  expect(existsSync(bounded.spillDir)).toBe(false) // removed on close
})

test('a kept prepared statement reads the table as it is now: rows added, the table replaced, or a failed run', async () => {
  const read = () => db.all<{ v: string }>('SELECT v FROM kept_statement WHERE k >= $1 ORDER BY k', [2])
  await db.exec("CREATE TABLE kept_statement AS SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(k, v)")
  // Twice per connection of the pool, so each connection runs its kept statement again.
  for (let i = 0; i < 4; i++) expect(await read()).toEqual([{ v: 'b' }])
  await db.exec("INSERT INTO kept_statement VALUES (3, 'c')")
  expect((await Promise.all([read(), read()])).flat().map((r) => r.v)).toEqual(['b', 'c', 'b', 'c'])
  await db.exec('DROP TABLE kept_statement')
  await expect(read()).rejects.toThrow()
  await expect(read()).rejects.toThrow()
  await db.exec("CREATE TABLE kept_statement AS SELECT * FROM (VALUES (2, 'x', 0.5), (5, 'y', 1.5)) t(k, v, w)")
  expect((await Promise.all([read(), read()])).flat().map((r) => r.v)).toEqual(['x', 'y', 'x', 'y'])
  expect(await db.jsonRows<{ v: string }>('SELECT to_json(struct_pack(v)) FROM kept_statement WHERE w > $1', [1])).toEqual([{ v: 'y' }])
})
