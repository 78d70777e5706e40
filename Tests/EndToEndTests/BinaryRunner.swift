import Foundation

/// Runs the built executables the way a user does, capturing output and exit status.
enum BinaryRunner {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The built product `name` (debug build, as `swift test` builds it).
    static func binary(_ name: String) -> URL {
        for configuration in ["debug", "release"] {
            let url = packageRoot.appendingPathComponent(".build/\(configuration)/\(name)")
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return packageRoot.appendingPathComponent(".build/debug/\(name)")
    }

    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// Runs `executable` with `arguments` in `directory` (default: the package root), feeding `stdin`.
    static func run(_ executable: URL, _ arguments: [String], stdin: Data? = nil, directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory ?? packageRoot
        if let environment { process.environment = environment }
        // stdin and stderr go through files so no pipe can fill up and block the child.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("cdlog-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let inputURL = scratch.appendingPathComponent("stdin"), errorURL = scratch.appendingPathComponent("stderr")
        try (stdin ?? Data()).write(to: inputURL)
        FileManager.default.createFile(atPath: errorURL.path, contents: nil)
        let out = Pipe()
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: errorURL)
        process.standardInput = try FileHandle(forReadingFrom: inputURL)
        try process.run()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errData = (try? Data(contentsOf: errorURL)) ?? Data()
        return Result(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                      stderr: String(decoding: errData, as: UTF8.self))
    }

    static func cdlog(_ arguments: [String], stdin: Data? = nil, directory: URL? = nil) throws -> Result {
        try run(binary("cdlog"), arguments, stdin: stdin, directory: directory)
    }

    /// Runs a shell pipeline (for broken-pipe tests); returns the exit statuses of every stage.
    static func shell(_ script: String) throws -> Result {
        try run(URL(fileURLWithPath: "/bin/bash"), ["-c", script])
    }
}
