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

import Crypto
package import Foundation

/// A device's own keys in a circle.
///
/// One signs what it writes, one receives the circle's keys. Kept in the device's keychain
/// (`…ThisDeviceOnly`), never synchronised.
package struct DeviceIdentity: Sendable {
    private let signing: P256.Signing.PrivateKey
    private let agreement: P256.KeyAgreement.PrivateKey
    package let record: DeviceRecord

    package var id: DeviceID { record.id }

    /// New keys for a device named `name`.
    package init(name: String) throws(SyncError) {
        try self.init(signing: P256.Signing.PrivateKey(), agreement: P256.KeyAgreement.PrivateKey(), name: name)
    }

    private init(
        signing: P256.Signing.PrivateKey,
        agreement: P256.KeyAgreement.PrivateKey,
        name: String
    )
        throws(SyncError)
    {
        self.signing = signing
        self.agreement = agreement
        record = try DeviceRecord(
            signingKey: signing.publicKey.x963Representation,
            agreementKey: agreement.publicKey.x963Representation,
            name: name
        )
    }

    /// The private keys and the name, for the keychain item that keeps them.
    package var rawRepresentation: Data {
        var writer = WireWriter()
        writer.appendField(signing.rawRepresentation)
        writer.appendField(agreement.rawRepresentation)
        writer.appendField(Data(record.name.utf8))
        return writer.bytes
    }

    package init(rawRepresentation: Data) throws(SyncError) {
        var reader = WireReader(rawRepresentation)
        let signingBytes = try reader.field()
        let agreementBytes = try reader.field()
        let nameBytes = try reader.field()
        try reader.finish()
        guard let signing = try? P256.Signing.PrivateKey(rawRepresentation: signingBytes),
            let agreement = try? P256.KeyAgreement.PrivateKey(rawRepresentation: agreementBytes),
            let name = String(data: nameBytes, encoding: .utf8)
        else { throw SyncError(.malformed, "a device identity is damaged") }
        try self.init(signing: signing, agreement: agreement, name: name)
    }

    /// This device's signature of `message` (raw r‖s).
    package func signature(for message: Data) -> Data {
        // Signing with a valid key over bytes in memory does not fail.
        (try? signing.signature(for: message).rawRepresentation) ?? Data()
    }

    /// The secret this device shares with the holder of `ephemeralKey`.
    func sharedSecret(with ephemeralKey: Data) throws(SyncError) -> SharedSecret {
        guard let key = try? P256.KeyAgreement.PublicKey(x963Representation: ephemeralKey),
            let secret = try? agreement.sharedSecretFromKeyAgreement(with: key)
        else { throw SyncError(.malformed, "a grant's ephemeral key is not a P-256 key") }
        return secret
    }
}
