/** The commands' tables (`payments report`, `data list`, `providers check`) share one column layout. */
import { expect, test } from 'bun:test'
import { alignedColumns } from '../../src/cli/columns'

test('each column as wide as its widest cell, two spaces apart, right-aligned where asked, no trailing blanks', () => {
  const rows = [
    ['route', 'paid', 'note'],
    ['flights.summary', '12', 'ok'],
    ['spend', '3', ''],
  ]
  expect(alignedColumns(rows).split('\n')).toEqual(['route            paid  note', 'flights.summary  12    ok', 'spend            3'])
  expect(alignedColumns(rows, (column) => column === 1).split('\n')).toEqual([
    'route            paid  note',
    'flights.summary    12  ok',
    'spend               3',
  ])
})
