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
    // MARK: Keys

    /// Makes the primary key `template` of the owner hierarchy (the same key every time: it is
    /// derived from the hierarchy's seed) and loads it; returns its handle.
    package func createPrimary(_ template: [UInt8]) throws(TPMError) -> UInt32 {
        let command = TPMCommand(
            "TPM2_CreatePrimary",
            code: TPMCommand.Code.createPrimary,
            handles: [TPMCommand.ownerHierarchy],
            authorizations: [[]],
            responseHandles: 1
        ) { out in
            out.appendSized { sensitive in
                sensitive.appendSized([UInt8]())  // userAuth
                sensitive.appendSized([UInt8]())  // data
            }
            out.appendSized(template)
            out.appendSized([UInt8]())  // outsideInfo
            out.append(UInt32(0))  // creationPCR: none
        }
        let handle = try execute(command).parameters(handles: 1).handles[0]
        loaded.append(handle)
        return handle
    }

    /// Makes a key `template` under `parent`, its use authorized by `authorization`; returns it
    /// wrapped by the TPM.
    package func create(
        _ template: [UInt8],
        under parent: UInt32,
        authorization: [UInt8]
    ) throws(TPMError) -> TPMObjectBlob {
        let command = TPMCommand(
            "TPM2_Create",
            code: TPMCommand.Code.create,
            handles: [parent],
            authorizations: [[]]
        ) { out in
            out.appendSized { sensitive in
                sensitive.appendSized(authorization)
                sensitive.appendSized([UInt8]())
            }
            out.appendSized(template)
            out.appendSized([UInt8]())
            out.append(UInt32(0))
        }
        var reader = try execute(command).parameters(handles: 0).reader
        let privateArea = try reader.readSizedWhole()
        let publicArea = try reader.readSizedWhole()
        return TPMObjectBlob(publicArea: publicArea, privateArea: privateArea)
    }

    /// Loads a key made by `create` under `parent`; returns its handle.
    /// - Throws: `TPMError.Kind.rejected` for a blob of another TPM or parent, or altered.
    package func load(_ blob: TPMObjectBlob, under parent: UInt32) throws(TPMError) -> UInt32 {
        let command = TPMCommand(
            "TPM2_Load",
            code: TPMCommand.Code.load,
            handles: [parent],
            authorizations: [[]],
            responseHandles: 1
        ) { out in
            out.append(raw: blob.privateArea)
            out.append(raw: blob.publicArea)
        }
        let handle = try execute(command).parameters(handles: 1).handles[0]
        loaded.append(handle)
        return handle
    }

    /// Unloads a transient object.
    package func flush(_ handle: UInt32) throws(TPMError) {
        loaded.removeAll { $0 == handle }
        _ = try execute(
            TPMCommand("TPM2_FlushContext", code: TPMCommand.Code.flushContext) { $0.append(handle) }
        )
    }

    // MARK: Using keys

    /// HMAC-SHA-256 of `data` (at most 1,024 bytes) under the loaded key `handle`.
    /// - Throws: `TPMError.Kind.authorizationFailed` when `authorization` is not the key's.
    package func hmac(_ data: [UInt8], key handle: UInt32, authorization: [UInt8]) throws(TPMError) -> [UInt8] {
        let command = TPMCommand(
            "TPM2_HMAC",
            code: TPMCommand.Code.hmac,
            handles: [handle],
            authorizations: [authorization]
        ) { out in
            out.appendSized(data)
            out.append(TPMTemplate.sha256)
        }
        var reader = try execute(command).parameters(handles: 0).reader
        let digest = try reader.readSized()
        guard digest.count == 32 else { throw TPMError(.failed, context: "TPM2_HMAC: not a SHA-256 digest") }
        return digest
    }
}
