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

import ArgumentParser
import Foundation
import KeychainBus
import KeychainContract
import KeychainCore
import KeychainEngine
import Logging
import NIOCore

/// `securityd`: holds a keychain's keys for every process of the user, behind a Unix socket.
///
/// Clients (`security`, and programs with `KEYCHAIN_ENGINE=daemon`) send engine requests; the
/// daemon holds the class keys while the keychain is unlocked, runs the authentication gate and
/// answers with results only. One unlock serves every process until `lock`, and the
/// `AfterFirstUnlock` classes stay readable until the daemon stops (the analogue of a restart).
@main
struct SecurityDaemon: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "securityd",
        abstract: "Serve a keychain to the processes of its user through a Unix socket."
    )

    @Option(
        name: .customLong("keychain"),
        help: "The keychain home (default: KEYCHAIN_HOME, else ~/.local/share/swift-keychain)."
    )
    var home: String?

    @Option(help: "The socket (default: KEYCHAIN_SOCKET, else in $XDG_RUNTIME_DIR/swift-keychain/).")
    var socket: String?

    @Option(help: "Seconds a connection may stay silent before it is closed.")
    var idleTimeout: Int = 60

    @Option(help: "Exit after this many seconds without clients (default: never).")
    var exitWhenIdle: Int?

    @Option(
        help:
            "Lock the keychain after this many seconds without requests (default: the configuration's auto-lock, else KEYCHAIN_AUTO_LOCK, else never; the shortest of those given)."
    )
    var autoLock: Int?

    @Option(
        help:
            "The configuration file (default: securityd.conf in the keychain home; with --system, /etc/swift-keychain/securityd.conf)."
    )
    var config: String?

    @Option(help: .hidden)
    var readyFd: Int32?

    @Option(
        help:
            "Append the log to this file (in a folder of this user's own, which it creates) instead of standard error; a file over 1 MiB is started afresh."
    )
    var logFile: String?

    @Flag(
        help:
            "Also serve the freedesktop Secret Service (org.freedesktop.secrets) on the session bus, so that every program that keeps secrets through libsecret keeps them in this keychain."
    )
    var secretService = false

    @Flag(
        help:
            "With --secret-service: take org.freedesktop.secrets from the program that owns it (gnome-keyring, KWallet)."
    )
    var replace = false

    @Flag(
        help:
            "Serve every user's keychain, each kept in --state-directory where only this daemon can read it, on /run/swift-keychain/socket. Run it as a dedicated system user."
    )
    var system = false

    @Option(help: "With --system: the folder of the users' keychains.")
    var stateDirectory = "/var/lib/swift-keychain"

    @Flag(help: "With --system: list the users' keychains and whose each is, then exit.")
    var listKeychains = false

    @Option(
        help: ArgumentHelp(
            "With --system: give the keychain kept for this uid to the account that has the uid now (its old account was renamed), then exit.",
            valueName: "uid"
        )
    )
    var adoptKeychain: UInt32?

    @Option(
        help: ArgumentHelp(
            "With --system: delete the keychain kept for this uid, whose account is gone or replaced, then exit.",
            valueName: "uid"
        )
    )
    var removeKeychain: UInt32?

    func validate() throws {
        if replace && !secretService {
            throw ValidationError("--replace goes with --secret-service")
        }
        if system && secretService {
            throw ValidationError(
                "--secret-service serves one user's session bus: run it in the user's own securityd, not with --system"
            )
        }
        if !system && (listKeychains || adoptKeychain != nil || removeKeychain != nil) {
            throw ValidationError("--list-keychains, --adopt-keychain and --remove-keychain go with --system")
        }
    }

    func run() async throws {
        if system && (listKeychains || adoptKeychain != nil || removeKeychain != nil) {
            try administer()
            return
        }
        if let logFile { try DaemonLog.redirectStandardError(to: logFile) }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "securityd")
        // A prompter (pinentry) that exits before reading must not end the daemon.
        signal(SIGPIPE, SIG_IGN)
        // Other processes of the user must not read the keys out of this one's memory.
        if !ProcessProtection.harden() {
            logger.warning("this process could not be made non-dumpable")
        }
        // Nor find them in swap.
        switch MemoryLock.lockIfAllowed() {
        case .locked:
            logger.info("memory locked: keys and passcodes stay out of swap")
        case .limited(let bytes):
            logger.notice(
                "memory not locked: the locked-memory limit is finite; run with LimitMEMLOCK=infinity to keep keys out of swap",
                metadata: ["keychain.memlock.limit": "\(bytes)"]
            )
        case .failed(let code):
            logger.warning("memory could not be locked", metadata: ["errno": "\(code)"])
        }
        // Room for every client's share of connections (ClientLimits).
        DescriptorLimit.raise()
        if system {
            try await runSystem(logger: logger)
            return
        }
        let home =
            self.home.map { KeychainHome(url: URL(fileURLWithPath: $0, isDirectory: true).standardizedFileURL) }
            ?? KeychainHome.resolve()
        let endpoint =
            socket.map { DaemonEndpoint(socketPath: URL(fileURLWithPath: $0).standardizedFileURL.path) }
            ?? DaemonEndpoint.forHome(home.url)
        let readiness = ReadinessPipe(descriptor: readyFd)
        let engine: EmbeddedEngine
        let instance: SingleInstance
        let settings: DaemonSettings
        do {
            settings = try Self.settings(from: config ?? DaemonSettings.file(forHome: home.url), logger: logger)
            guard let acquired = try await SingleInstance.acquire(endpoint) else {
                readiness.withdraw()
                logger.info(
                    "another securityd serves this socket",
                    metadata: ["keychain.socket": "\(endpoint.socketPath)"]
                )
                return
            }
            instance = acquired
            // Lock files of daemons that were killed, one per keychain home a client ever used.
            SingleInstance.removeStaleLocks(in: endpoint.directory)
            engine = try EmbeddedEngine(
                directory: home.url,
                configuration: settings.engineConfiguration(logger: logger)
            )
        } catch {
            // The client that started this daemon reports it as the keychain would in its own process.
            readiness.report(.failed(Self.coreError(error)))
            throw error
        }
        var responder = EngineResponder(engine: engine, prompts: .daemon(pinentry: settings.makePinentry()))
        var secretServiceDoor: SecretServiceFrontDoor?
        if secretService {
            do {
                secretServiceDoor = try SecretServiceFrontDoor.open(
                    engine: engine,
                    pinentry: settings.makePinentry(),
                    replace: replace,
                    logger: logger
                )
            } catch {
                logger.error("cannot serve the Secret Service: \(error.message)")
                readiness.report(
                    .failed(KeychainError(.notAvailable, "cannot serve the Secret Service: \(error.message)"))
                )
                throw ExitCode(1)
            }
        }
        let watch = HomeWatch(home: home.url)
        responder.admission = { watch.problem() }
        responder.applications = ApplicationRegistry(engine: engine)
        let synchronization = SyncService(keychain: engine.keychain, logger: logger)
        synchronization.start()
        responder.synchronization = synchronization
        let clients = ClientTable(limits: .singleUser)
        var service = DaemonServer(endpoint: endpoint, roster: .single(responder), clients: clients, logger: logger)
        service.activatedSocket = Self.activatedSocket()
        service.readiness = readiness
        service.idleTimeout = .seconds(Int64(max(1, idleTimeout)))
        var lifetime = DaemonLifetime(watch: watch, clients: clients, logger: logger)
        // The Secret Service's clients are on the bus, not the socket: a daemon serving it stays;
        // so does one whose keychain is in a circle (the others' changes arrive with no client).
        let inCircle = (try? engine.keychain.isInCircle()) == true
        lifetime.exitWhenIdle = secretService || inCircle ? nil : exitWhenIdle.map { .seconds(max(1, $0)) }
        let owner = geteuid()
        let services = DaemonServices(
            server: service,
            lifetime: lifetime,
            clients: clients,
            engines: { [engine] },
            enginesOfUser: { userID in userID == nil || userID == owner ? [engine] : [] },
            autoLock: autoLockAfter(settings),
            sessionUnlockWindow: settings.sessionUnlockWindow,
            secretService: secretServiceDoor,
            logger: logger
        )
        do {
            try await services.run()
        } catch {
            readiness.report(.failed(Self.coreError(error)))
            throw error
        }
        // The lock file goes with the daemon (see SingleInstance).
        withExtendedLifetime(instance) {}
    }

    /// System mode: every user's keychain, in the state folder, behind one socket all users reach.
    private func runSystem(logger: Logger) async throws {
        let endpoint = DaemonEndpoint(
            socketPath: socket.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                ?? DaemonEndpoint.systemSocketPath
        )
        let state = URL(fileURLWithPath: stateDirectory, isDirectory: true).standardizedFileURL
        let settings = try Self.settings(from: config ?? DaemonSettings.systemFile, logger: logger)
        let keychains = try SystemKeychains(
            state: state,
            configuration: settings.engineConfiguration(logger: logger, systemMode: true),
            servesUidsWithoutAccount: settings.servesUidsWithoutAccount
        )
        // One daemon per state folder; its lock lives there, the daemon's own.
        guard let instance = try SingleInstance.acquire(lockPath: state.appendingPathComponent("securityd.lock").path)
        else {
            logger.info("another securityd serves this state folder", metadata: ["keychain.state": "\(state.path)"])
            return
        }
        let activated = Self.activatedSocket()
        if activated == nil { try SingleInstance.prepareSharedFolder(endpoint.directory) }
        // Run as its own account, it sees into users' processes (to recognise their apps) only
        // with CAP_SYS_PTRACE; PID 1's root is as closed to it as any user's without.
        if access("/proc/1/root/", F_OK) == 0 {
            logger.info("users' apps are recognised (this daemon can look into their processes)")
        } else {
            logger.notice(
                "users' sandboxed apps are not recognised: this daemon cannot look into their processes (grant it CAP_SYS_PTRACE, as the unit does); a confined client gets no access group"
            )
        }
        let clients = ClientTable(limits: .everyUser)
        var service = DaemonServer(endpoint: endpoint, roster: keychains.roster, clients: clients, logger: logger)
        service.activatedSocket = activated
        service.readiness = ReadinessPipe(descriptor: readyFd)
        service.idleTimeout = .seconds(Int64(max(1, idleTimeout)))
        service.isShared = true
        let services = DaemonServices(
            server: service,
            lifetime: nil,
            clients: clients,
            engines: { keychains.engines },
            enginesOfUser: { userID in
                userID.map { keychains.engine(ofUser: $0).map { [$0] } ?? [] } ?? keychains.engines
            },
            autoLock: autoLockAfter(settings),
            sessionUnlockWindow: settings.sessionUnlockWindow,
            logger: logger
        )
        try await services.run()
        withExtendedLifetime(instance) {}
    }

    /// `--list-keychains`, `--adopt-keychain`, `--remove-keychain`: an administrator's work on the
    /// state folder; no daemon starts.
    private func administer() throws {
        let administration = KeychainAdministration(
            state: URL(fileURLWithPath: stateDirectory, isDirectory: true).standardizedFileURL
        )
        do {
            if listKeychains {
                for entry in try administration.entries() { print("\(entry.userID)\t\(entry.status)") }
            }
            if let adoptKeychain { print(try administration.adopt(adoptKeychain)) }
            if let removeKeychain { print(try administration.remove(removeKeychain)) }
        } catch {
            FileHandle.standardError.write(Data("securityd: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// How long without requests before the keychains lock: the shortest of `--auto-lock`, the
    /// configuration's and `KEYCHAIN_AUTO_LOCK` (which, from whoever started the daemon, can
    /// only make it lock sooner).
    private func autoLockAfter(_ settings: DaemonSettings) -> Duration? {
        [autoLock.map { Duration.seconds(max(1, $0)) }, settings.autoLock, AutoLock.fromEnvironment()]
            .compactMap { $0 }.min()
    }

    /// The settings in `path`, which the daemon does not start without when they cannot be trusted.
    private static func settings(from path: String, logger: Logger) throws(KeychainError) -> DaemonSettings {
        do {
            let settings = try DaemonSettings.load(from: path)
            settings.applySystemBus()
            return settings
        } catch {
            logger.critical("\(error.description)")
            throw KeychainError(.notAvailable, "the keychain daemon cannot start: \(error.description)")
        }
    }

    /// `error` as the engine's error, which crosses to a client.
    private static func coreError(_ error: any Error) -> KeychainError {
        error as? KeychainError ?? KeychainError(.notAvailable, "the keychain daemon cannot start: \(error)")
    }

    /// The first socket systemd passed this process (`LISTEN_FDS`, `LISTEN_PID`), if any; the
    /// variables are removed so that no child takes them for its own.
    private static func activatedSocket() -> Int32? {
        let environment = ProcessInfo.processInfo.environment
        defer {
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment["LISTEN_PID"].flatMap(Int32.init), pid == getpid(),
            let count = environment["LISTEN_FDS"].flatMap(Int.init), count >= 1
        else { return nil }
        let descriptor: Int32 = 3  // SD_LISTEN_FDS_START
        // Only a listening socket: anything else at descriptor 3 is not what systemd passes.
        var listening: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening == 1 else {
            return nil
        }
        return descriptor
    }
}
