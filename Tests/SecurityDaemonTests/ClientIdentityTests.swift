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
import KeychainContract
import KeychainCore
import KeychainDevice
import Testing

@testable import SecurityDaemon

/// Who a client is and what it may use: Flatpak apps get their own group only, a process whose
/// sandbox the daemon cannot see into gets nothing, an unsandboxed program what it asks for.
@Suite struct ClientIdentityTests {
    /// A fake `/proc` with one process folder per entry.
    final class FakeProc {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("fake-proc-\(UUID().uuidString)")

        func process(_ id: Int32, root: [String: String]?, status: String? = nil) throws {
            let folder = url.appendingPathComponent("\(id)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if let root {
                let rootFolder = folder.appendingPathComponent("root")
                try FileManager.default.createDirectory(at: rootFolder, withIntermediateDirectories: true)
                for (name, text) in root { try Data(text.utf8).write(to: rootFolder.appendingPathComponent(name)) }
            }
            if let status { try Data(status.utf8).write(to: folder.appendingPathComponent("status")) }
        }

        deinit { try? FileManager.default.removeItem(at: url) }
    }

    @Test func theFlatpakInfoAtTheRootNamesTheApp() throws {
        let proc = FakeProc()
        try proc.process(
            10,
            root: [".flatpak-info": "[Application]\nname=org.example.Notes\nruntime=x\n\n[Instance]\nname=evil.other\n"]
        )
        try proc.process(11, root: [:])
        try proc.process(12, root: [".flatpak-info": "[Instance]\nname=org.example.Notes\n"])
        try proc.process(13, root: [".flatpak-info": "[Application]\nname=org.example.Notes/../x\n"])
        #expect(ClientIdentity.of(processID: 10, proc: proc.url.path) == .flatpak(appID: "org.example.Notes"))
        #expect(ClientIdentity.of(processID: 11, proc: proc.url.path) == .unsandboxed)
        // A file that names no app, or names it badly, is not believed either way.
        #expect(ClientIdentity.of(processID: 12, proc: proc.url.path) == .unverifiable)
        #expect(ClientIdentity.of(processID: 13, proc: proc.url.path) == .unverifiable)
    }

