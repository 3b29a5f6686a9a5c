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

/// Appends one JSON object per measured phase to a `.jsonl` file, in the peers script's record
/// shape (`peer`, `phase`, `n`, `ops_per_s`, `lat_ms`), and echoes a line to standard output.
final class ResultLog {
    private let url: URL
    private let handle: FileHandle

    init(url: URL) throws {
        self.url = url
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    deinit {
        try? handle.close()
    }

    /// Records a timed phase.
    ///
    /// `size` is the number of items the store held while it ran.
    func record(_ subject: String, _ phase: String, size: Int?, _ sample: Sample, extra: [String: Any] = [:]) {
        let latency = sample.percentiles()
        let fields: [String: Any] = [
            "n": sample.count,
            "errors": sample.errors,
            "wall_s": sample.wallSeconds,
            "ops_per_s": sample.operationsPerSecond,
            "lat_ms": latency,
        ]
        emit(
            subject,
            phase,
            size: size,
            fields.merging(extra) { _, new in new },
            summary: String(
                format: "%12.1f ops/s  p50=%.4f ms  p99=%.4f ms",
                sample.operationsPerSecond,
                latency["p50"] ?? 0,
                latency["p99"] ?? 0
            ) + (sample.errors > 0 ? "  ERRORS=\(sample.errors)" : "")
        )
    }

    /// Records a single figure that is not a rate (bytes per item, resident memory, one-off costs).
    func record(_ subject: String, _ phase: String, size: Int?, value: Double, unit: String, extra: [String: Any] = [:])
    {
        let fields: [String: Any] = ["value": value, "unit": unit]
        emit(
            subject,
            phase,
            size: size,
            fields.merging(extra) { _, new in new },
            summary: String(format: "%12.3f %@", value, unit)
        )
    }

    /// Writes one record and echoes it as an aligned line.
    private func emit(_ subject: String, _ phase: String, size: Int?, _ fields: [String: Any], summary: String) {
        var record = fields
        record["peer"] = subject
        record["phase"] = phase
        if let size { record["size"] = size }
        write(record)
        func column(_ text: String, _ width: Int) -> String {
            text.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        echo("  \(column(subject, 40)) \(column(phase, 22)) \(column(size.map { "size=\($0)" } ?? "", 13)) " + summary)
    }

    /// Prints a line at once (standard output is a pipe under run.sh, so `print` would buffer it).
    func echo(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    private func write(_ record: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]) else { return }
        handle.write(data + Data("\n".utf8))
    }
}
