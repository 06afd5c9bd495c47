import { createHash } from 'node:crypto'
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { x402Facilitator } from '@x402/core/facilitator'
import type { FacilitatorClient } from '@x402/core/server'
import { toFacilitatorEvmSigner } from '@x402/evm'
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/facilitator'
import { createTestClient, createWalletClient, http, parseAbi, publicActions, type Abi, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import type { Chain } from './chain'

/**
 * The x402 `batch-settlement` scheme's contracts on a test chain (support/chain.ts's anvil): our own
 * minimal escrow and ERC-3009 deposit collector (test/parts/contracts, written from the scheme's spec,
 * x402-foundation/x402:specs/schemes/batch-settlement/scheme_batch_settlement_evm.md, and from the ABI
 * and signed messages of `@x402/evm` 2.27.0), compiled with solc-js, and Multicall3, which the package's
 * facilitator reads channel state through. Each is placed with anvil_setCode at the address the package
 * calls, the same on every chain, so the package's unmodified client, server and facilitator use them.
 */

/** The escrow (`x402BatchSettlement`) and the ERC-3009 deposit collector, where `@x402/evm` expects them. */
export const BATCH_ESCROW: Hex = '0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003'
export const ERC3009_COLLECTOR: Hex = '0x4020806089470a89826cB9fB1f4059150b550004'
export const MULTICALL3: Hex = '0xcA11bde05977b3631167028862bE2a173976CA11'

/** The escrow's functions that tests call or read themselves (the package drives the rest). */
export const BATCH_ESCROW_ABI = parseAbi([
  'struct ChannelConfig { address payer; address payerAuthorizer; address receiver; address receiverAuthorizer; address token; uint40 withdrawDelay; bytes32 salt; }',
  'struct Voucher { ChannelConfig channel; uint128 maxClaimableAmount; }',
  'struct VoucherClaim { Voucher voucher; bytes signature; uint128 totalClaimed; }',
  'function CHANNEL_CONFIG_TYPEHASH() view returns (bytes32)',
  'function getChannelId(ChannelConfig config) view returns (bytes32)',
  'function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) view returns (bytes32)',
  'function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) view returns (bytes32)',
  'function getClaimBatchDigest(VoucherClaim[] voucherClaims) view returns (bytes32)',
  'function channels(bytes32 channelId) view returns (uint128 balance, uint128 totalClaimed)',
  'function pendingWithdrawals(bytes32 channelId) view returns (uint128 amount, uint40 initiatedAt)',
  'function receivers(address receiver, address token) view returns (uint128 totalClaimed, uint128 totalSettled)',
  'function refundNonce(bytes32 channelId) view returns (uint256)',
  'function initiateWithdraw(ChannelConfig config, uint128 amount)',
  'function finalizeWithdraw(ChannelConfig config)',
  'function refund(ChannelConfig config, uint128 amount)',
  'function claim(VoucherClaim[] voucherClaims)',
  'error CollectorShortfall(uint256 received, uint256 expected)',
  'error InvalidSignature()',
  'error NotAuthorized()',
  'error ClaimAboveVoucher()',
  'error ClaimAboveBalance()',
  'error BadNonce(uint256 expected)',
  'error WithdrawPending()',
  'error NoWithdrawal()',
  'error WithdrawTooEarly(uint256 availableAt)',
])

// solc-js is a test part: installed into test/parts/node_modules by `npm test` (test/parts/package.json).
const parts = createRequire(join(import.meta.dir, '../test/parts/package.json'))
const CONTRACTS = join(import.meta.dir, '../test/parts/contracts')
const CACHE = join(import.meta.dir, '../test/parts/node_modules/.cache/batch-contracts')
const SOURCES = { escrow: 'BatchEscrow.sol', collector: 'Erc3009Collector.sol' } as const
const CONTRACT_NAMES = { escrow: 'BatchEscrow', collector: 'Erc3009Collector' } as const
const SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
  outputSelection: {
    '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] },
  },
}

export interface CompiledContract {
  abi: Abi
  /** Creation code, and the runtime code that creation leaves (the same thing, as neither has a constructor or immutables). */
  bytecode: Hex
  runtime: Hex
}
export type BatchContracts = Record<keyof typeof SOURCES, CompiledContract>

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[]
  contracts: Record<
    string,
    Record<
      string,
      {
        abi: Abi
        evm: { bytecode: { object: string }; deployedBytecode: { object: string; immutableReferences?: Record<string, unknown> } }
      }
    >
  >
}

let compiled: BatchContracts | undefined

/**
 * The two contracts compiled with solc-js (standard JSON, optimizer on, evmVersion cancun), cached under
 * test/parts/node_modules/.cache by a sha256 of the compiler, its settings and the sources, so test files
 * after the first reuse the output instead of loading the compiler (a few seconds).
 */
