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

/// Starts programs with `posix_spawn`, handing them exactly the descriptors named and nothing
/// else of this process.
///
/// An inherited pipe or socket keeps whoever waits on it for end-of-file waiting for as long as
/// the child lives (the parent of a `security` command that started `securityd`), and an
/// inherited listening socket would let a prompter accept keychain connections.
///
/// The child also starts with no signal blocked and every signal at its default action, as a
/// program started afresh expects: `securityd` ignores `SIGTERM` and `SIGINT` (it hears them
/// through its event loop) and its threads block them, and both pass through `exec` — a
/// prompter it started would then outlive the `SIGTERM` meant to end it.
package enum Spawner {
    /// What one of the child's standard descriptors is.
    package enum Stream {
        /// `/dev/null`.
        case null
        /// A descriptor of this process, duplicated into the child.
        case descriptor(Int32)
    }

    /// Starts `executable` with `arguments` (the program name first) and `environment`
    /// (`KEY=value`; this process's own when `nil`); `newSession` detaches it from the terminal.
    ///
    /// - Returns: The child's process ID, or the failure's `errno`.
    package static func spawn(
        _ executable: String,
        arguments: [String],
        environment: [String]? = nil,
        streams: [Stream] = [.null, .null, .null],
        newSession: Bool = false
    ) -> Result<pid_t, Failure> {
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        posix_spawn_file_actions_init(&actions)
        posix_spawnattr_init(&attributes)
        defer {
            posix_spawn_file_actions_destroy(&actions)
            posix_spawnattr_destroy(&attributes)
        }
        for (target, stream) in zip(Int32(0)..., streams) {
            switch stream {
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
            case .descriptor(let source):
                posix_spawn_file_actions_adddup2(&actions, source, target)
            }
        }
        if let closeFrom {
            _ = closeFrom(&actions, Int32(streams.count))
        }
        var flags = Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF)
        let signals = UnsafeMutablePointer<sigset_t>.allocate(capacity: 1)
        defer { signals.deallocate() }
        sigemptyset(signals)
        posix_spawnattr_setsigmask(&attributes, signals)
        sigfillset(signals)
        posix_spawnattr_setsigdefault(&attributes, signals)
        if newSession {
            // POSIX_SPAWN_SETSID (glibc and musl; the header hides it without _GNU_SOURCE).
            flags |= 0x80
        }
        posix_spawnattr_setflags(&attributes, flags)
        var cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { $0.map { strdup($0) } + [nil] }
        defer {
            for argument in cArguments { free(argument) }
            for variable in cEnvironment ?? [] { free(variable) }
        }
        var processID: pid_t = 0
        let result: Int32
        if var cEnvironment {
            result = posix_spawn(&processID, executable, &actions, &attributes, &cArguments, &cEnvironment)
        } else {
            result = posix_spawn(&processID, executable, &actions, &attributes, &cArguments, environ)
        }
        return result == 0 ? .success(processID) : .failure(Failure(code: result))
    }

    /// A failed start: the `errno`.
    package struct Failure: Error {
        package var code: Int32
    }

    /// Waits for a child to exit, retrying when a signal interrupts the wait.
    package static func wait(for processID: pid_t) {
        while waitpid(processID, nil, 0) < 0 && errno == EINTR {}
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which its headers
    /// declare only under `_GNU_SOURCE`; `nil` where the C library lacks it.
    private static let closeFrom: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? =
        {
            guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np")
            else { return nil }
            return unsafeBitCast(
                symbol,
                to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self
            )
        }()
}
