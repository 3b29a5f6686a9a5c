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

/// Where a circle's PostgreSQL server is, from a `postgres://` URL as libpq writes them.
///
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=MODE]` reaches a server over TCP;
/// `postgres://USER@/DATABASE?host=/run/postgresql` (a folder, as libpq's `host`) over its Unix
/// socket. TLS is required over TCP unless the host is a loopback address or `sslmode=disable`;
/// the certificate is verified against the system's roots (`sslrootcert=PATH` names another CA).
package struct RelayAddress: Sendable, Equatable {
    package enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file itself (`FOLDER/.s.PGSQL.PORT`).
        case unixSocket(path: String)
    }

    package var endpoint: Endpoint
    package var user: String
    package var password: String?
    package var database: String
    package var requiresTLS: Bool
    package var rootCertificate: String?

    /// The URL without its password: what `security sync status` prints and the logs say.
    package var redacted: String

    /// Reads a URL.
    ///
    /// - Throws: ``RelayAddressError`` naming what is wrong (never the password).
    package init(_ text: String) throws(RelayAddressError) {
        guard let components = URLComponents(string: text), ["postgres", "postgresql"].contains(components.scheme)
        else { throw RelayAddressError("the server must be a postgres:// URL") }
        guard let user = components.user, !user.isEmpty else {
            throw RelayAddressError("the server URL names no user (postgres://USER@HOST/DATABASE)")
        }
        let database = String(components.path.drop(while: { $0 == "/" }))
        guard !database.isEmpty, !database.contains("/") else {
            throw RelayAddressError("the server URL names no database (postgres://USER@HOST/DATABASE)")
        }
        var options: [String: String] = [:]
        for item in components.queryItems ?? [] { options[item.name] = item.value ?? "" }
        for name in options.keys where !["host", "port", "sslmode", "sslrootcert"].contains(name) {
            throw RelayAddressError("the server URL's option \(name) is not supported")
        }
        let port = components.port ?? options["port"].flatMap(Int.init) ?? 5432
        guard (1...65535).contains(port) else { throw RelayAddressError("the server URL's port is not valid") }
        let mode = options["sslmode"] ?? "default"
        guard ["default", "disable", "require", "verify-full"].contains(mode) else {
            throw RelayAddressError("sslmode must be disable, require or verify-full")
        }
        if let folder = options["host"], folder.hasPrefix("/") {
            endpoint = .unixSocket(path: folder + "/.s.PGSQL.\(port)")
            requiresTLS = false
        } else if let host = components.host, !host.isEmpty {
            endpoint = .tcp(host: host, port: port)
            let loopback = ["localhost", "127.0.0.1", "::1", "[::1]"].contains(host.lowercased())
            requiresTLS = mode == "default" ? !loopback : mode != "disable"
        } else {
            endpoint = .unixSocket(path: "/run/postgresql/.s.PGSQL.\(port)")
            requiresTLS = false
        }
        self.user = user
        self.password = components.password
        self.database = database
        self.rootCertificate = options["sslrootcert"]
        var shown = components
        if shown.password != nil { shown.password = "***" }
        redacted = shown.string ?? "postgres://"
    }
}

extension RelayAddress: CustomStringConvertible {
    /// The URL without its password.
    package var description: String { redacted }
}

/// A server URL that cannot be used, and why.
package struct RelayAddressError: Error, Sendable, CustomStringConvertible {
    package var description: String
    init(_ description: String) { self.description = description }
}