export function compileBatchContracts(): BatchContracts {
  if (compiled) return compiled
  const solc = parts('solc') as { compile(input: string): string; version(): string }
  const sources = Object.fromEntries(Object.values(SOURCES).map((file) => [file, { content: readFileSync(join(CONTRACTS, file), 'utf8') }]))
  const version = (parts('solc/package.json') as { version: string }).version
  const key = createHash('sha256').update(JSON.stringify({ version, SETTINGS, sources })).digest('hex')
  const cached = join(CACHE, `${key}.json`)
  try {
    compiled = JSON.parse(readFileSync(cached, 'utf8')) as BatchContracts
    return compiled
  } catch {
    // not compiled yet
  }
  const output = JSON.parse(solc.compile(JSON.stringify({ language: 'Solidity', sources, settings: SETTINGS }))) as SolcOutput
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error')
  if (errors.length) throw new Error(`solc ${solc.version()}:\n${errors.map((error) => error.formattedMessage).join('\n')}`)
  const pick = (which: keyof typeof SOURCES): CompiledContract => {
    const contract = output.contracts[SOURCES[which]]?.[CONTRACT_NAMES[which]]
    if (!contract) throw new Error(`solc gave no ${CONTRACT_NAMES[which]}`)
    // Code placed with anvil_setCode carries no constructor-set values: an immutable would be left zero.
    if (Object.keys(contract.evm.deployedBytecode.immutableReferences ?? {}).length)
      throw new Error(`${CONTRACT_NAMES[which]} has immutables`)
    return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}`, runtime: `0x${contract.evm.deployedBytecode.object}` }
  }
  compiled = { escrow: pick('escrow'), collector: pick('collector') }
  // Written whole, then renamed: test files compiling at once never read half a file.
  mkdirSync(CACHE, { recursive: true })
  const partial = `${cached}.${process.pid}.tmp`
  writeFileSync(partial, JSON.stringify(compiled))
  renameSync(partial, cached)
  return compiled
}

/** viem's Multicall3 creation code: kept in its constants, which viem does not export, so read as text. */
function multicall3CreationCode(): Hex {
  const viemRoot = dirname(createRequire(import.meta.url).resolve('viem/package.json'))
  const text = readFileSync(join(viemRoot, '_esm/constants/contracts.js'), 'utf8')
  const found = /multicall3Bytecode\s*=\s*'(0x[0-9a-fA-F]+)'/.exec(text)
  if (!found) throw new Error('no multicall3Bytecode in viem/_esm/constants/contracts.js')
  return found[1] as Hex
}

/**
 * Places the escrow and the ERC-3009 collector at their canonical addresses, and Multicall3 at its own
 * when the chain has no code there. Each contract's creation code is run (an eth_call, which deploys
 * nothing and returns the code a deployment would leave); that runtime code is then set with anvil_setCode.
 */
export async function installBatchSettlement(chain: Chain): Promise<void> {
  const contracts = compileBatchContracts()
  const anvil = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
  const runtimeOf = async (creation: Hex): Promise<Hex> => {
    const { data } = await chain.client.call({ data: creation })
    if (!data || data === '0x') throw new Error('creation code left no runtime code')
    return data
  }
  const placements: [Hex, Hex][] = [
    [BATCH_ESCROW, await runtimeOf(contracts.escrow.bytecode)],
    [ERC3009_COLLECTOR, await runtimeOf(contracts.collector.bytecode)],
  ]
  const existing = await chain.client.getCode({ address: MULTICALL3 })
  if (!existing || existing === '0x') placements.push([MULTICALL3, await runtimeOf(multicall3CreationCode())])
  for (const [address, bytecode] of placements) {
    await anvil.setCode({ address, bytecode })
    if ((await chain.client.getCode({ address })) !== bytecode) throw new Error(`anvil did not place code at ${address}`)
  }
}

export interface BatchFacilitator {
  facilitator: x402Facilitator
  /** The facilitator as a resource server's FacilitatorClient, in process. */
  client: FacilitatorClient
  /** The account that sends its transactions (funded with ETH, no USDC). */
  settler: PrivateKeyAccount
}

/**
 * An in-process x402 facilitator for the chain's network with `@x402/evm`'s batch-settlement facilitator
 * scheme, signing with `settler` (default: a fresh key given 100 ETH). It has no authorizer signer, so it
 * advertises no receiverAuthorizer: the resource server's scheme signs claims and refunds with its own.
 */
export async function batchFacilitator(chain: Chain, settler = privateKeyToAccount(generatePrivateKey())): Promise<BatchFacilitator> {
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address: settler.address, value: 10n ** 20n })
  const wallet = createWalletClient({
    account: settler,
    chain: chain.client.chain,
    transport: http(chain.rpcUrl),
    pollingInterval: 20,
  }).extend(publicActions)
  const signer = toFacilitatorEvmSigner({
    address: settler.address,
    getCode: (args) => wallet.getCode(args),
    readContract: (args) => wallet.readContract({ ...args, args: args.args ?? [] } as never),
    verifyTypedData: (args) => wallet.verifyTypedData(args as never),
    writeContract: (args) => wallet.writeContract({ ...args, args: args.args ?? [] } as never),
    sendTransaction: (args) => wallet.sendTransaction(args as never),
    waitForTransactionReceipt: (args) => wallet.waitForTransactionReceipt({ ...args, pollingInterval: 20 }),
  })
  const facilitator = new x402Facilitator().register(`eip155:${await chain.client.getChainId()}`, new BatchSettlementEvmScheme(signer))
  const client: FacilitatorClient = {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as Awaited<ReturnType<FacilitatorClient['getSupported']>>,
  }
  return { facilitator, client, settler }
}
