// SPDX-License-Identifier: UNLICENSED
pragma solidity 0.8.37;

/*
 * A minimal escrow for the x402 `batch-settlement` scheme, for tests on a local chain only (anvil).
 *
 * Written for this project from the scheme's specification,
 *   x402-foundation/x402:specs/schemes/batch-settlement/scheme_batch_settlement_evm.md,
 * and from the ABI and EIP-712 messages that the npm package @x402/evm 2.27.0 uses (its batch-settlement
 * client, server and facilitator). It copies no code of the reference contracts; license: our own code.
 *
 * The code is placed at the canonical address with anvil_setCode, which copies code and no storage: so
 * there is no constructor state and no immutable, and the EIP-712 domain ("x402 Batch Settlement", "1",
 * block.chainid, address(this)) is computed on every call.
 *
 * Accounting: a channel's `balance` is what its payer deposited (less refunds and withdrawals) and
 * `totalClaimed` the cumulative amount its receiver claimed from it; `balance - totalClaimed` is still
 * the payer's. Claimed money is owed to the receiver (`receivers[receiver][token]`) until `settle` pays it.
 */

struct ChannelConfig {
    address payer;
    address payerAuthorizer;
    address receiver;
    address receiverAuthorizer;
    address token;
    uint40 withdrawDelay;
    bytes32 salt;
}

struct Voucher {
    ChannelConfig channel;
    uint128 maxClaimableAmount;
}

struct VoucherClaim {
    Voucher voucher;
    bytes signature;
    uint128 totalClaimed;
}

interface IDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata data) external;
}

