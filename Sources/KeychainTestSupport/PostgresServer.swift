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

package import Foundation

/// A throw-away PostgreSQL server for one test: Debian's `postgresql`, a data folder of its own
/// in a temporary directory, run as the `postgres` account on a port of its own, with a role and
/// database for the circle (`keychain`, no superuser) reached by password over TCP.
///
/// It can be killed (an immediate shutdown, as a crash: no checkpoint) and started again on the
/// same data and port.
package final class PostgresServer: @unchecked Sendable {
    /// The circle's role and its password.
    package static let role = "keychain"
    package static let password = "relay-test-password"

    package let directory: URL
    package private(set) var port: Int
    /// The addresses it listens on (loopback unless the test names others).
    private let listening: String
    /// The address its URL names.
    package let host = "127.0.0.1"
    private let lock = NSLock()
    private var process: Process?

    /// The circle's server URL.
    package var url: String { url(host: host) }

    /// The circle's server URL through another of its addresses (plain TCP: a test's private link).
    package func url(host: String) -> String {
        let plain = host == "127.0.0.1" ? "" : "?sslmode=disable"
        return "postgres://\(Self.role):\(Self.password)@\(host):\(port)/keychain\(plain)"
    }

    /// The programs' folder (`initdb`, `postgres`, `psql`) of the newest installed version.
    package static var programs: URL? {
        let root = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
        return versions.compactMap(Int.init).max().map { root.appendingPathComponent("\($0)/bin") }
    }

    /// Makes and starts a new server.
    ///
    /// - Parameter listening: The addresses to listen on besides the Unix socket (`*`: all, for
    ///   tests whose clients are in network namespaces of their own).
    /// - Throws: When PostgreSQL is not installed or does not start.
    package init(listening: String = "127.0.0.1") throws {
        self.listening = listening
        guard let programs = Self.programs else {
            throw PostgresServerError("PostgreSQL is not installed (apt-get install postgresql)")
        }
        port = Int.random(in: 20_000..<40_000)
        directory = URL(fileURLWithPath: "/tmp/kc-pg-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Self.asPostgres("/bin/chown", ["postgres:postgres", directory.path], asRoot: true)
        try Self.asPostgres(
            programs.appendingPathComponent("initdb").path,
            ["-D", dataPath, "-U", "postgres", "--auth-local=trust", "--auth-host=scram-sha-256", "--no-sync"]
        )
        // Every address the test names reaches the server with a password.
        let hba = "local all all trust\nhost all all 0.0.0.0/0 scram-sha-256\nhost all all ::/0 scram-sha-256\n"
        try Self.asPostgres("/bin/sh", ["-c", "printf '\(hba)' > \(dataPath)/pg_hba.conf"])
        // A port another server of the run (or anything else) holds: another one.
        for attempt in 1...5 {
            do {
                try start()
                break
            } catch let error as PostgresServerError where error.description.contains("already in use") && attempt < 5 {
                port = Int.random(in: 20_000..<40_000)
            }
        }
        try sql(
            "CREATE ROLE \(Self.role) LOGIN PASSWORD '\(Self.password)' NOSUPERUSER NOCREATEDB NOCREATEROLE",
            database: "postgres"
        )
        try sql("CREATE DATABASE keychain OWNER \(Self.role)", database: "postgres")
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    private var dataPath: String { directory.appendingPathComponent("data").path }

    /// Starts the server (again) on its data; returns once it answers.
    package func start() throws {
        guard let programs = Self.programs else { throw PostgresServerError("PostgreSQL is not installed") }
        let server = Process()
        server.executableURL = URL(fileURLWithPath: "/usr/sbin/runuser")
        server.arguments = [
            "-u", "postgres", "--", programs.appendingPathComponent("postgres").path, "-D", dataPath,
            "-p", String(port), "-k", directory.path, "-c", "listen_addresses=\(listening)",
            "-c", "fsync=off", "-c", "max_connections=50",
        ]
        server.standardInput = FileHandle.nullDevice
        server.standardOutput = FileHandle.nullDevice
        let log = directory.appendingPathComponent("server.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        server.standardError = try FileHandle(forWritingTo: log)
        try server.run()
        lock.withLock { process = server }
        let deadline = Date().addingTimeInterval(30)
        while (try? sql("SELECT 1", database: "postgres")) == nil {
            guard server.isRunning, Date() < deadline else {
                let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
                throw PostgresServerError("PostgreSQL did not start: \(output.suffix(400))")
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    /// Stops the server at once, as a crash would (an immediate shutdown: no checkpoint, every
    /// connection cut); returns when it is gone.
    package func stop() {
        guard
            let running = lock.withLock({ () -> Process? in
                defer { process = nil }
                return process
            })
        else { return }
        // runuser waits for the postmaster, which SIGQUIT ends with all its children.
        let pidFile = directory.appendingPathComponent("data/postmaster.pid")
        if let text = try? String(contentsOf: pidFile, encoding: .utf8),
            let pid = text.split(separator: "\n").first.flatMap({ Int32($0) })
        {
            kill(pid, SIGQUIT)
        }
        running.waitUntilExit()
    }

    /// Runs SQL as the superuser over the Unix socket and returns the rows, one per line, fields
    /// separated by `|`.
    ///
    /// - Parameters:
    ///   - statements: One or more statements, run in one transaction.
    ///   - database: The database to connect to.
    /// - Returns: What psql printed.
    /// - Throws: When psql fails (its message).
    @discardableResult
    package func sql(_ statements: String, database: String = "keychain") throws -> String {
        guard let programs = Self.programs else { throw PostgresServerError("PostgreSQL is not installed") }
        let output = try ProgramRun.run(
            URL(fileURLWithPath: "/usr/sbin/runuser"),
            [
                "-u", "postgres", "--", programs.appendingPathComponent("psql").path, "-h", directory.path,
                "-p", String(port), "-d", database, "-v", "ON_ERROR_STOP=1", "-At", "-c", statements,
            ],
            input: nil
        )
        guard output.status == 0 else { throw PostgresServerError("psql failed: \(output.stderr.prefix(400))") }
        return output.stdout
    }

    private static func asPostgres(_ program: String, _ arguments: [String], asRoot: Bool = false) throws {
        let output =
            asRoot
            ? try ProgramRun.run(URL(fileURLWithPath: program), arguments, input: nil)
            : try ProgramRun.run(
                URL(fileURLWithPath: "/usr/sbin/runuser"),
                ["-u", "postgres", "--", program] + arguments,
                input: nil
            )
        guard output.status == 0 else {
            throw PostgresServerError("\(program) failed: \(output.stderr.prefix(400))")
        }
    }
}

/// Why a test's PostgreSQL server did not start or answer.
package struct PostgresServerError: Error, CustomStringConvertible {
    package let description: String

    package init(_ description: String) { self.description = description }
}
