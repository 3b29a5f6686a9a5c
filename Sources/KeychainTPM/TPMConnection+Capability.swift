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

import Foundation

extension TPMConnection {
    /// The handles of one kind the TPM holds, from `first` (`0x80000000`: transient objects).
    package func handles(from first: UInt32) throws(TPMError) -> [UInt32] {
        var reader = try capability(1, property: first, count: 64)  // TPM_CAP_HANDLES
        let count = try reader.readUInt32()
        var handles: [UInt32] = []
        for _ in 0..<min(count, 64) {
            let handle = try reader.readUInt32()
            guard handle >> 24 == first >> 24 else { break }
            handles.append(handle)
        }
        return handles
    }

    /// The TPM's fixed properties `first ..< first + count` (`TPM_CAP_TPM_PROPERTIES`).
    package func properties(from first: UInt32, count: UInt32) throws(TPMError) -> [UInt32: UInt32] {
        var reader = try capability(6, property: first, count: count)
        let listed = try reader.readUInt32()
        var values: [UInt32: UInt32] = [:]
        for _ in 0..<min(listed, count) {
            let property = try reader.readUInt32()
            values[property] = try reader.readUInt32()
        }
        return values
    }

    /// Who made the TPM and its firmware's version, as `security status` shows them:
    /// "IBM, firmware 8217.4131".
    package func identity() throws(TPMError) -> String {
        let values = try properties(from: 0x105, count: 8)  // TPM_PT_MANUFACTURER …
        let manufacturer = Self.ascii(values[0x105] ?? 0)
        let vendor = (0x106...0x109).map { Self.ascii(values[UInt32($0)] ?? 0) }.joined()
        let firmware = values[0x10B] ?? 0
        let maker = [manufacturer, vendor].filter { !$0.isEmpty }.joined(separator: " ")
        return "\(maker.isEmpty ? "unknown maker" : maker), firmware \(firmware >> 16).\(firmware & 0xFFFF)"
    }

    // MARK: Private

    /// The capability data of `TPM2_GetCapability` after its capability field.
    private func capability(_ capability: UInt32, property: UInt32, count: UInt32) throws(TPMError) -> TPMReader {
        let command = TPMCommand("TPM2_GetCapability", code: TPMCommand.Code.getCapability) { out in
            out.append(capability)
            out.append(property)
            out.append(count)
        }
        var reader = try execute(command).parameters(handles: 0).reader
        _ = try reader.readUInt8()  // moreData
        guard try reader.readUInt32() == capability else {
            throw TPMError(.failed, context: "TPM2_GetCapability: another capability came back")
        }
        return reader
    }

    /// Four bytes of a property as printable ASCII, spaces and zeros trimmed.
    private static func ascii(_ value: UInt32) -> String {
        let bytes = (0..<4).map { UInt8((value >> UInt32(24 - 8 * $0)) & 0xFF) }
        let printable = bytes.filter { (0x21...0x7E).contains($0) || $0 == 0x20 }
        return String(decoding: printable, as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }
}
