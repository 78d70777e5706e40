import ArgumentParser
import CDLogCore
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// Runs a root command the way both cdlog executables must behave (docs/domain.md, "Output contracts"):
/// `--help`/`--version` print to stdout and exit 0; usage errors, `ToolFailure`s and any other error
/// print one line to stderr and exit 2; `OutputClosed` (a closed stdout pipe) ends quietly with 0;
/// `ExitCode` thrown by a command is passed through (1 for findings at or above `--fail-on`). A write past
/// the file-size limit fails with a one-line error (exit 2) instead of killing the process with SIGXFSZ.
public enum CommandRunner {
    public static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String]? = nil) -> Never {
        OutputSink.ignoreBrokenPipeSignal()
        // Past a file-size limit (`ulimit -f`) a write then fails with EFBIG, reported as "cannot write".
        signal(SIGXFSZ, SIG_IGN)
        let toolName = root.configuration.commandName ?? String(describing: root)
        do {
            var command = try root.parseAsRoot(joiningNegativeValues(arguments ?? FileSystemPath.arguments()))
            try command.run()
            exit(0)
        } catch is OutputClosed {
            exit(0)
        } catch let failure as ToolFailure {
            printError("\(toolName): error: \(failure.message)")
            if let detail = failure.detail { printError(detail) }
            exit(ExitStatus.failure.rawValue)
        } catch let code as ExitCode {
            exit(code.rawValue)
        } catch {
            let exitCode = root.exitCode(for: error)
            if exitCode == .success {
                // --help, --version: the full text goes to stdout.
                print(root.fullMessage(for: error))
                exit(0)
            }
            let message = oneLine(root.message(for: error))
            printError("\(toolName): error: \(message) (see '\(toolName) --help')")
            exit(ExitStatus.failure.rawValue)
        }
    }

    /// The parser's message on one line: a list of valid values it prints one per line (`  - auto`) is
    /// joined with commas; anything after that (usage hints) is dropped.
    static func oneLine(_ message: String) -> String {
        let lines = message.textLines(omittingEmpty: true)
        guard var text = lines.first.map(String.init) else { return "invalid arguments" }
        let values = lines.dropFirst().prefix(while: { $0.hasPrefix("  - ") }).map { $0.dropFirst(4) }
        if !values.isEmpty { text += " " + values.joined(separator: ", ") }
        return text
    }

    /// `--threads -1` becomes `--threads=-1`: the parser takes a value that starts with `-` for an option
    /// and said "Missing value"; joined, the option's own check names the valid range.
    static func joiningNegativeValues(_ arguments: [String]) -> [String] {
        var out: [String] = []
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { out.append(contentsOf: arguments[index...]); break }
            if argument.hasPrefix("--"), !argument.contains("="), index + 1 < arguments.count,
               isNegativeNumber(arguments[index + 1]) {
                out.append(argument + "=" + arguments[index + 1])
                index += 2
                continue
            }
            out.append(argument)
            index += 1
        }
        return out
    }

    private static func isNegativeNumber(_ text: String) -> Bool {
        let digits = text.utf8.dropFirst()
        return text.hasPrefix("-") && !digits.isEmpty && digits.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
