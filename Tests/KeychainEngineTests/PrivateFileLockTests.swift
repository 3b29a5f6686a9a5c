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
import GRDB
import KeychainContract
import KeychainTestSupport
import Testing

@testable import KeychainCore
@testable import KeychainEngine

/// Checking a keychain's files never costs this process its locks on them.
///
/// POSIX drops every lock a process holds on a file when it closes any descriptor of that file;
/// SQLite's locks on the database and its `-shm` are such locks. Opening a second keychain on a
/// home whose database this process already has open checks those files: had that check closed a
/// descriptor opened for reading, another process could take the write lock under a write running
/// here.
@Suite struct PrivateFileLockTests {
    static let python = "/usr/bin/python3"

    /// Whether another process can begin a write on the database at `path` right now.
    static func anotherProcessCanWrite(_ path: String) throws -> Bool {
        let script =
            "import sqlite3, sys\nc = sqlite3.connect(sys.argv[1], timeout=0, isolation_level=None)\n"
            + "try:\n    c.execute('BEGIN IMMEDIATE')\nexcept sqlite3.OperationalError:\n    sys.exit(3)\nc.execute('ROLLBACK')"
        return try ProgramRun.run(URL(filePath: python), ["-c", script, path], input: nil).status == 0
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: python), "asks python3's sqlite3 to write"))
    func checkingTheFilesDuringAWriteKeepsOtherProcessesOut() throws {
        let (store, directory) = try StoreTransactionTests.store()
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(SQLiteItemStore.fileName).path
        #expect(try Self.anotherProcessCanWrite(path))
        var during: [Bool] = []
        try store.write { db throws(KeychainError) in
            try StoreTransactionTests.insert(db)
            during.append((try? Self.anotherProcessCanWrite(path)) ?? true)
            // What opening a second keychain on this home checks.
            try PrivateFile.ensure(path)
            for suffix in ["-wal", "-shm"] { try PrivateFile.check(path + suffix) }
            during.append((try? Self.anotherProcessCanWrite(path)) ?? true)
        }
        #expect(during == [false, false])
        #expect(try Self.anotherProcessCanWrite(path))
    }

    /// The check still narrows a file others may read to its owner, and still refuses a link.
    @Test func theCheckStillNarrowsAFileAndRefusesALink() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("kc-check-\(UUID().uuidString)")
        try PrivateDirectory.prepare(directory)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("keychain.db-shm").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(), attributes: [.posixPermissions: 0o644]))
        try PrivateFile.check(file)
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        let link = directory.appendingPathComponent("keychain.db-wal").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let error = #expect(throws: KeychainError.self) { try PrivateFile.check(link) }
        #expect(error?.message.contains("symbolic link") == true)
    }
}
