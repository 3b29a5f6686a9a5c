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
    /// NV index attributes of the keychain's indices (TPMA_NV): an ordinary index read and written
    /// with its own authorization value, whose wrong values do not count towards the TPM's
    /// dictionary-attack lockout.
    static let keychainIndexAttributes: UInt32 = 0x0000_0004 | 0x0004_0000 | 0x0200_0000

    /// Whether an NV index is defined at `index`.
    package func isDefined(index: UInt32) throws(TPMError) -> Bool {
        let command = TPMCommand("TPM2_NV_ReadPublic", code: TPMCommand.Code.nvReadPublic, handles: [index])
        do {
            _ = try execute(command)
            return true
        } catch  where error.kind == .missing {
            return false
        }
    }

    /// Defines an ordinary NV index of `size` bytes at `index`, read and written with `authorization`.
    /// - Throws: `TPMError.Kind.alreadyDefined`, `.full`, or `.authorizationFailed` when the
    ///   owner hierarchy has a password.
    package func defineIndex(_ index: UInt32, size: Int, authorization: [UInt8]) throws(TPMError) {
        let command = TPMCommand(
            "TPM2_NV_DefineSpace",
            code: TPMCommand.Code.nvDefineSpace,
            handles: [TPMCommand.ownerHierarchy],
            authorizations: [[]]
        ) { out in
            out.appendSized(authorization)
            out.appendSized { nvPublic in
                nvPublic.append(index)
                nvPublic.append(TPMTemplate.sha256)
                nvPublic.append(Self.keychainIndexAttributes)
                nvPublic.appendSized([UInt8]())  // authPolicy
                nvPublic.append(UInt16(size))
            }
        }
        _ = try execute(command)
    }

    /// Removes the NV index `index` and what it holds.
    package func undefineIndex(_ index: UInt32) throws(TPMError) {
        let command = TPMCommand(
            "TPM2_NV_UndefineSpace",
            code: TPMCommand.Code.nvUndefineSpace,
            handles: [TPMCommand.ownerHierarchy, index],
            authorizations: [[]]
        )
        _ = try execute(command)
    }

    /// Writes `data` at the start of the NV index `index`.
    package func write(_ data: [UInt8], index: UInt32, authorization: [UInt8]) throws(TPMError) {
        let command = TPMCommand(
            "TPM2_NV_Write",
            code: TPMCommand.Code.nvWrite,
            handles: [index, index],
            authorizations: [authorization]
        ) { out in
            out.appendSized(data)
            out.append(UInt16(0))
        }
        _ = try execute(command)
    }

    /// The first `size` bytes of the NV index `index`.
    package func read(index: UInt32, size: Int, authorization: [UInt8]) throws(TPMError) -> [UInt8] {
        let command = TPMCommand(
            "TPM2_NV_Read",
            code: TPMCommand.Code.nvRead,
            handles: [index, index],
            authorizations: [authorization]
        ) { out in
            out.append(UInt16(size))
            out.append(UInt16(0))
        }
        var reader = try execute(command).parameters(handles: 0).reader
        let data = try reader.readSized()
        guard data.count == size else { throw TPMError(.failed, context: "TPM2_NV_Read: a short read") }
        return data
    }
}
