// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.37;

/*
 * The ERC-3009 deposit collector of the x402 `batch-settlement` scheme, for tests on a local chain only.
 *
 * Written for this project from the scheme's specification,
 *   x402-foundation/x402:specs/schemes/batch-settlement/scheme_batch_settlement_evm.md,
 * and from the deposit encoding of the npm package @x402/evm 2.27.0 (the payer signs USDC's
 * ReceiveWithAuthorization to this collector with nonce keccak256(abi.encode(channelId, salt)); the
 * collector data is abi.encode(validAfter, validBefore, salt, signature)). It copies no code of the
 * reference contracts; license: our own code.
 *
 * Placed with anvil_setCode at the canonical address: no constructor state, no immutable.
 */

interface IReceiveWithAuthorization {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external;
}

contract Erc3009Collector {
    /** The escrow at its canonical address: the only caller, and where the collected tokens go. */
    address private constant ESCROW = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error NotEscrow();
    error TransferFailed();

    /** Pulls `amount` from the payer with its ERC-3009 authorization (USDC requires `to == msg.sender`), then hands it to the escrow. */
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external {
        if (msg.sender != ESCROW) revert NotEscrow();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(data, (uint256, uint256, uint256, bytes));
        IReceiveWithAuthorization(token).receiveWithAuthorization(
            payer, address(this), amount, validAfter, validBefore, keccak256(abi.encode(channelId, salt)), signature
        );
        (bool ok, bytes memory answer) = token.call(abi.encodeWithSelector(0xa9059cbb, ESCROW, amount));
        if (!ok || (answer.length > 0 && !abi.decode(answer, (bool)))) revert TransferFailed();
    }
}
