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

#if canImport(CoreFoundation)
// `termios` reaches Swift through CoreFoundation's headers first on Linux (member import visibility).
import CoreFoundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Unsupported Platform")
#endif

/// Turns the terminal's echo off for a secret prompt, and makes sure it comes back: on return, and
/// on the signals that would otherwise end or stop the process with echo still off.
///
/// The handlers restore the saved settings (`tcsetattr` is async-signal-safe), then let the signal
/// take its default effect. After a stop (Ctrl-Z) and `fg`, echo is turned off again and the prompt
/// goes on reading.
enum EchoGuard {
    /// The terminal settings before the prompt; read by the signal handlers.
    nonisolated(unsafe) private static var saved = termios()
    nonisolated(unsafe) private static var silent = termios()
    nonisolated(unsafe) private static var previous: [Int32: sighandler_t?] = [:]
    private static let signals: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGTSTP]

    /// Turns echo off and installs the handlers; `false` if standard input has no terminal settings.
    ///
    /// A signal the process ignores (`nohup`, a background job) stays ignored: the prompt must not
    /// make it fatal.
    static func silence() -> Bool {
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return false }
        silent = saved
        silent.c_lflag &= ~tcflag_t(ECHO | ECHONL)
        for number in signals {
            let earlier = signal(number, handle)
            if isIgnore(earlier) {
                _ = signal(number, earlier)
            } else {
                previous[number] = earlier
            }
        }
        apply(&silent)
        return true
    }

    /// Puts the previous handlers back, then the terminal (in that order, so that a stop in between
    /// cannot silence the terminal again after the prompt).
    static func restore() {
        for (number, earlier) in previous {
            _ = signal(number, earlier ?? SIG_DFL)
        }
        previous = [:]
        apply(&saved)
    }

    /// Sets the terminal, after the pending output, again while a signal interrupts the call.
    private static func apply(_ settings: inout termios) {
        while tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings) != 0, errno == EINTR {}
    }

    private static func isIgnore(_ handler: sighandler_t?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private static let handle: @convention(c) (Int32) -> Void = { number in
        tcsetattr(STDIN_FILENO, TCSANOW, &EchoGuard.saved)
        _ = signal(number, SIG_DFL)
        // The signal is blocked while its handler runs: unblock it, so that raising it takes its
        // default effect now.
        var this = sigset_t()
        sigemptyset(&this)
        sigaddset(&this, number)
        pthread_sigmask(SIG_UNBLOCK, &this, nil)
        raise(number)
        // Only a stop returns here (after SIGCONT): silence the terminal again and keep guarding.
        _ = signal(number, EchoGuard.handle)
        tcsetattr(STDIN_FILENO, TCSANOW, &EchoGuard.silent)
    }
}
