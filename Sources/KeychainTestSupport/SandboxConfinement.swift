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

/// What a sandbox does to a process, without the sandbox: `no_new_privs` and one seccomp filter that
/// allows everything, set by python3 before it `exec`s the program — what Flatpak's bubblewrap and
/// systemd's `NoNewPrivileges=`/`SystemCallFilter=` leave in `/proc/PID/status`.
package enum SandboxConfinement {
    /// Whether python3 is there to apply it.
    package static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: python)
    }

    /// A command line that runs `program arguments…` so confined.
    package static func command(_ program: URL, _ arguments: [String] = []) -> [String] {
        [python, "-c", script, program.path] + arguments
    }

    private static let python = "/usr/bin/python3"

    // prctl(PR_SET_NO_NEW_PRIVS, 1), then prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &program) with a
    // one-instruction program: BPF_RET | BPF_K, SECCOMP_RET_ALLOW.
    private static let script = """
        import ctypes, os, sys
        libc = ctypes.CDLL(None, use_errno=True)
        class Instruction(ctypes.Structure):
            _fields_ = [("code", ctypes.c_ushort), ("jt", ctypes.c_ubyte), ("jf", ctypes.c_ubyte), ("k", ctypes.c_uint)]
        class Program(ctypes.Structure):
            _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.POINTER(Instruction))]
        allow = (Instruction * 1)(Instruction(0x06, 0, 0, 0x7FFF0000))
        program = Program(1, allow)
        if libc.prctl(38, 1, 0, 0, 0) != 0:
            sys.exit("no_new_privs: errno %d" % ctypes.get_errno())
        if libc.prctl(22, 2, ctypes.byref(program), 0, 0) != 0:
            sys.exit("seccomp: errno %d" % ctypes.get_errno())
        os.execv(sys.argv[1], sys.argv[1:])
        """
}
