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

/// The server's tables, created and migrated by the daemon as the circle's role.
///
/// The role needs no superuser: it owns its tables (`CREATE` on the database's schema, or a
/// schema of its own). Migrations are numbered and append-only; each runs once, in a transaction
/// that holds an advisory lock, so devices starting together do not race. What a row holds is
/// opaque to the server: circle and device ids, keyed item names, versions, and signed ciphertexts.
enum RelaySchema {
    /// The advisory lock the migrations hold (any number the project's alone).
    static let lock: Int64 = 0x5357_4B43_5359_4E43

    /// Statements of each migration, in order.
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE swkc_lists (
                circle bytea NOT NULL, version bigint NOT NULL, body bytea NOT NULL,
                PRIMARY KEY (circle, version))
            """,
            """
            CREATE TABLE swkc_grants (
                circle bytea NOT NULL, recipient bytea NOT NULL, generation bigint NOT NULL, body bytea NOT NULL,
                PRIMARY KEY (circle, recipient, generation))
            """,
            """
            CREATE TABLE swkc_joins (
                circle bytea NOT NULL, device bytea NOT NULL, request bytea, approval bytea,
                PRIMARY KEY (circle, device))
            """,
            "CREATE SEQUENCE swkc_sequence",
            """
            CREATE TABLE swkc_records (
                circle bytea NOT NULL, item bytea NOT NULL, version bytea NOT NULL, device bytea NOT NULL,
                xact xid8 NOT NULL, sequence bigint NOT NULL, body bytea NOT NULL,
                PRIMARY KEY (circle, item))
            """,
            "CREATE INDEX swkc_records_order ON swkc_records (circle, xact, sequence)",
        ]
    ]
}
