import CDLogCore

enum LogShowPrefix {
    /// Skips an optional `(Library) ` and reads an optional `[subsystem:category] `. A library's name has
    /// no blank: a message that opens with a parenthesis (`(SyncKit.SyncError error 0) The operation
    /// couldn't be completed.`) keeps it.
    static func libraryAndSubsystem(_ line: UnsafeRawBufferPointer, from i: inout Int, into header: inout LineHeader) {
        if i < line.count, line[i] == UInt8(ascii: "("),
           let close = line.firstIndex(of: UInt8(ascii: ")"), from: i + 1, to: min(line.count, i + 128)),
           close + 1 < line.count, line[close + 1] == UInt8(ascii: " "),
           !line[(i + 1)..<close].contains(where: { ByteClass.isBlank($0) }) {
            i = ByteScan.spaces(line, at: close + 1)
        }
        if let pair = ByteScan.subsystemCategory(line, at: i) {
            header.subsystem = pair.subsystem
            header.logCategory = pair.category
            i = ByteScan.spaces(line, at: pair.end)
        }
    }
}
