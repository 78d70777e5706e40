import Testing
import Foundation
@testable import CDLogKit

@Test func dumpAllFixtures() throws {
    guard ProcessInfo.processInfo.environment["CRASH_DUMP"] != nil else { return }
    for name in CrashFixtures.all {
        print("=== \(name)")
        do {
            for entry in try CrashFixtures.entries(name) {
                print("lines \(entry.line)-\(entry.endLine) ts=\(entry.timestamp ?? "-") process=\(entry.process ?? "-")")
                print(entry.message)
                for field in entry.presetFields where !["mainThreadFrames", "cannotTell"].contains(field.name) { print("  \(field.name) = \(field.value)") }
            }
        } catch {
            print("ERROR \(error)")
        }
    }
}
