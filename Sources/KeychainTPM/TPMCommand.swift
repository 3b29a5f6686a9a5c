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

/// One TPM 2.0 command as sent: its code, its handles, a password authorization for each handle
/// that needs one, and its parameters (TPM 2.0 Part 1 §18, Part 3).
package struct TPMCommand: Sendable {
    /// The command codes used here (TPM 2.0 Part 2, `TPM_CC`).
    package enum Code {
        static let nvUndefineSpace: UInt32 = 0x122
        static let nvDefineSpace: UInt32 = 0x12A
        static let createPrimary: UInt32 = 0x131
        static let nvWrite: UInt32 = 0x137
        static let startup: UInt32 = 0x144
        static let nvRead: UInt32 = 0x14E
        static let create: UInt32 = 0x153
        static let ecdhZGen: UInt32 = 0x154
        static let hmac: UInt32 = 0x155
        static let load: UInt32 = 0x157
        static let sign: UInt32 = 0x15D
        static let flushContext: UInt32 = 0x165
        static let nvReadPublic: UInt32 = 0x169
        static let getCapability: UInt32 = 0x17A
    }

    /// A TPM handle that needs no authorization value but the empty one (the owner hierarchy on
    /// machines where none was set).
    package static let ownerHierarchy: UInt32 = 0x4000_0001
    /// The password session (`TPM_RS_PW`).
    private static let passwordSession: UInt32 = 0x4000_0009

    /// The command's name, for messages.
    package let name: String
    package let code: UInt32
    package var handles: [UInt32]
    /// One authorization value per handle that needs authorization, in order; `nil`: no sessions.
    package var authorizations: [[UInt8]]?
    package var parameters: TPMWriter
    /// How many handles the response carries before its parameters.
    package var responseHandles: Int

    package init(
        _ name: String,
        code: UInt32,
        handles: [UInt32] = [],
        authorizations: [[UInt8]]? = nil,
        responseHandles: Int = 0,
        parameters: (inout TPMWriter) -> Void = { _ in }
    ) {
        self.name = name
        self.code = code
        self.handles = handles
        self.authorizations = authorizations
        self.responseHandles = responseHandles
        var writer = TPMWriter()
        parameters(&writer)
        self.parameters = writer
    }

    /// The command's bytes: header, handles, authorization area, parameters.
    package var encoded: [UInt8] {
        var body = TPMWriter()
        for handle in handles { body.append(handle) }
        if let authorizations {
            var area = TPMWriter()
            for value in authorizations {
                area.append(Self.passwordSession)
                area.appendSized([UInt8]())  // nonce
                area.append(UInt8(0x01))  // continueSession
                area.appendSized(value)
            }
            body.append(UInt32(area.bytes.count))
            body.append(raw: area.bytes)
        }
        body.append(raw: parameters.bytes)
        var out = TPMWriter()
        out.append(UInt16(authorizations == nil ? 0x8001 : 0x8002))
        out.append(UInt32(10 + body.bytes.count))
        out.append(code)
        out.append(raw: body.bytes)
        return out.bytes
    }

    /// `TPM2_Startup(TPM_SU_CLEAR)`.
    static func startup() -> TPMCommand {
        TPMCommand("TPM2_Startup", code: Code.startup) { $0.append(UInt16(0)) }
    }
}

/// A TPM's response: its code and, on success, its handles and a reader over its parameters.
package struct TPMResponse: Sendable {
    package let code: UInt32
    private let bytes: [UInt8]
    private let hasSessions: Bool

    init(_ bytes: [UInt8], name: String) throws(TPMError) {
        var reader = TPMReader(bytes)
        let tag = try reader.readUInt16()
        let size = try reader.readUInt32()
        code = try reader.readUInt32()
        guard Int(size) == bytes.count else {
            throw TPMError(.failed, context: "\(name): the TPM's answer has a wrong length")
        }
        self.bytes = bytes
        hasSessions = tag == 0x8002
    }

    /// The response's handles and a reader positioned at its parameters.
    package func parameters(handles count: Int) throws(TPMError) -> (handles: [UInt32], reader: TPMReader) {
        var reader = TPMReader(bytes, offset: 10)
        var handles: [UInt32] = []
        for _ in 0..<count { handles.append(try reader.readUInt32()) }
        if hasSessions {
            let size = Int(try reader.readUInt32())
            let parameters = try reader.take(size)
            return (handles, TPMReader(parameters))
        }
        return (handles, reader)
    }
}
