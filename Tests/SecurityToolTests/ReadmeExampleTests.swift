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
import KeychainTestSupport
import Testing

/// The README's Swift examples, taken from the README itself, compile against the built modules
/// with no warning, in Swift 6 mode: what a newcomer copies must build as it is.
@Suite struct ReadmeExampleTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The ```` ```swift ```` blocks of the README, in order.
    static func swiftBlocks() throws -> [String] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in readme.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```swift" {
                current = []
            } else if let lines = current, line.hasPrefix("```") {
                blocks.append(lines.joined(separator: "\n") + "\n")
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }

    /// The modules the package built, beside the `security` executable.
    static var modules: URL {
        SecurityToolRunner.executable.deletingLastPathComponent().appendingPathComponent("Modules")
    }

    /// Type-checks `source` as `main.swift` (top-level code) or as a library file, with warnings as errors.
    static func typecheck(_ source: String, asLibrary: Bool) throws -> SecurityToolRunner.Output {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "readme-example-\(UUID().uuidString)"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(asLibrary ? "Examples.swift" : "main.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var arguments = [
            "swiftc", "-typecheck", "-swift-version", "6", "-warnings-as-errors",
            "-I", modules.path, "-module-cache-path", folder.appendingPathComponent("cache").path,
        ]
        if asLibrary { arguments.append("-parse-as-library") }
        arguments.append(file.path)
        return try SecurityToolRunner.runProgram(
            "/usr/bin/env",
            arguments,
            environment: ProcessInfo.processInfo.environment
        )
    }

    @Test func theExamplesAreFound() throws {
        let blocks = try Self.swiftBlocks()
        #expect(blocks.count >= 6)
        #expect(blocks.contains { $0.contains("SecItemAdd") } && blocks.contains { $0.contains("TemporaryKeychain") })
    }

    /// Each program example on its own, as a `main.swift` that imports what it shows.
    @Test func eachProgramExampleCompilesWithoutAWarning() throws {
        let programs = try Self.swiftBlocks().filter { $0.hasPrefix("import ") && !$0.contains("@Test") }
        #expect(programs.count >= 4)
        for program in programs {
            let result = try Self.typecheck(program, asLibrary: false)
            #expect(
                result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty,
                "\(result.stderr)\n\(program)"
            )
        }
    }

    /// The test-kit examples, together (the later ones use the first one's imports).
    @Test func theTestExamplesCompileWithoutAWarning() throws {
        let tests = try Self.swiftBlocks().filter { $0.contains("@Test") }
        #expect(tests.count >= 2)
        let result = try Self.typecheck(tests.joined(separator: "\n"), asLibrary: true)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(result.stderr)")
    }
}
