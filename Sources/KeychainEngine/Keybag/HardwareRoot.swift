//===----------------------------------------------------------------------===//
//
// This source file is part of the swift-keychain open source project
//
// Copyright (c) 2026 the swift-keychain project authors
// Licensed under Apache License v2.0
//
// See LICENSE.txt for license information
//
// SPDX-License-Identifier: Apache-2.0
//
//===----------------------------------------------------------------------===//

package import Crypto
package import Foundation
package import KeychainCore

/// What a hardware root adds to the passcode: a key inside it whose use a value derived from the
/// passcode authorizes, so that a guess can only be checked with that hardware, and a count of
/// wrong guesses kept there, so that no copy of the files gives one back.
///
/// The TPM store implements it; the file store has none.
package protocol HardwareRoot: Sendable {
    /// The store in use, as `security status` names it: "TPM 2.0 (IBM, firmware 8217.4131)".
    var description: String { get }

    /// Makes a key whose use `authorization` authorizes; returns it as the keybag stores it.
    func makePasscodeKey(authorization: SymmetricKey) throws(KeychainError) -> Data

    /// The answer of the passcode key `key` to `challenge`.
    /// - Throws: `authenticationFailed` when `authorization` is not the key's (a wrong
    ///   passcode), `notAvailable` when the hardware does not answer, `decode` for a key that
    ///   is not this hardware's.
    func answer(of key: Data, authorization: SymmetricKey, challenge: Data) throws(KeychainError) -> SymmetricKey

    /// Consecutive wrong passcodes, as the hardware counts them.
    func passcodeFailures() throws(KeychainError) -> Int

    /// Sets the hardware's count (a write: the caller writes only a change).
    func setPasscodeFailures(_ count: Int) throws(KeychainError)

    /// Makes a P-256 key inside the hardware, its use authorized by \`authorization\`: the key as
    /// the keychain stores it (useless without this hardware) and its public key (X9.63).
    func makeEnclaveKey(authorization: [UInt8]) throws(KeychainError) -> (key: Data, publicKey: Data)

    /// The public key (X9.63) of an enclave key as stored; \`nil\` for bytes that are not one.
    func publicKey(ofEnclaveKey key: Data) -> Data?

    /// An ECDSA signature (DER) of \`digest\` by an enclave key.
    func sign(digest: Data, key: Data, authorization: [UInt8]) throws(KeychainError) -> Data

    /// ECDH's shared secret of an enclave key and \`publicKey\` (X9.63).
    func agree(with publicKey: Data, key: Data, authorization: [UInt8]) throws(KeychainError) -> Data
}

extension DeviceSecretStore {
    package var hardwareRoot: (any HardwareRoot)? { nil }

    package var storeDescription: String { "file" }
}
