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
import KeychainTPM

extension TPMHome: HardwareRoot {
    package func makePasscodeKey(authorization: SymmetricKey) throws(KeychainError) -> Data {
        var value = authorization.withUnsafeBytes { Array($0) }
        defer { PrivateFile.zero(&value) }
        let blob = try withTPM("making the passcode's key") { tpm throws(TPMError) in
            let root = try tpm.createPrimary(TPMTemplate.storageRoot)
            return try tpm.create(TPMTemplate.hmacKey, under: root, authorization: value)
        }
        return Data(blob.serialized)
    }

    package func answer(
        of key: Data,
        authorization: SymmetricKey,
        challenge: Data
    ) throws(KeychainError) -> SymmetricKey {
        guard let blob = TPMObjectBlob(serialized: key) else {
            throw KeychainError(.decode, "the keybag's TPM passcode key is damaged")
        }
        var value = authorization.withUnsafeBytes { Array($0) }
        defer { PrivateFile.zero(&value) }
        do {
            var digest = try TPMConnection.using(configuration) { tpm throws(TPMError) in
                let root = try tpm.createPrimary(TPMTemplate.storageRoot)
                let handle = try tpm.load(blob, under: root)
                return try tpm.hmac(Array(challenge), key: handle, authorization: value)
            }
            defer { PrivateFile.zero(&digest) }
            return SymmetricKey(data: digest)
        } catch  where error.kind == .authorizationFailed && error.context == "TPM2_HMAC" {
            throw KeychainError(.authenticationFailed, "the passcode is not correct")
        } catch {
            throw Self.translate(error, action: "checking the passcode", configuration: configuration)
        }
    }
}