    /// The daemon pins the connecting process (`SO_PEERPIDFD`): once it is gone, its process ID may
    /// be another process's, and what `/proc` says is not believed.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "a peer process in python3"))
    func aPeerThatIsGoneIsToldApartFromALiveOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "peer-\(UUID().uuidString.prefix(8))"
        )
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("socket").path
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8) + [0]) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        #expect(bound == 0 && listen(listener, 1) == 0)
        let peer = Process()
        peer.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        peer.arguments = [
            "-c", "import socket, sys, time; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(30)",
            path,
        ]
        try peer.run()
        let connection = accept(listener, nil, nil)
        defer { close(connection) }
        var handle: Int32 = -1
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(connection, SOL_SOCKET, PeerCredentials.peerProcessHandleOption, &handle, &length) == 0 else {
            let reason = errno
            kill(peer.processIdentifier, SIGKILL)
            // A kernel before 6.5 has no SO_PEERPIDFD: the daemon then goes by the PID alone.
            #expect(reason == ENOPROTOOPT, "SO_PEERPIDFD failed: \(String(cString: strerror(reason)))")
            return
        }
        defer { close(handle) }
        #expect(PeerCredentials.isAlive(handle))
        kill(peer.processIdentifier, SIGKILL)
        peer.waitUntilExit()
        #expect(!PeerCredentials.isAlive(handle))
    }

    @Test func aFifoInPlaceOfTheFlatpakInfoIsNotWaitedFor() throws {
        let proc = FakeProc()
        try proc.process(40, root: [:])
        // Opened for reading, a FIFO blocks until someone writes: the daemon's event loop would stop.
        #expect(mkfifo(proc.url.appendingPathComponent("40/root/.flatpak-info").path, 0o600) == 0)
        try proc.process(41, root: [:])
        try FileManager.default.createDirectory(
            at: proc.url.appendingPathComponent("41/root/.flatpak-info"),
            withIntermediateDirectories: true
        )
        #expect(ClientIdentity.of(processID: 40, proc: proc.url.path) == .unverifiable)
        #expect(ClientIdentity.of(processID: 41, proc: proc.url.path) == .unverifiable)
    }

    @Test func aRootTheDaemonCannotSeeIntoIsJudgedByTheProcessesConfinement() throws {
        let proc = FakeProc()
        // No readable root (a non-dumpable process): sandboxes run with no_new_privs or seccomp.
        // Compared with the daemon's own (this test process's), as in a container that confines all.
        let own = try #require(ClientIdentity.Confinement.ofThisProcess)
        let ownLines =
            "NoNewPrivs:\t\(own.noNewPrivileges ? 1 : 0)\nSeccomp:\t\(own.seccompMode)\nSeccomp_filters:\t\(own.seccompFilters)\n"
        try proc.process(
            20,
            root: nil,
            status: "Name:\tapp\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t\(own.seccompFilters + 1)\n"
        )
        try proc.process(1, root: nil, status: "Name:\tinit\n" + ownLines)
        try proc.process(21, root: nil, status: "Name:\tsecurity\n" + ownLines)
        try proc.process(
            22,
            root: nil,
            status:
                "Name:\tx\nNoNewPrivs:\t\(own.noNewPrivileges ? 1 : 0)\nSeccomp:\t2\nSeccomp_filters:\t\(own.seccompFilters + 1)\n"
        )
        try proc.process(23, root: nil, status: "Name:\told kernel\n")
        #expect(ClientIdentity.of(processID: 20, proc: proc.url.path) == .unverifiable)
        #expect(ClientIdentity.of(processID: 21, proc: proc.url.path) == .unsandboxed)
        #expect(ClientIdentity.of(processID: 22, proc: proc.url.path) == .unverifiable)
        #expect(ClientIdentity.of(processID: 23, proc: proc.url.path) == .unverifiable)
        // A process that is gone is nobody.
        #expect(ClientIdentity.of(processID: 99, proc: proc.url.path) == .unverifiable)

        // A system-mode daemon is confined by its service (no_new_privs, several seccomp filters),
        // more than a sandbox may be: it judges against no confinement at all.
        let service = ClientIdentity.Confinement(noNewPrivileges: true, seccompMode: 2, seccompFilters: 9)
        try proc.process(30, root: nil, status: "Name:\tapp\nNoNewPrivs:\t1\nSeccomp:\t2\nSeccomp_filters:\t1\n")
        try proc.process(31, root: nil, status: "Name:\tshell\nNoNewPrivs:\t0\nSeccomp:\t0\nSeccomp_filters:\t0\n")
        #expect(ClientIdentity.isConfined(processID: 30, proc: proc.url.path, baseline: service) == false)
        #expect(
            ClientIdentity.of(processID: 30, proc: proc.url.path, baseline: ClientIdentity.Confinement.none)
                == .unverifiable
        )
        #expect(
            ClientIdentity.of(processID: 31, proc: proc.url.path, baseline: ClientIdentity.Confinement.none)
                == .unsandboxed
        )
    }

    @Test func grantsNarrowWhatTheClientAsksForAndNeverWidenIt() {
        let notes = AccessGrant(groups: AccessGroups(["org.example.Notes"]), ownGroup: "org.example.Notes")
        #expect(notes.scope(AccessGroups(["default"]))?.groups == ["org.example.Notes"])
        #expect(notes.scope(AccessGroups(["default", "*"]))?.groups == ["org.example.Notes"])
        #expect(notes.scope(AccessGroups(["mail", "*"]))?.groups == ["org.example.Notes"])
        #expect(notes.scope(AccessGroups(["mail"]))?.groups == [])
        #expect(notes.scope(nil)?.groups == ["org.example.Notes"])
        // Groups the user granted come after the app's own, which receives new items.
        let granted = AccessGrant(
            groups: AccessGroups(["org.example.Notes", "default"]),
            ownGroup: "org.example.Notes"
        )
        #expect(granted.scope(AccessGroups(["default"]))?.groups == ["org.example.Notes", "default"])
        #expect(granted.scope(AccessGroups(["default"]))?.groupForNewItems == "org.example.Notes")
        #expect(granted.scope(AccessGroups(["mail", "*"]))?.groups == ["org.example.Notes", "default"])
        // The user's programs: anything but the excluded groups, however they ask.
        let programs = AccessGrant(groups: AccessGroups(["*"], excluding: ["org.example.Notes"]))
        #expect(programs.scope(AccessGroups(["mail", "shared"]))?.groups == ["mail", "shared"])
        #expect(programs.scope(AccessGroups(["org.example.Notes"]))?.groups == [])
        let everything = programs.scope(AccessGroups(["default", "*"]))
        #expect(everything?.groups == ["default", "*"])
        #expect(everything?.permits("mail") == true)
        #expect(everything?.permits("org.example.Notes") == false)
        #expect(programs.scope(nil)?.groups == ["default"])
        #expect(programs.scope(nil)?.permits("org.example.Notes") == false)
        #expect(AccessGrant.everything.scope(nil) == nil)
        #expect(AccessGrant.nothing.scope(AccessGroups(["default", "*"]))?.groups == [])
    }

    @Test func theBaselineIsWhatConfinesEveryProcessNotTheDaemonsOwnUnit() {
        // The shipped unit confines the daemon (no_new_privs, system-call filters); PID 1 is not.
        let service = ClientIdentity.Confinement(noNewPrivileges: true, seccompMode: 2, seccompFilters: 3)
        let initProcess = ClientIdentity.Confinement.none
        let floor = service.lesser(initProcess)
        let app = ClientIdentity.Confinement(noNewPrivileges: true, seccompMode: 2, seccompFilters: 1)
        #expect(app.exceeds(floor))
        #expect(!app.exceeds(service))  // what the daemon's own confinement alone concluded
        #expect(!ClientIdentity.Confinement.none.exceeds(floor))
        // A container confines every process, PID 1 too: its programs are not sandboxes.
        let container = ClientIdentity.Confinement(noNewPrivileges: false, seccompMode: 2, seccompFilters: 1)
        #expect(!container.exceeds(container.lesser(service)))
    }
}
