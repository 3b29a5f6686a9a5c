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

import CTPM
import Foundation
import Synchronization

/// One open connection to a TPM through tpm2-tss's TCTI loader.
///
/// A connection lives for one operation of the keychain: opened, used, closed. Through the
/// kernel's resource manager (`/dev/tpmrm0`) each connection has its own view of the TPM, and the
/// objects it loaded go when it closes; a TPM reached directly (swtpm's socket, `/dev/tpm0`) is
/// used by one connection at a time, and the objects a killed process left loaded are flushed on opening.
package final class TPMConnection {
    // MARK: Properties

    /// The TCTI configuration it was opened with.
    package let configuration: String

    private let context: UnsafeMutableRawPointer
    private var closed = false
    /// The transient objects this connection loaded and has not flushed.
    var loaded: [UInt32] = []

    /// Commands this process sent, and those that wrote NV memory, by TCTI configuration: for the
    /// tests that check the TPM is used to unlock, never per item.
    private static let sent = Mutex<[String: (commands: Int, nvWrites: Int)]>([:])

    /// The commands sent through `configuration` so far, and how many of them wrote NV memory.
    package static func traffic(of configuration: String) -> (commands: Int, nvWrites: Int) {
        sent.withLock { $0[configuration] ?? (0, 0) }
    }

    /// The largest response a TPM sends (TPM 2.0's `MAX_RESPONSE_SIZE` on every TPM in use).
    private static let responseCapacity = 4096

    // MARK: Initialization

    /// Opens `configuration` ("device:/dev/tpmrm0", "swtpm:path=…").
    /// - Throws: `TPMError.Kind.unreachable` with the reason.
    package init(_ configuration: String) throws(TPMError) {
        self.configuration = configuration
        var reason: UnsafePointer<CChar>?
        guard let context = c_tpm_open(configuration, &reason) else {
            let text = reason.map { String(cString: $0) } ?? "the TPM cannot be reached"
            throw TPMError(.unreachable, context: "\(text) (\(configuration))")
        }
        self.context = context
    }

    deinit {
        close()
    }

    /// Opens `configuration`, runs `body`, then flushes what it loaded and closes.
    ///
    /// Without a resource manager, connections take turns (``TPMAccessLock``), and the transient
    /// objects a killed process left are flushed first: none of them belongs to anyone alive.
    package static func using<T>(
        _ configuration: String,
        _ body: (TPMConnection) throws(TPMError) -> T
    ) throws(TPMError) -> T {
        if configuration.hasPrefix("device:/dev/tpmrm") || configuration.hasPrefix("tabrmd") {
            let connection = try TPMConnection(configuration)
            defer { connection.close() }
            return try body(connection)
        }
        return try TPMAccessLock.holding(configuration) { () throws(TPMError) -> T in
            let connection = try TPMConnection(configuration)
            defer { connection.close() }
            for handle in try connection.handles(from: 0x8000_0000) { try? connection.flush(handle) }
            return try body(connection)
        }
    }

    /// Flushes what this connection loaded, then closes it (once).
    package func close() {
        guard !closed else { return }
        for handle in loaded.reversed() { try? flush(handle) }
        closed = true
        c_tpm_close(context)
    }

    /// Whether this connection reaches the TPM through a resource manager, which gives every
    /// connection its own objects.
    package var hasResourceManager: Bool {
        configuration.hasPrefix("device:/dev/tpmrm") || configuration.hasPrefix("tabrmd")
    }

    // MARK: Commands

    /// Sends one command and returns the response's bytes after the header, or the TPM's error.
    ///
    /// A command the TPM asks to repeat (busy, self test) is sent again a few times; an
    /// uninitialized TPM (a fresh swtpm) is started first.
    package func execute(_ command: TPMCommand) throws(TPMError) -> TPMResponse {
        var attempts = 0
        while true {
            attempts += 1
            let response = try roundTrip(command.encoded, name: command.name)
            switch response.code {
            case 0:
                return response
            case 0x100 where command.code != TPMCommand.Code.startup && attempts < 3:  // TPM_RC_INITIALIZE
                _ = try execute(.startup())
            case let code where TPMError(responseCode: code, context: "").kind == .busy && attempts < 10:
                Thread.sleep(forTimeInterval: 0.05 * Double(attempts))
            default:
                throw TPMError(responseCode: response.code, context: command.name)
            }
        }
    }

    // MARK: Private

    private func roundTrip(_ bytes: [UInt8], name: String) throws(TPMError) -> TPMResponse {
        let writesNV = ["TPM2_NV_Write", "TPM2_NV_DefineSpace", "TPM2_NV_UndefineSpace"].contains(name)
        Self.sent.withLock { sent in
            let current = sent[configuration] ?? (0, 0)
            sent[configuration] = (current.commands + 1, current.nvWrites + (writesNV ? 1 : 0))
        }
        let sent = bytes.withUnsafeBufferPointer { buffer in
            c_tpm_transmit(context, buffer.baseAddress, buffer.count)
        }
        guard sent == 0 else {
            throw TPMError(.unreachable, code: sent, context: "\(name): sending to the TPM")
        }
        var response = [UInt8](repeating: 0, count: Self.responseCapacity)
        var size = response.count
        let received = response.withUnsafeMutableBufferPointer { buffer in
            c_tpm_receive(context, buffer.baseAddress, &size, -1)
        }
        guard received == 0 else {
            throw TPMError(.unreachable, code: received, context: "\(name): reading the TPM's answer")
        }
        return try TPMResponse(Array(response.prefix(size)), name: name)
    }
}

@available(*, unavailable)
extension TPMConnection: Sendable {}
