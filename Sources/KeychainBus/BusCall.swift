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

@preconcurrency import CSDBus
import KeychainCore

/// A method call received, to be answered once (from any thread).
package final class BusCall: @unchecked Sendable {
    private let connection: BusConnection
    private let message: OpaquePointer
    private let api: c_sd_bus_api
    private let answered = LockedState(false)

    /// The caller's unique name.
    package let sender: String
    /// The object called.
    package let path: String
    /// The interface named (empty when the caller named none).
    package let interface: String
    package let member: String
    /// The signature of the arguments.
    package let signature: String
    /// The arguments; file descriptors among them stay valid until the call is answered.
    package internal(set) var arguments: [BusValue] = []

    init(connection: BusConnection, message: OpaquePointer, api: c_sd_bus_api) {
        self.connection = connection
        self.message = api.message_ref(message) ?? message
        self.api = api
        let text = { (pointer: UnsafePointer<CChar>?) in pointer.map { String(cString: $0) } ?? "" }
        sender = text(api.message_get_sender(message))
        path = text(api.message_get_path(message))
        interface = text(api.message_get_interface(message))
        member = text(api.message_get_member(message))
        signature = text(api.message_get_signature(message, 1))
    }

    deinit {
        if !answered.withLock({ $0 }) {
            let (connection, message) = (connection, UnsafeSendable(message))
            connection.perform {
                connection.send(reply: .failure(.failed("the call was not answered")), to: message.value)
            }
            connection.release(message.value)
        } else {
            connection.release(message)
        }
    }

    /// Answers with `values`.
    package func reply(_ values: [BusValue] = []) {
        answer(.success(values))
    }

    /// Answers with an error.
    package func fail(_ error: BusError) {
        answer(.failure(error))
    }

    private func answer(_ result: Result<[BusValue], BusError>) {
        guard
            answered.withLock({ done in
                defer { done = true }
                return !done
            })
        else { return }
        let (connection, message) = (connection, UnsafeSendable(message))
        let call = self  // kept until the reply is out, so the message outlives it
        connection.perform {
            connection.send(reply: result, to: message.value)
            _ = call
        }
    }
}

/// A pointer handed to the connection's thread, which alone touches it.
struct UnsafeSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
