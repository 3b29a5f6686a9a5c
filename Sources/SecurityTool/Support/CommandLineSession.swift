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
import KeychainDevice
import SecurityCommandLine

/// The tool's top level, as macOS's `security` has it (`SecurityTool/macOS/security.c`): global
/// options `-h -i -p prompt -q -v`, one command from the arguments or, with `-i`, one per line of
/// standard input; no command is usage (exit 2), an unknown one `unknown command` (exit 1).
enum CommandLineSession {
    /// Runs the tool on `arguments` (without the program name); the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        if arguments.first == "--version" {
            print("swift-keychain \(SecurityTool.version)")
            return 0
        }
        if arguments.first == "--help" {
            print(SecurityTool.helpMessage())
            return 0
        }
        if let first = arguments.first, first.hasPrefix("--generate-") || first == "--experimental-dump-help" {
            // ArgumentParser's own: shell completions (`--generate-completion-script bash`) and
            // what the manual-page plugin reads.
            do {
                var command = try SecurityTool.parseAsRoot(arguments)
                try command.run()
                return 0
            } catch {
                // The script or the dump comes back as an "error" whose exit code is success.
                let code = SecurityTool.exitCode(for: error)
                if code == .success {
                    print(SecurityTool.fullMessage(for: error))
                } else {
                    Terminal.printError(SecurityTool.fullMessage(for: error))
                }
                return code.rawValue
            }
        }
        let reading = Getopt("hilp:qv").read(arguments)
        guard case .success(let (options, operands)) = reading else {
            switch reading {
            case .failure(.illegalOption(let letter)): Terminal.printError("security: illegal option -- \(letter)")
            case .failure(.missingValue(let letter)):
                Terminal.printError("security: option requires an argument -- \(letter)")
            default: break
            }
            print(SecurityTool.helpMessage())
            return 2
        }
        var settings = Settings()
        for case .option(let letter, let value) in options {
            switch letter {
            case "h": settings.help = true
            case "i": settings.interactive = true
            case "p":
                settings.interactive = true
                settings.prompt = value ?? settings.prompt
            case "q": settings.quiet = true
            case "v": settings.verbose = true
            default: break
            }
        }
        ToolLogging.bootstrap(verbose: settings.verbose)
        if settings.help {
            return help(operands)
        }
        if !operands.isEmpty {
            return execute(operands, settings)
        }
        if settings.interactive {
            return interact(settings)
        }
        print(SecurityTool.helpMessage())
        return 2
    }

    struct Settings {
        var help = false
        var interactive = false
        var prompt = "security> "
        var quiet = false
        var verbose = false
    }

    // MARK: Commands

    /// Why a command line names no command to run.
    enum Failure: Error {
        /// No command has this name or begins with it (exit 1).
        case unknownCommand(String)
        /// The command's options could not be read: `getopt`'s message, if any, then the usage (exit 2).
        case usage(String?, any ParsableCommand.Type)
    }

    /// The command a command line (its first word names the command) asks for.
    static func parse(_ words: [String]) throws -> any ParsableCommand {
        guard let name = words.first, let type = SecurityTool.command(named: name) else {
            throw Failure.unknownCommand(words.first ?? "")
        }
        let arguments = Array(words.dropFirst())
        switch ItemCommandLine.read(arguments, for: type._commandName) {
        case .arguments(let rewritten): return try type.parseAsRoot(rewritten)
        case .usage(let message): throw Failure.usage(message, type)
        case .help: throw Failure.usage(nil, type)
        case nil: return try SecurityTool.parseAsRoot([type._commandName] + arguments)
        }
    }

    /// The exit status for a failure to parse or run, as macOS's tool exits: 1 for an unknown
    /// command, 2 for a usage error.
    static func exitStatus(for error: any Error) -> Int32 {
        switch error {
        case Failure.unknownCommand: return 1
        case Failure.usage: return 2
        case let exit as ExitCode: return exit.rawValue
        case let failure as Session.StatusFailure: return Session.exitStatus(failure.status)
        default:
            let code = SecurityTool.exitCode(for: error)
            return code == .validationFailure ? 2 : code.rawValue
        }
    }

    /// Runs one command line (its first word names the command); its result: the `OSStatus` a
    /// command failed with (the process exits with its low byte, as macOS's tool does), else an exit status.
    static func execute(_ words: [String], _ settings: Settings) -> Int32 {
        guard let name = words.first else { return 0 }
        if settings.verbose {
            let commandName = SecurityTool.command(named: name)?._commandName ?? name
            let shown = [commandName] + maskingPasswords(Array(words.dropFirst()), of: commandName).map { "\"\($0)\"" }
            Terminal.printError(shown.joined(separator: " "))
        }
        defer { Session.close() }
        do {
            var command = try parse(words)
            try command.run()
            return 0
        } catch Failure.unknownCommand(let name) {
            Terminal.printError("security: unknown command \"\(name)\"")
            return 1
        } catch Failure.usage(let message, let type) {
            if let message { Terminal.printError(message) }
            Terminal.printError(SecurityTool.helpMessage(for: type))
            return 2
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch let failure as Session.StatusFailure {
            // The OSStatus itself, as macOS's commands return it: `exit` keeps its low byte.
            return failure.status
        } catch {
            if SecurityTool.exitCode(for: error) == .success {
                print(SecurityTool.fullMessage(for: error))
                return 0
            }
            // Usage errors: macOS prints the usage on standard error and exits with 2.
            Terminal.printError(SecurityTool.fullMessage(for: error))
            return exitStatus(for: error)
        }
    }

    /// `-h [command…]`: the usage of each command named, or the list of commands.
    static func help(_ names: [String]) -> Int32 {
        guard !names.isEmpty else {
            print(SecurityTool.helpMessage())
            return 0
        }
        for name in names {
            guard let type = SecurityTool.command(named: name) else {
                Terminal.printError("security: help: no such command: \(name)")
                return 1
            }
            print(SecurityTool.helpMessage(for: type))
        }
        return 0
    }

    // MARK: Interactive

    /// `-i`: one command per line of standard input until its end (or `quit`); the prompt only
    /// when standard input is a terminal.
    ///
    /// The status is the last command's.
    static func interact(_ settings: Settings) -> Int32 {
        let showPrompt = isatty(STDIN_FILENO) == 1
        var status: Int32 = 0
        while true {
            if showPrompt { FileHandle.standardError.write(Data(settings.prompt.utf8)) }
            // Unbuffered, as the password prompts read: a buffered reader would take the lines
            // meant for a prompt, which would then run as commands.
            let line: String
            do {
                guard let read = try Terminal.readLineUnbuffered() else { break }
                line = read
            } catch {
                Terminal.printError("security: \(error)")
                status = 1
                continue
            }
            let words = CommandLineWords.split(line)
            guard let first = words.first else {
                status = 0
                continue
            }
            if first == "quit" || first == "exit" {
                status = 0
                break
            }
            status = execute(words, settings)
            if status != 0 && !settings.quiet {
                Terminal.printError("\(first): returned \(status)")
            }
        }
        return status
    }

    /// `arguments` for `-v`'s echo: every argument that holds a password (`-w`, `-p` of the generic
    /// add, `-X`, their long forms, `unlock-keychain -p`), found as the command reads them, is hidden.
    static func maskingPasswords(_ arguments: [String], of command: String) -> [String] {
        let letters: String
        let secretLetters: Set<Character>
        if let grammar = ItemCommandLine.grammars[command] {
            letters = grammar.letters
            secretLetters = Set(grammar.names.filter { ItemCommandLine.passwordOptions.contains($0.value) }.keys)
        } else if command == "unlock-keychain" {
            (letters, secretLetters) = ("hp:u", ["p"])
        } else {
            return arguments
        }
        var secrets: [String] = []
        if case .success(let (options, _)) = Getopt(letters, valuedLongOptions: ItemCommandLine.valuedLongOptions).read(
            arguments
        ) {
            for case .option(let letter, let value?) in options where secretLetters.contains(letter) {
                secrets.append(value)
            }
        }
        return arguments.map { argument in
            let isLongSecret = ItemCommandLine.passwordOptions.contains { argument.hasPrefix("--\($0)") }
            let holdsSecret = secrets.contains { !$0.isEmpty && argument.contains($0) }
            return isLongSecret || holdsSecret ? "<hidden>" : argument
        }
    }
}
