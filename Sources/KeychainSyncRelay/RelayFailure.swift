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

import PostgresNIO

/// Why the relay did not answer: a lost or refused connection, or a refusing server.
///
/// Its description names the server's complaint, never a password or a record.
package struct RelayFailure: Error, Sendable, CustomStringConvertible {
    package var description: String

    init(_ description: String) { self.description = description }

    init(describing error: any Error) { description = Self.describe(error) }

    /// The server did not answer in time.
    package init(timedOut: Void) { description = "the server did not answer in time" }

    private static func describe(_ error: any Error) -> String {
        if let failure = error as? RelayFailure { return failure.description }
        if let server = error as? PSQLError, let message = server.serverInfo?[.message] {
            return "the server refused: \(message)"
        }
        if let transaction = error as? PostgresTransactionError,
            let cause = transaction.closureError ?? transaction.commitError ?? transaction.beginError
        {
            return describe(cause)
        }
        return "the server cannot be reached (\(type(of: error)))"
    }
}
