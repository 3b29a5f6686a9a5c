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

extension TPMConnection {
    /// An ECDSA signature of `digest` by the loaded P-256 key `handle`: `r` and `s`, 32 bytes each.
    ///
    /// The hash named in the signature scheme is the one whose size `digest` has (SHA-1, SHA-256,
    /// SHA-384, SHA-512), as the TPM requires.
    package func sign(
        digest: [UInt8],
        key handle: UInt32,
        authorization: [UInt8]
    ) throws(TPMError) -> (r: [UInt8], s: [UInt8]) {
        let hash: UInt16
        switch digest.count {
        case 20: hash = 0x0004
        case 32: hash = TPMTemplate.sha256
        case 48: hash = 0x000C
        case 64: hash = 0x000D
        default: throw TPMError(.failed, context: "TPM2_Sign: a digest of \(digest.count) bytes")
        }
        let command = TPMCommand(
            "TPM2_Sign",
            code: TPMCommand.Code.sign,
            handles: [handle],
            authorizations: [authorization]
        ) { out in
            out.appendSized(digest)
            out.append(TPMTemplate.ecdsa)
            out.append(hash)
            out.append(UInt16(0x8024))  // TPMT_TK_HASHCHECK: TPM_ST_HASHCHECK,
            out.append(UInt32(0x4000_0007))  // TPM_RH_NULL,
            out.appendSized([UInt8]())  // no digest: the TPM did not hash the message
        }
        var reader = try execute(command).parameters(handles: 0).reader
        guard try reader.readUInt16() == TPMTemplate.ecdsa else {
            throw TPMError(.failed, context: "TPM2_Sign: not an ECDSA signature")
        }
        _ = try reader.readUInt16()
        let r = try reader.readSized()
        let s = try reader.readSized()
        return (Self.padded(r), Self.padded(s))
    }

    /// The x-coordinate of the loaded P-256 key `handle`'s private scalar times the point (`x`, `y`):
    /// ECDH's shared secret.
    package func agree(x: [UInt8], y: [UInt8], key handle: UInt32, authorization: [UInt8]) throws(TPMError) -> [UInt8] {
        let command = TPMCommand(
            "TPM2_ECDH_ZGen",
            code: TPMCommand.Code.ecdhZGen,
            handles: [handle],
            authorizations: [authorization]
        ) { out in
            out.appendSized { point in
                point.appendSized(x)
                point.appendSized(y)
            }
        }
        var reader = try execute(command).parameters(handles: 0).reader
        _ = try reader.readUInt16()  // TPM2B_ECC_POINT's size
        let sharedX = try reader.readSized()
        return Self.padded(sharedX)
    }

    /// A coordinate or scalar as 32 bytes (the TPM may leave out leading zeros).
    static func padded(_ value: [UInt8]) -> [UInt8] {
        value.count >= 32 ? Array(value.suffix(32)) : [UInt8](repeating: 0, count: 32 - value.count) + value
    }
}

extension TPMObjectBlob {
    /// The public point of a P-256 key's blob as X9.63 (`04 || x || y`); `nil` for another kind of key.
    package var eccPublicPoint: [UInt8]? {
        var reader = TPMReader(publicArea)
        guard (try? reader.readUInt16()) != nil,  // TPM2B_PUBLIC's size
            (try? reader.readUInt16()) == TPMTemplate.ecc,
            (try? reader.readUInt16()) != nil,  // nameAlg
            (try? reader.readUInt32()) != nil,  // objectAttributes
            (try? reader.readSized()) != nil,  // authPolicy
            let symmetric = try? reader.readUInt16(), symmetric == TPMTemplate.null,
            let scheme = try? reader.readUInt16(), scheme == TPMTemplate.null,
            (try? reader.readUInt16()) == TPMTemplate.nistP256,
            (try? reader.readUInt16()) == TPMTemplate.null,
            let x = try? reader.readSized(), let y = try? reader.readSized(), x.count <= 32, y.count <= 32
        else { return nil }
        return [0x04] + TPMConnection.padded(x) + TPMConnection.padded(y)
    }
}