contract BatchEscrow {
    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 private constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 private constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 private constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 private constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    uint40 private constant MIN_WITHDRAW_DELAY = 900;
    uint40 private constant MAX_WITHDRAW_DELAY = 2_592_000;

    mapping(bytes32 => ChannelState) public channels;
    mapping(bytes32 => PendingWithdrawal) public pendingWithdrawals;
    mapping(address => mapping(address => ReceiverState)) public receivers;
    mapping(bytes32 => uint256) public refundNonce;
    bool private transient entered;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance);
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newTotalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount, uint256 nonce);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 initiatedAt);
    event WithdrawFinalized(bytes32 indexed channelId, uint128 amount);

    error InvalidConfig();
    error InvalidAmount();
    error CollectorShortfall(uint256 received, uint256 expected);
    error InvalidSignature();
    error NotAuthorized();
    error ClaimAboveVoucher();
    error ClaimAboveBalance();
    error BadNonce(uint256 expected);
    error WithdrawPending();
    error NoWithdrawal();
    error WithdrawTooEarly(uint256 availableAt);
    error TransferFailed();
    error Reentered();

    /** One state-changing call at a time (multicall's delegated calls run one after another, each locking on its own). */
    modifier locked() {
        if (entered) revert Reentered();
        entered = true;
        _;
        entered = false;
    }

    // ---- EIP-712 -----------------------------------------------------------------------------------

    function _domainSeparator() private view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("x402 Batch Settlement"), keccak256("1"), block.chainid, address(this))
        );
    }

    function _typedDigest(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked(hex"1901", _domainSeparator(), structHash));
    }

    /** The channel's id: the full EIP-712 digest of its config, bound to this chain and this contract. */
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDigest(
            keccak256(
                abi.encode(
                    CHANNEL_CONFIG_TYPEHASH,
                    config.payer,
                    config.payerAuthorizer,
                    config.receiver,
                    config.receiverAuthorizer,
                    config.token,
                    config.withdrawDelay,
                    config.salt
                )
            )
        );
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDigest(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 index = 0; index < voucherClaims.length; index++) {
            VoucherClaim calldata row = voucherClaims[index];
            entries[index] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(row.voucher.channel),
                    row.voucher.maxClaimableAmount,
                    row.totalClaimed
                )
            );
        }
        return _typedDigest(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    // ---- deposit -----------------------------------------------------------------------------------

    /** Funds a channel through a collector, which must leave exactly `amount` more of the token here. */
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        locked
    {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0) || config.withdrawDelay < MIN_WITHDRAW_DELAY
                || config.withdrawDelay > MAX_WITHDRAW_DELAY
        ) revert InvalidConfig();
        if (amount == 0 || collector == address(0)) revert InvalidAmount();
        bytes32 channelId = getChannelId(config);
        uint256 before = _balanceOf(config.token);
        IDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        uint256 received = _balanceOf(config.token) - before;
        if (received != amount) revert CollectorShortfall(received, amount);
        ChannelState storage channel = channels[channelId];
        if (channel.balance == 0 && channel.totalClaimed == 0) emit ChannelCreated(channelId, config);
        channel.balance += amount;
        emit Deposited(channelId, msg.sender, amount, channel.balance);
    }

    // ---- claim and settle --------------------------------------------------------------------------

    /** Claims vouchers on behalf of their receivers, authorised by the receiver authorizer's batch signature. */
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        locked
    {
        if (voucherClaims.length == 0) revert InvalidAmount();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        for (uint256 index = 1; index < voucherClaims.length; index++) {
            if (voucherClaims[index].voucher.channel.receiverAuthorizer != authorizer) revert NotAuthorized();
        }
        if (!_validSignature(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature)) {
            revert InvalidSignature();
        }
        _claimAll(voucherClaims);
    }

    /** Claims vouchers sent by the receiver (or its authorizer) of every row. */
    function claim(VoucherClaim[] calldata voucherClaims) external locked {
        for (uint256 index = 0; index < voucherClaims.length; index++) {
            ChannelConfig calldata config = voucherClaims[index].voucher.channel;
            if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotAuthorized();
        }
        _claimAll(voucherClaims);
    }

    function _claimAll(VoucherClaim[] calldata voucherClaims) private {
        for (uint256 index = 0; index < voucherClaims.length; index++) {
            _claimOne(voucherClaims[index]);
        }
    }

    /** Raises a channel's claimed total to the row's `totalClaimed`; a row at or below it is a no-op (a replay). */
    function _claimOne(VoucherClaim calldata row) private {
        ChannelConfig calldata config = row.voucher.channel;
        bytes32 channelId = getChannelId(config);
        ChannelState storage channel = channels[channelId];
        if (row.totalClaimed <= channel.totalClaimed) return;
        if (row.totalClaimed > row.voucher.maxClaimableAmount) revert ClaimAboveVoucher();
        if (row.totalClaimed > channel.balance) revert ClaimAboveBalance();
        address voucherSigner = config.payerAuthorizer != address(0) ? config.payerAuthorizer : config.payer;
        if (!_validSignature(voucherSigner, getVoucherDigest(channelId, row.voucher.maxClaimableAmount), row.signature)) {
            revert InvalidSignature();
        }
        uint128 delta = row.totalClaimed - channel.totalClaimed;
        channel.totalClaimed = row.totalClaimed;
        receivers[config.receiver][config.token].totalClaimed += delta;
        emit Claimed(channelId, msg.sender, delta, row.totalClaimed);
    }

    /** Pays a receiver what it claimed and was not yet paid; silent when nothing is owed. Anyone may call it. */
    function settle(address receiver, address token) external locked {
        ReceiverState storage state = receivers[receiver][token];
        uint128 owed = state.totalClaimed - state.totalSettled;
        if (owed == 0) return;
        state.totalSettled = state.totalClaimed;
        _transfer(token, receiver, owed);
        emit Settled(receiver, token, msg.sender, owed);
    }

    // ---- refund ------------------------------------------------------------------------------------

    /** Returns up to `amount` of the unclaimed balance to the payer, sent by the receiver (or its authorizer). */
    function refund(ChannelConfig calldata config, uint128 amount) external locked {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotAuthorized();
        _refund(config, getChannelId(config), amount);
    }

    /** The same, authorised by the receiver authorizer's signature over (channelId, nonce, amount). */
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external locked {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert BadNonce(refundNonce[channelId]);
        if (!_validSignature(config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature)) {
            revert InvalidSignature();
        }
        _refund(config, channelId, amount);
    }

    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 amount) private {
        if (amount == 0) revert InvalidAmount();
        uint256 nonce = refundNonce[channelId]++;
        ChannelState storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 paid = amount < unclaimed ? amount : unclaimed;
        if (paid == 0) return;
        channel.balance -= paid;
        _capWithdrawal(channelId, unclaimed - paid);
        _transfer(config.token, config.payer, paid);
        emit Refunded(channelId, msg.sender, paid, nonce);
    }

    // ---- payer's withdrawal ------------------------------------------------------------------------

    /** Starts the payer's own exit: after the channel's withdraw delay, `amount` of the unclaimed balance can leave. */
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external locked {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert NotAuthorized();
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) revert WithdrawPending();
        ChannelState storage channel = channels[channelId];
        if (amount == 0 || amount > channel.balance - channel.totalClaimed) revert InvalidAmount();
        pending.amount = amount;
        pending.initiatedAt = uint40(block.timestamp);
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp));
    }

    /** Ends it: pays the payer the requested amount, capped at what is still unclaimed then. Anyone may call it. */
    function finalizeWithdraw(ChannelConfig calldata config) external locked {
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoWithdrawal();
        uint256 availableAt = uint256(pending.initiatedAt) + config.withdrawDelay;
        if (block.timestamp < availableAt) revert WithdrawTooEarly(availableAt);
        delete pendingWithdrawals[channelId];
        ChannelState storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 paid = pending.amount < unclaimed ? pending.amount : unclaimed;
        channel.balance -= paid;
        if (paid > 0) _transfer(config.token, config.payer, paid);
        emit WithdrawFinalized(channelId, paid);
    }

    function _capWithdrawal(bytes32 channelId, uint128 unclaimed) private {
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0 || pending.amount <= unclaimed) return;
        if (unclaimed == 0) delete pendingWithdrawals[channelId];
        else pending.amount = unclaimed;
    }

    // ---- multicall ---------------------------------------------------------------------------------

    /** Runs calls of this contract in order, in one transaction; the first revert reverts them all. */
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 index = 0; index < data.length; index++) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[index]);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[index] = result;
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------

    /** ERC-1271 for a signer with code, otherwise ECDSA (65-byte r, s, v with a low s). */
    function _validSignature(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length > 0) {
            (bool ok, bytes memory answer) =
                signer.staticcall(abi.encodeWithSelector(0x1626ba7e, digest, signature));
            return ok && answer.length >= 32 && abi.decode(answer, (bytes4)) == bytes4(0x1626ba7e);
        }
        if (signature.length != 65) return false;
        bytes32 sigR = bytes32(signature[0:32]);
        bytes32 sigS = bytes32(signature[32:64]);
        uint8 sigV = uint8(signature[64]);
        if (sigV < 27) sigV += 27;
        if (uint256(sigS) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return false;
        address recovered = ecrecover(digest, sigV, sigR, sigS);
        return recovered != address(0) && recovered == signer;
    }

    function _balanceOf(address token) private view returns (uint256) {
        (bool ok, bytes memory answer) = token.staticcall(abi.encodeWithSelector(0x70a08231, address(this)));
        if (!ok || answer.length < 32) revert TransferFailed();
        return abi.decode(answer, (uint256));
    }

    function _transfer(address token, address to, uint256 amount) private {
        (bool ok, bytes memory answer) = token.call(abi.encodeWithSelector(0xa9059cbb, to, amount));
        if (!ok || (answer.length > 0 && !abi.decode(answer, (bool)))) revert TransferFailed();
    }
}
