import CDLogCore

struct CrashJSONError: Error, CustomStringConvertible {
    let message: String
    let offset: Int
    init(_ message: String, offset: Int) {
        self.message = message
        self.offset = offset
    }
    var description: String { "\(message) at byte \(offset)" }
}
