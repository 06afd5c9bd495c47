/** Every file path a comment of src/ names exists (test/architecture/pointers.ts says how paths are looked for). */
import { expect, test } from 'bun:test'
import { stalePointers, stalePointersIn } from './pointers'

test('no comment in src/ points to a file that is not there', () => {
  expect(stalePointersIn('src')).toEqual([])
})

test('the check finds what it forbids, and lets pass what names a file or another package', () => {
  const text = [
    '/** Stored by the ledger (payments/ledger.ts), read by src/ledger/sqlite.ts. */',
    'export const a = 1 // see nowhere-at-all.ts, and x402:src/types/shared/evm/config.ts',
  ].join('\n')
  expect(stalePointers('src/payments/x.ts', text)).toEqual([
    'src/payments/x.ts:1 payments/ledger.ts',
    'src/payments/x.ts:2 nowhere-at-all.ts',
  ])
})
