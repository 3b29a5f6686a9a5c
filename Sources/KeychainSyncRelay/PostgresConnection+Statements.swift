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

package import Logging
package import PostgresNIO

/// Statements on a connection that a call's deadline may close under them.
///
/// postgres-nio never answers a statement written to a closed connection (the statement's
/// promise goes with the failed write), so the relay checks before each one. A close that comes
/// between the check and the write still loses its statement: the call's deadline ends that
/// wait, and the call is left behind.
extension PostgresConnection {
    /// Fails when the connection was closed.
    package func checkOpen() throws {
        guard !isClosed else { throw RelayFailure("the connection to the server was closed") }
    }

    /// Runs one statement, failing at once on a closed connection.
    @discardableResult
    package func statement(_ query: PostgresQuery, logger: Logger) async throws -> PostgresRowSequence {
        try checkOpen()
        return try await self.query(query, logger: logger)
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    ///
    /// On a closed connection the server rolls back by itself: a `ROLLBACK` written there would
    /// never end (postgres-nio's own `withTransaction` writes one).
    package func inTransaction<T>(logger: Logger, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await statement("BEGIN", logger: logger)
        do {
            let value = try await body(self)
            try await statement("COMMIT", logger: logger)
            return value
        } catch {
            if !isClosed { _ = try? await query("ROLLBACK", logger: logger) }
            throw error
        }
    }
}
