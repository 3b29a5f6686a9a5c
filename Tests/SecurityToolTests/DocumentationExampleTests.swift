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

/// The Swift examples of the README and of every DocC article compile without a warning.
///
/// They are taken from the files themselves and compiled against the built modules in Swift 6
/// mode: what a newcomer copies must build as it is. A block that starts with `import` is a
/// program; the blocks with `@Test` in one file compile together (the later ones use the first
/// one's imports); other blocks are fragments.
@Suite struct DocumentationExampleTests {
    static let root = BuiltProduct.packageRoot

    /// The README and the articles of every catalog, as paths relative to the package.
    static let documents: [String] = {
        var paths = ["README.md"]
        let sources = root.appending(path: "Sources")
        let modules = (try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? []
        for module in modules.sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            let articles =
                (try? FileManager.default.contentsOfDirectory(atPath: root.appending(path: catalog).path)) ?? []
            paths += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        return paths
    }()

    /// The ```` ```swift ```` blocks of `document`, in order.
    static func swiftBlocks(in document: String) throws -> [String] {
        let text = try String(contentsOf: root.appending(path: document), encoding: .utf8)
        var blocks: [String] = []
        var current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
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

    @Test func theReadmeShowsTheAPIAndTheTestKit() throws {
        let blocks = try Self.swiftBlocks(in: "README.md")
        #expect(blocks.filter { $0.hasPrefix("import ") && !$0.contains("@Test") }.count >= 4)
        #expect(blocks.filter { $0.contains("@Test") }.count >= 2)
        #expect(blocks.contains { $0.contains("SecItemAdd") } && blocks.contains { $0.contains("TemporaryKeychain") })
    }

    @Test func everyCatalogHasArticlesWithExamples() throws {
        #expect(Self.documents.count >= 15)
        let withPrograms = try Self.documents.filter {
            try Self.swiftBlocks(in: $0).contains { $0.hasPrefix("import ") }
        }
        #expect(withPrograms.count >= 8, "\(withPrograms)")
    }

    /// Each program example on its own, as a `main.swift` that imports what it shows.
    @Test(arguments: documents)
    func eachProgramExampleCompilesWithoutAWarning(in document: String) throws {
        let programs = try Self.swiftBlocks(in: document).filter { $0.hasPrefix("import ") && !$0.contains("@Test") }
        for program in programs {
            let result = try Self.typecheck(program, asLibrary: false)
            #expect(
                result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty,
                "\(document):\n\(result.stderr)\n\(program)"
            )
        }
    }

    /// The test-kit examples of one file, together.
    @Test(arguments: documents)
    func theTestExamplesCompileWithoutAWarning(in document: String) throws {
        let tests = try Self.swiftBlocks(in: document).filter { $0.contains("@Test") }
        guard !tests.isEmpty else { return }
        let result = try Self.typecheck(tests.joined(separator: "\n"), asLibrary: true)
        #expect(result.status == 0 && result.stdout.isEmpty && result.stderr.isEmpty, "\(document):\n\(result.stderr)")
    }
}
