import ArgumentParser
import CDLogKit
import Foundation

/// How inputs are read, shared by `classify` and `report`: `--input-format` and `--threads`.
struct ReadingOptions: ParsableArguments {
    @Option(name: .long, help: "Skip detection and read every source in this format.")
    var inputFormat: InputFormatChoice = .auto

    @Option(name: .long, help: "Threads used to classify large inputs (default: the number of CPU cores).")
    var threads: Int?

    func validate() throws {
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads takes a number from 1 to 256") }
    }

    /// `--threads`, or the number of active cores.
    var threadCount: Int { threads ?? ProcessInfo.processInfo.activeProcessorCount }
}
